// The order shapes the orders function answers (docs/api.md, Orders).
import type { Paged } from '../../lib/paging';

/** `expired` (the payment never completed) and `refunded` (a paid order cancelled) are set by the server only. */
export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'expired' | 'refunded';

/** The statuses an admin may choose. */
export const ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];

/** Where the money is: what the admin list and the order page say about the payment. */
export type PaymentState = 'pending' | 'paid' | 'refunded' | 'expired' | 'not paid';

export function paymentState(status: OrderStatus): PaymentState {
  switch (status) {
    case 'pending':
      return 'pending';
    case 'paid':
    case 'shipped':
    case 'delivered':
      return 'paid';
    case 'refunded':
      return 'refunded';
    case 'expired':
      return 'expired';
    case 'cancelled':
      return 'not paid';
  }
}

/** Cancelling an order whose money was taken refunds it in full (the server does both). */
export const cancelRefunds = (status: OrderStatus): boolean => paymentState(status) === 'paid';

export interface OrderLine {
  product: string;
  name: string;
  image: string;
  qty: number;
  /** The pack label. */
  quantity: string;
  /** Pounds per unit, as charged. */
  price: number;
}

export interface Order {
  _id: string;
  product: OrderLine[];
  subtotal: number;
  discount: number;
  shipping: number;
  total: number;
  code: string | null;
  codeRate: number;
  status: OrderStatus;
  fullname: string;
  address: string;
  /** The contact details and card are shown only to the order's owner and admins (absent otherwise). */
  phone?: string;
  email?: string;
  message?: string;
  card?: { brand: string; last4: string };
  /** Stripe's refund id, once a paid order was cancelled and refunded. */
  refundId?: string | null;
  createdAt: string;
  updatedAt: string;
}

export type PagedOrders = Paged<Order>;

export interface OrderTotals {
  totalOrders: number;
  totalPayments: number;
}
