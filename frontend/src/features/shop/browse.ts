// The shop's choice of order and filters, kept in the address (?sort=&category=&inStock=&minPrice=&maxPrice=)
// so a link shares it and back/forward restore it. The catalog function sorts and filters the whole list
// before paging, so this only reads, writes and compares the choice.
import type { SortOrder } from '../../types/catalog';

export interface ShopChoice {
  category: string | null;
  sort: SortOrder;
  inStock: boolean;
  /** Pounds as typed ('4', '4.99'); null for no bound. */
  minPrice: string | null;
  maxPrice: string | null;
}

export const DEFAULT_CHOICE: ShopChoice = { category: null, sort: 'featured', inStock: false, minPrice: null, maxPrice: null };

export const SORT_LABELS: Record<SortOrder, string> = {
  featured: 'Featured',
  'price-asc': 'Price, low to high',
  'price-desc': 'Price, high to low',
  newest: 'Newest',
  rating: 'Best rated',
};

const SORTS = Object.keys(SORT_LABELS) as SortOrder[];

/** Pounds with at most 2 decimals, as the catalog function accepts them. */
const PRICE = /^\d{1,7}(\.\d{1,2})?$/;

export function isPrice(text: string): boolean {
  return PRICE.test(text);
}

/**
 * The choice an address holds. A value the shop does not offer (an edited or old link) falls back to its
 * default rather than asking the server for a 400.
 */
export function choiceFromParams(params: URLSearchParams): ShopChoice {
  const sort = params.get('sort');
  const price = (name: string) => {
    const value = params.get(name)?.trim() ?? '';
    return isPrice(value) ? value : null;
  };
  let minPrice = price('minPrice');
  let maxPrice = price('maxPrice');
  if (minPrice !== null && maxPrice !== null && Number(minPrice) > Number(maxPrice)) [minPrice, maxPrice] = [maxPrice, minPrice];
  return {
    category: params.get('category') || null,
    sort: SORTS.includes(sort as SortOrder) ? (sort as SortOrder) : 'featured',
    inStock: params.get('inStock') === 'true',
    minPrice,
    maxPrice,
  };
}

/** The query string of a choice ('' for the default), defaults left out, always in the same order. */
export function choiceToSearch(choice: ShopChoice): string {
  const params = new URLSearchParams();
  if (choice.category) params.set('category', choice.category);
  if (choice.sort !== 'featured') params.set('sort', choice.sort);
  if (choice.inStock) params.set('inStock', 'true');
  if (choice.minPrice) params.set('minPrice', choice.minPrice);
  if (choice.maxPrice) params.set('maxPrice', choice.maxPrice);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function sameChoice(a: ShopChoice, b: ShopChoice): boolean {
  return choiceToSearch(a) === choiceToSearch(b);
}

/** The drinks list call's query for a choice: only what differs from the defaults. */
export function choiceQuery(choice: ShopChoice) {
  return {
    category: choice.category || undefined,
    sort: choice.sort === 'featured' ? undefined : choice.sort,
    inStock: choice.inStock ? true : undefined,
    minPrice: choice.minPrice ?? undefined,
    maxPrice: choice.maxPrice ?? undefined,
  };
}
