// The order shapes the orders function answers, as the API's OpenAPI document describes them.
import type { Schemas } from '../../lib/api';

/** `expired` (the payment never completed) and `refunded` (a paid order cancelled) are set by the server only. */
export type OrderStatus = Schemas['Status'];

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

/** One line: `price` is pounds per unit as charged, `quantity` the pack label. */
export type OrderLine = Schemas['OrderLine'];

/**
 * An order as its page reads it: the contact details and card are shown only to the order's owner and
 * admins (absent otherwise); `refundId` is Stripe's, once a paid order was cancelled and refunded. A list's
 * orders (`Schemas['Order']`) carry every field, so they are orders too.
 */
export type Order = Schemas['OrderPage'];

/** A page of orders (the admin's list, a shopper's history). */
export type PagedOrders = Schemas['Page_of_Order'];

export type OrderTotals = Schemas['Totals'];

/** How people refer to an order: its number (PD-10001), or the start of its id for one placed before numbers. */
export const orderReference = (order: Pick<Order, '_id' | 'number'>): string => order.number ?? order._id.slice(0, 8);

/** A VAT receipt exists for money taken and kept, on orders that recorded their VAT. */
export const hasReceipt = (order: Order): boolean => paymentState(order.status) === 'paid' && order.vat != null;
