// Prices the spec's way: a discounted price is the price minus the discount percentage, to the penny,
// and a cart's total is the sum of price times quantity. Sums run in whole pence so floats never drift.
import { toPence } from './format';

/** Price minus `percent` per cent, rounded half-up to the penny; null when there is no discount. */
export function discountedPrice(price: number, percent: number | null | undefined): number | null {
  if (!percent || percent <= 0 || !Number.isFinite(percent)) return null;
  const pence = toPence(price);
  const off = Math.min(percent, 100);
  return Math.round((pence * (100 - off)) / 100 + 1e-9) / 100;
}

export interface Priced {
  price: number;
  discount?: number | null;
  Discountprice?: number | null;
  /** The genuine earlier price the server allows to be shown, or null. */
  wasPrice?: number | null;
  /** The price of a litre at the price paid now, or null when the pack names no size. */
  pricePerLitre?: number | null;
}

/**
 * What the shopper pays for one unit: the server's Discountprice when the item has a discount (computed
 * here as a fallback when the server left it out), otherwise the price.
 */
export function unitPrice(product: Priced): number {
  if (product.discount && product.discount > 0) {
    if (typeof product.Discountprice === 'number' && product.Discountprice > 0) return product.Discountprice;
    return discountedPrice(product.price, product.discount) ?? product.price;
  }
  return product.price;
}

/** Sum of price × qty, in pounds with 2 decimals. */
export function lineTotal(lines: ReadonlyArray<{ price: number; qty: number }>): number {
  const pence = lines.reduce((sum, line) => sum + toPence(line.price) * line.qty, 0);
  return pence / 100;
}
