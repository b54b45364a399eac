import { describe, expect, it } from 'vitest';
import type { AppThunk } from '../../lib/thunk';
import { loadWholeList, type WholeListState } from './wholeList';

/** A list whose pages answer after `delay` ms: `pages` pages, each naming the next (a stuck server repeats). */
function fakeList(pages: number, { stuck = false, delay = 0 } = {}) {
  const state: WholeListState & { rows: number[]; asked: number[] } = { status: 'idle', nextPage: null, reload: false, rows: [], asked: [] };
  const fetchPage =
    (page: number): AppThunk<Promise<void>> =>
    async () => {
      state.asked.push(page);
      state.status = 'loading';
      if (page === 1) state.rows = [];
      await new Promise((resolve) => setTimeout(resolve, delay));
      state.rows.push(page);
      state.status = 'loaded';
      state.nextPage = stuck ? page : page < pages ? page + 1 : null;
    };
  const dispatch = <R>(thunk: AppThunk<R>): R => thunk(dispatch as never, () => state, { api: undefined as never });
  const select = (s: never) => s as WholeListState;
  return { state, fetchPage, run: () => dispatch(loadWholeList(fetchPage, select)) };
}

describe('loadWholeList', () => {
  it('reads page 1, then every next page, then stops', async () => {
    const list = fakeList(4);
    await list.run();
    expect(list.state.asked).toEqual([1, 2, 3, 4]);
    expect(list.state.rows).toEqual([1, 2, 3, 4]);
  });

  it('stops when a next page does not move forward', async () => {
    const list = fakeList(4, { stuck: true });
    await list.run();
    expect(list.state.asked).toEqual([1]);
  });

  it('a newer run (a reload) makes the older one stop between pages', async () => {
    const list = fakeList(3, { delay: 5 });
    const first = list.run();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = list.run();
    await Promise.all([first, second]);
    // The first run's page 1 finished, then it saw the newer run and asked for nothing more.
    expect(list.state.asked).toEqual([1, 1, 2, 3]);
  });
});
