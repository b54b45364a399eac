// The spec's paging rule, shared by every paged list.

export const FIRST_PAGE = 1;

export interface PageResult {
  /** The next page; a list read with a cursor also says where this page ended. */
  next?: { page?: number | null; cursor?: string } | null;
}

export interface Paged<T> {
  product: T[];
  pages: number;
  result?: PageResult | null;
}

/**
 * After a list fetch: no next page when there is 1 page or fewer; otherwise `result.next.page`, or none
 * when that is above `pages`.
 */
export function nextPageOf(pages: number, result: PageResult | null | undefined): number | null {
  if (!(pages > 1)) return null;
  const next = result?.next?.page;
  if (typeof next !== 'number' || next > pages) return null;
  return next;
}

/** A 'load more' list: what the shop and the search hold. */
export interface PagedList<T> {
  products: T[];
  /** The last page received. */
  pageNumber: number;
  nextPage: number | null;
  pages: number;
}

export function initialPagedList<T>(): PagedList<T> {
  return { products: [], pageNumber: FIRST_PAGE, nextPage: null, pages: 0 };
}

/** Starting page 1 (or a different list) clears: the page resets and the list empties. */
export function startPage<T>(list: PagedList<T>, page: number, sameList: boolean): void {
  if (page === FIRST_PAGE || !sameList) {
    list.products = [];
    list.nextPage = null;
    list.pageNumber = FIRST_PAGE;
  }
}

/** Page 1 replaces the list, later pages append; then the paging rule gives the next page. */
export function receivePage<T>(list: PagedList<T>, page: number, answer: Paged<T> | null | undefined): void {
  const { product = [], pages = 0, result } = answer ?? {};
  list.products = page === FIRST_PAGE ? product : [...list.products, ...product];
  list.pageNumber = page;
  list.pages = pages;
  list.nextPage = nextPageOf(pages, result);
}
