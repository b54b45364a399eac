// The server's price of the basket (POST /api/order/quote/): the checkout's summary shows these figures,
// never its own, and the order carries the total the shopper saw (`expectedTotal`). When the server's total
// moves before paying (a price changed, a code ended, a drink left), the page says what changed.
import type { Schemas } from '../../lib/api';
import { formatMoney, toPence } from '../../lib/format';

export type Quote = Schemas['Quote'];
export type QuoteLine = Schemas['QuoteLine'];

/** The basket as the quote and the order send it. */
export interface QuotedBasket {
  product: { product: string; qty: number }[];
  code?: string;
}

export function quotedBasket(lines: ReadonlyArray<{ product: string; qty: number }>, code: string | null | undefined): QuotedBasket {
  return {
    product: lines.map((line) => ({ product: line.product, qty: line.qty })),
    ...(code ? { code } : {}),
  };
}

/** The same basket and code give the same text: what the checkout's Idempotency-Key is kept for. */
export function basketSignature(basket: QuotedBasket): string {
  return JSON.stringify([basket.product.map((line) => [line.product, line.qty]), basket.code ?? '']);
}

export const sameTotal = (a: Quote, b: Quote): boolean => toPence(a.total) === toPence(b.total);

/** The 409 body of an order whose total moved: its new quote, when it carries one. */
export function quoteOfRefusal(body: unknown): Quote | null {
  const quote = (body as { quote?: unknown } | null)?.quote as Partial<Quote> | undefined;
  return quote && typeof quote.total === 'number' && Array.isArray(quote.lines) ? (quote as Quote) : null;
}

const shipping = (pounds: number) => (toPence(pounds) === 0 ? 'free' : formatMoney(pounds));

/** What differs between the quote the shopper saw and the new one, a sentence a change. */
export function quoteChanges(before: Quote, after: Quote): string[] {
  const changes: string[] = [];
  for (const line of after.lines) {
    const was = before.lines.find((old) => old.product === line.product);
    if (!was) changes.push(`${line.name} is now in the order`);
    else if (toPence(was.price) !== toPence(line.price)) {
      changes.push(`${line.name}: ${formatMoney(line.price)} each, was ${formatMoney(was.price)}`);
    }
  }
  for (const was of before.lines) {
    if (!after.lines.some((line) => line.product === was.product)) changes.push(`${was.name} is no longer in the order`);
  }
  if (toPence(before.discount) !== toPence(after.discount)) {
    changes.push(`Discount: −${formatMoney(after.discount)}, was −${formatMoney(before.discount)}`);
  }
  if (toPence(before.shipping) !== toPence(after.shipping)) {
    changes.push(`Delivery: ${shipping(after.shipping)}, was ${shipping(before.shipping)}`);
  }
  changes.push(`Total: ${formatMoney(after.total)}, was ${formatMoney(before.total)}`);
  return changes;
}
