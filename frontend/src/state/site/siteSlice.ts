// What every page may show about the shop: the site info ("connect") and the about and who-we-are texts
// (the policies and link entries are in siteListsSlice.ts, loaded with the parts that show them). Pages load
// them on entry only when not already held: the loader skips the call while one is running or after one
// succeeded, so a retry after a failure simply asks again. Nothing above the fold shows them, so the slice
// injects itself when first imported (the layout imports it after the first render) rather than riding in
// the first page's script.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { AboutPayload, Entry, SiteInfo } from '../../types/catalog';

export type SitePart = 'info' | 'about';

export interface SiteState {
  info: SiteInfo | null;
  about: Entry[];
  whoweare: Entry[];
  /** Where each part stands: the parts load independently. */
  loading: Record<SitePart, Loadable>;
}

export const initialSiteState: SiteState = {
  info: null,
  about: [],
  whoweare: [],
  loading: { info: initialLoadable, about: initialLoadable },
};

/** A part's answer, named by what it holds: the site info, or the about page (which carries the info too). */
type SiteAnswer = { info: SiteInfo } | { page: AboutPayload };

const siteSlice = createSlice({
  name: 'site',
  initialState: initialSiteState,
  reducers: {
    sitePartRequested(state, action: PayloadAction<SitePart>) {
      state.loading[action.payload] = { status: 'loading', error: null, reload: false };
    },
    sitePartReceived(state, action: PayloadAction<Received<SitePart, SiteAnswer>>) {
      const { arg, result } = action.payload;
      if ('info' in result) {
        state.info = result.info ?? null;
      } else {
        const { about, whoweare, connect } = result.page;
        state.about = about ?? [];
        state.whoweare = whoweare ?? [];
        // The about answer carries the site info too: keep it if the info itself is not in yet.
        state.info ??= connect ?? null;
      }
      state.loading[arg].status = 'loaded';
    },
    sitePartFailed(state, action: PayloadAction<Failed<SitePart>>) {
      state.loading[action.payload.arg] = { status: 'failed', error: action.payload.message, reload: false };
    },
  },
  selectors: {
    selectSiteInfo: (state) => state.info,
    selectSiteState: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof siteSlice> {}
}

const injected = siteSlice.injectInto(rootReducer);

export const { sitePartRequested, sitePartReceived, sitePartFailed } = siteSlice.actions;
export const { selectSiteInfo, selectSiteState } = injected.selectors;

/** An admin saved the site info: every page shows the saved record at once, without another call. */
export const siteInfoSaved = (info: SiteInfo) => sitePartReceived({ arg: 'info', result: { info } });

/** Fetches one part of the site info unless it is held or on its way. */
export const fetchSitePart = createLoader(
  { requested: sitePartRequested, received: sitePartReceived, failed: sitePartFailed },
  async (api, part: SitePart): Promise<SiteAnswer> =>
    part === 'info'
      ? { info: await api.get('/connect/uk/palestine/connect/') }
      : { page: await api.get('/home_uk/palestine/about/show_result/') },
  (state, part) =>
    ['loading', 'loaded'].includes(((state as { site?: SiteState }).site ?? initialSiteState).loading[part].status),
  'site info',
);

export default siteSlice;
