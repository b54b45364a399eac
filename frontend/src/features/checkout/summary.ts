// The order summary the checkout shows before paying, by the back end's rule: the code's rate comes off the
// subtotal (half-up to the penny), then delivery is £4.99 below £40 and free from £40 (after the code).
// The server's figures are the truth: the order page shows the order's own totals.
import { toPence } from '../../lib/format';
import { lineTotal } from '../../lib/price';

export const DELIVERY_FEE_PENCE = 499;
export const FREE_DELIVERY_FROM_PENCE = 4000;

export interface CheckoutSummary {
  subtotal: number;
  /** Pounds off for the code (0 without one). */
  discount: number;
  shipping: number;
  total: number;
}

export function checkoutSummary(lines: ReadonlyArray<{ price: number; qty: number }>, rate = 0): CheckoutSummary {
  const subtotal = toPence(lineTotal(lines));
  const kept = Math.floor((subtotal * (100 - Math.min(Math.max(rate, 0), 100)) + 50) / 100);
  const shipping = subtotal === 0 || kept >= FREE_DELIVERY_FROM_PENCE ? 0 : DELIVERY_FEE_PENCE;
  return { subtotal: subtotal / 100, discount: (subtotal - kept) / 100, shipping: shipping / 100, total: (kept + shipping) / 100 };
}

/** The VAT inside a VAT-inclusive total at `rate` percent, rounded half-up once, as the server stores it. */
export function vatIn(total: number, rate: number): number {
  const pence = toPence(total);
  const r = Math.max(0, Math.round(rate));
  return Math.floor((2 * pence * r + 100 + r) / (2 * (100 + r))) / 100;
}
