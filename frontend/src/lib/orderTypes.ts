// The order shapes the orders function answers, as the API's OpenAPI document describes them.
import type { Schemas } from './api';
import { formatMoney } from './format';

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

/** Cancelling an order whose money was taken refunds what is left of it (the server does both). */
export const cancelRefunds = (status: OrderStatus): boolean => paymentState(status) === 'paid';

/** One refund of an order: amount, reason, when, status, the lines it was for, and its credit note. */
export type Refund = Schemas['Refund'];

/** A dispute or a fraud warning an order has had (admins only). */
export type Hold = Schemas['Hold'];

/** What a refund was for, in words: its lines, the delivery, or an amount. */
export function refundFor(refund: Refund): string {
  const parts = refund.lines.map((line) => `${line.qty} × ${line.name}`);
  if (refund.delivery) parts.push('delivery');
  return parts.length > 0 ? parts.join(', ') : refund.late ? 'the payment, in full' : 'an amount';
}

/** Refunded in part, paid still: "partly refunded £x". */
export const isPartlyRefunded = (order: Pick<Order, 'status' | 'refunded'>): boolean =>
  paymentState(order.status) === 'paid' && order.refunded > 0;

/** What the admin's list and the dashboard say about the money: paid, partly refunded £x, refunded, ... */
export function paymentLabel(order: Pick<Order, 'status' | 'refunded'>): string {
  return isPartlyRefunded(order) ? `partly refunded ${formatMoney(order.refunded)}` : paymentState(order.status);
}

/** One line: `price` is pounds per unit as charged, `quantity` the pack label. */
export type OrderLine = Schemas['OrderLine'];

/**
 * An order as its page reads it: the contact details and card are shown only to the order's owner and
 * admins (absent otherwise); the holds and who made each refund only to admins. `refunded` is what has gone
 * back (pounds) and `refunds` every refund. A list's orders (`Schemas['Order']`) are orders too.
 */
export type Order = Schemas['OrderPage'];

/**
 * What the bare id shows to anyone without the order's key or the owner's token: where the order stands
 * (status, history, tracking), never who placed it, where it goes or what is in it.
 */
export type OrderProgress = Schemas['OrderProgress'];

/** What the order page is answered: the order, or only its progress. */
export type OrderAnswer = Order | OrderProgress;

export const isProgressOnly = (order: OrderAnswer): order is OrderProgress => 'view' in order && order.view === 'progress';

/** The order of an answer that must be whole (an admin's, an owner's): a progress-only one is a lost session. */
export function wholeOrder(answer: OrderAnswer): Order {
  if (isProgressOnly(answer)) throw new Error('Your session has ended: log in again to see this order');
  return answer;
}

/** A page of orders (the admin's list, a shopper's history). */
/** A customer's history: the spec's paged envelope. */
export type PagedOrders = Schemas['Page_of_Order'];
/** The admin's list: the same envelope, whose next page also carries a cursor. */
export type CursorPagedOrders = Schemas['CursorPage_of_Order'];

export type OrderTotals = Schemas['Totals'];

/** How people refer to an order: its number (PD-10001), or the start of its id for one placed before numbers. */
export const orderReference = (order: Pick<Order, '_id' | 'number'>): string => order.number ?? order._id.slice(0, 8);

/**
 * A VAT receipt exists for every sale on an order that recorded its VAT: kept when the order is refunded,
 * since each refund has its own credit note against it.
 */
export const hasReceipt = (order: Order): boolean =>
  (paymentState(order.status) === 'paid' || order.status === 'refunded') && order.vat != null;

/** The refunds that have a credit note (refunds of a sale), in the order they were made. */
export const creditNotes = (order: Pick<Order, 'refunds'>): Refund[] => order.refunds.filter((refund) => refund.creditNote != null);
