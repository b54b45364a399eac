// When a drink counts as running low: the dashboard lists these, and the drinks table filters by it.
import type { Product } from '../../types/catalog';

/** Units at or below which a drink in stock counts as running low. */
export const LOW_STOCK = 5;

export type StockLevel = 'in stock' | 'low' | 'sold out';

export function stockLevel(product: Pick<Product, 'TheNumber'>): StockLevel {
  if (product.TheNumber <= 0) return 'sold out';
  return product.TheNumber <= LOW_STOCK ? 'low' : 'in stock';
}
