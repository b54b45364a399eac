// The bin: drinks, discount codes and reviews an admin deleted in the last 30 days (each function keeps its
// own: GET /api/product/bin/, /api/code/bin/, /api/reviews/bin/), and restoring one as it was.
import type { Schemas } from '../../lib/api';
import type { AppThunk } from '../../lib/thunk';

export type BinEntry = Schemas['BinEntry'];
export type BinKind = 'drinks' | 'codes' | 'reviews';

/** The bin's lists in the order the screen shows them, with their headings. */
export const BIN_KINDS: ReadonlyArray<{ kind: BinKind; title: string }> = [
  { kind: 'drinks', title: 'Drinks' },
  { kind: 'codes', title: 'Discount codes' },
  { kind: 'reviews', title: 'Reviews' },
];

export type Bin = Record<BinKind, BinEntry[]>;

/** The three lists at once, newest first each. */
export const fetchBin =
  (): AppThunk<Promise<Bin>> =>
  async (_dispatch, _getState, { api }) => {
    const [drinks, codes, reviews] = await Promise.all([api.get('/product/bin/'), api.get('/code/bin/'), api.get('/reviews/bin/')]);
    return { drinks, codes, reviews };
  };

/** Restores one entry; answers the server's message ('Orange Sparkle is back in the shop'). */
export const restoreFromBin =
  (kind: BinKind, id: string): AppThunk<Promise<string>> =>
  async (_dispatch, _getState, { api }) => {
    switch (kind) {
      case 'drinks':
        return (await api.post('/product/restore/{_id}', undefined, { params: { _id: id } })).message;
      case 'codes':
        return (await api.post('/code/restore/{id}', undefined, { params: { id } })).message;
      case 'reviews':
        return (await api.post('/reviews/restore/{id}', undefined, { params: { id } })).message;
    }
  };
