// A fake `POST /api/order/quote/` for the checkout's tests: it prices the basket it is sent by the server's
// rule (summary.ts states it), from a price list the test gives, so a test can change a price between the
// page's quote and the Pay button's.
import { checkoutSummary, vatIn } from '../features/checkout/summary';
import type { Quote } from '../features/checkout/quote';
import { json, type FakeCall } from './fakeFetch';

export interface QuotedDrink {
  name: string;
  price: number;
  quantity?: string;
  /** Over 150 mg of caffeine a litre: the quote asks for the buyer's age. */
  restricted?: boolean;
}

export interface QuoteOptions {
  codes?: Record<string, number>;
  /** The site info's age for restricted drinks (16 unless given; null when the check is off). */
  minimumAge?: number | null;
}

export const checkoutDrinks: Record<string, QuotedDrink> = {
  'p-mango': { name: 'Mango Fizz', price: 4.99, quantity: '24 x 330ml' },
  'p-cola': { name: 'Classic Cola', price: 11.25, quantity: '24 x 330ml' },
};

export function priceBasket(body: unknown, drinks: Record<string, QuotedDrink>, options: QuoteOptions = {}): Quote {
  const { product, code } = body as { product: { product: string; qty: number }[]; code?: string };
  const codes = options.codes ?? { SUMMER: 10 };
  const lines = product.map(({ product: id, qty }) => {
    const drink = drinks[id] ?? { name: id, price: 1 };
    return { product: id, name: drink.name, quantity: drink.quantity ?? '24 x 330ml', qty, price: drink.price, total: Math.round(drink.price * 100 * qty) / 100 };
  });
  const rate = code ? (codes[code] ?? 0) : 0;
  const summary = checkoutSummary(lines, { fee: 4.99, freeFrom: 40 }, rate);
  const restricted = product.some(({ product: id }) => drinks[id]?.restricted);
  const age = options.minimumAge === undefined ? 16 : options.minimumAge;
  return { lines, ...summary, codeRate: rate, vatRate: 20, vat: vatIn(summary.total, 20), minimumAge: restricted ? age : null };
}

/** The route's handler: the price list may be changed between calls (a function reads it each time). */
export function quoteRoute(drinks: Record<string, QuotedDrink> | (() => Record<string, QuotedDrink>) = checkoutDrinks, options: QuoteOptions = {}) {
  return ({ body }: FakeCall) => json(priceBasket(body, typeof drinks === 'function' ? drinks() : drinks, options));
}
