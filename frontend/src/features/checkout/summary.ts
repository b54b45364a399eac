// The order summary the checkout shows before paying, by the back end's rule: the code's rate comes off the
// subtotal (half-up to the penny), then delivery is charged below the free-delivery threshold (after the
// code). The charge and the threshold are the orders function's own (`GET /api/order/payment-settings/`),
// never figures of the front end's. The server's figures are the truth: the order page shows the order's
// own totals.
import { toPence } from '../../lib/format';
import { lineTotal } from '../../lib/price';

/** The delivery terms in pounds, as `state/site/deliverySlice.ts` holds them. */
export interface DeliveryCharge {
  fee: number;
  freeFrom: number;
}

export interface CheckoutSummary {
  subtotal: number;
  /** Pounds off for the code (0 without one). */
  discount: number;
  shipping: number;
  total: number;
}

export function checkoutSummary(
  lines: ReadonlyArray<{ price: number; qty: number }>,
  delivery: DeliveryCharge,
  rate = 0,
): CheckoutSummary {
  const subtotal = toPence(lineTotal(lines));
  const kept = Math.floor((subtotal * (100 - Math.min(Math.max(rate, 0), 100)) + 50) / 100);
  const shipping = subtotal === 0 || kept >= toPence(delivery.freeFrom) ? 0 : toPence(delivery.fee);
  return { subtotal: subtotal / 100, discount: (subtotal - kept) / 100, shipping: shipping / 100, total: (kept + shipping) / 100 };
}

/** The VAT inside a VAT-inclusive total at `rate` percent, rounded half-up once, as the server stores it. */
export function vatIn(total: number, rate: number): number {
  const pence = toPence(total);
  const r = Math.max(0, Math.round(rate));
  return Math.floor((2 * pence * r + 100 + r) / (2 * (100 + r))) / 100;
}
