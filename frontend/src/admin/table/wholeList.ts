// The admin tables hold the whole list in the browser: the first page, then every next page the spec's
// paging rule names, one after another, appended by the list's own slice (page 1 replaces, later pages
// append). Sorting, filtering and paging then happen in the browser (tableQuery.ts) over every row, so a
// sort or a filter is never limited to the 20 rows of one server page and needs no server filters. Admin
// lists are hundreds of rows (tens of requests of 20, a few kB each), which this stays well within.
import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { FIRST_PAGE } from '../../lib/paging';
import type { AppThunk, Status } from '../../lib/thunk';

export interface WholeListState {
  status: Status;
  nextPage: number | null;
  reload: boolean;
}

type PageLoader = (page: number) => AppThunk<Promise<void>>;

/** The run under way for each list: a newer run (a reload) makes an older one stop between pages. */
const runs = new Map<PageLoader, number>();

/** Loads page 1, then each next page until there is none, the list fails, or a newer run starts. */
export function loadWholeList(fetchPage: PageLoader, select: (state: never) => WholeListState): AppThunk<Promise<void>> {
  return async (dispatch, getState) => {
    const run = (runs.get(fetchPage) ?? 0) + 1;
    runs.set(fetchPage, run);
    let page = FIRST_PAGE;
    await dispatch(fetchPage(page));
    for (;;) {
      const list = select(getState() as never);
      // A next page that does not move forward (a server that repeats itself) ends the run too.
      if (runs.get(fetchPage) !== run || list.status !== 'loaded' || list.nextPage === null || list.nextPage <= page) return;
      page = list.nextPage;
      await dispatch(fetchPage(page));
    }
  };
}

/** A screen's whole list: loaded on opening and again whenever the list's reload flag is set. */
export function useWholeList(list: WholeListState, fetchPage: PageLoader, select: (state: never) => WholeListState): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    void dispatch(loadWholeList(fetchPage, select));
  }, [dispatch, fetchPage, select]);
  useEffect(() => {
    if (list.reload) void dispatch(loadWholeList(fetchPage, select));
  }, [dispatch, list.reload, fetchPage, select]);
}
