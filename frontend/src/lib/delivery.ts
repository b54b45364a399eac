// The delivery terms every order is priced by, as `state/site/deliverySlice.ts` holds them (the orders
// function's GET /api/order/payment-settings/ is their one source), in the words every invitation to purchase
// uses: "+ £4.99 delivery, free from £40". A small module of its own so the drink cards can name the terms
// without loading the slice: the app's frame fetches them once per visit (app/Layout.tsx).
import { formatMoney } from './format';

export interface DeliveryTerms {
  /** Pounds charged for delivery below `freeFrom`. */
  fee: number;
  /** Pounds of basket (after the code) from which delivery is free. */
  freeFrom: number;
}

/** `£40` for whole pounds, `£39.50` otherwise. */
export function shortMoney(pounds: number): string {
  return Number.isInteger(pounds) ? `£${pounds}` : formatMoney(pounds);
}

/** "+ £4.99 delivery, free from £40" (or "Free delivery" when the shop charges none). */
export function deliveryLine(terms: DeliveryTerms): string {
  if (terms.fee <= 0) return 'Free UK delivery';
  return `+ ${formatMoney(terms.fee)} delivery, free from ${shortMoney(terms.freeFrom)}`;
}

/** The held terms, read without the slice's module (null until they have arrived). */
export function selectHeldDeliveryTerms(state: { delivery?: { terms: DeliveryTerms | null } }): DeliveryTerms | null {
  return state.delivery?.terms ?? null;
}
