// What the dashboard reads beyond the sales counters and the drinks (their slices): today's orders, the
// orders on hold, what unpaid orders hold of each drink, the reviews of the last days and the last mailing. Lists come newest first, so only the pages that reach back
// to the start of the window are read (today's orders are usually one page), never the whole list.
import type { Schemas } from '../../lib/api';
import { FIRST_PAGE, nextPageOf, type Paged } from '../../lib/paging';
import type { AppThunk } from '../../lib/thunk';
import type { Order } from '../../lib/orderTypes';

export type AdminReview = Schemas['AdminReview'];
export type Mailing = Schemas['Mailing'];
export type StockHold = Schemas['StockHold'];

/** At most this many pages are read for a window (2,000 rows): the dashboard says "at least" past it. */
export const MAX_PAGES = 100;

export interface Window<T> {
  items: T[];
  /** The window goes back further than the pages read. */
  more: boolean;
}

/** The items created at or after `since` (ISO), from a newest-first paged list. */
export async function newestSince<T extends { createdAt: string }>(page: (n: number) => Promise<Paged<T>>, since: string): Promise<Window<T>> {
  const from = Date.parse(since);
  const items: T[] = [];
  let next: number | null = FIRST_PAGE;
  for (let read = 0; next !== null; read += 1) {
    if (read === MAX_PAGES) return { items, more: true };
    const answer = await page(next);
    for (const item of answer.product) {
      if (Date.parse(item.createdAt) < from) return { items, more: false };
      items.push(item);
    }
    next = nextPageOf(answer.pages, answer.result);
  }
  return { items, more: false };
}

/** The start of today (UTC, as the shop's dates) and of the day `days` before it, as ISO. */
export function startOfDay(now: Date, daysBefore = 0): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - daysBefore)).toISOString();
}

export const fetchOrdersSince =
  (since: string): AppThunk<Promise<Window<Order>>> =>
  (_dispatch, _getState, { api }) =>
    newestSince((pageNumber) => api.get('/order', { query: { pageNumber } }), since);

export const fetchReviewsSince =
  (since: string): AppThunk<Promise<Window<AdminReview>>> =>
  (_dispatch, _getState, { api }) =>
    newestSince((pageNumber) => api.get('/reviews', { query: { pageNumber } }), since);

/** The orders on hold (a dispute or a fraud warning is open), longest held first. */
export const fetchHeldOrders =
  (): AppThunk<Promise<Order[]>> =>
  (_dispatch, _getState, { api }) =>
    api.get('/order/holds/');

/** What unpaid orders waiting for 3-D Secure hold of each drink, with its cap, its stock and the orders. */
export const fetchStockHolds =
  (): AppThunk<Promise<StockHold[]>> =>
  (_dispatch, _getState, { api }) =>
    api.get('/order/stock-holds/');

export const fetchLastMailing =
  (): AppThunk<Promise<Mailing | null>> =>
  async (_dispatch, _getState, { api }) =>
    (await api.get('/subscription/mailings/', { query: { pageNumber: FIRST_PAGE } })).product[0] ?? null;
