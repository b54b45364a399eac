// The order shapes the orders function answers (docs/api.md, Orders).
import type { Paged } from '../../lib/paging';

export type OrderStatus = 'pending' | 'paid' | 'shipped' | 'delivered' | 'cancelled';

export const ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'paid', 'shipped', 'delivered', 'cancelled'];

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
  phone: string;
  email: string;
  message: string;
  card: { brand: string; last4: string };
  createdAt: string;
  updatedAt: string;
}

export type PagedOrders = Paged<Order>;

export interface OrderTotals {
  totalOrders: number;
  totalPayments: number;
}
