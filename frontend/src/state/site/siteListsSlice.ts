// The policies (linked from the footer) and the link entries (on home): fetched once each, when the footer or
// home's lower part first needs them. Injected with those lazily loaded parts, so the first page's script
// does not carry it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Entry } from '../../types/catalog';

export type SiteList = 'policies' | 'links';

export interface SiteListsState {
  policies: Entry[];
  links: Entry[];
  loading: Record<SiteList, Loadable>;
}

export const initialSiteListsState: SiteListsState = {
  policies: [],
  links: [],
  loading: { policies: initialLoadable, links: initialLoadable },
};

const siteListsSlice = createSlice({
  name: 'siteLists',
  initialState: initialSiteListsState,
  reducers: {
    siteListRequested(state, action: PayloadAction<SiteList>) {
      state.loading[action.payload] = { status: 'loading', error: null, reload: false };
    },
    siteListReceived(state, action: PayloadAction<Received<SiteList, Entry[]>>) {
      const { arg, result } = action.payload;
      state[arg] = Array.isArray(result) ? result : [];
      state.loading[arg].status = 'loaded';
    },
    siteListFailed(state, action: PayloadAction<Failed<SiteList>>) {
      state.loading[action.payload.arg] = { status: 'failed', error: action.payload.message, reload: false };
    },
    /** Stale (an admin changed it): the next part that wants the list fetches it again. */
    siteListReloadRequested(state, action: PayloadAction<SiteList>) {
      state.loading[action.payload] = { status: 'idle', error: null, reload: true };
    },
  },
  selectors: {
    selectPolicies: (state) => state.policies,
    selectLinks: (state) => state.links,
    selectSiteLists: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof siteListsSlice> {}
}

const injected = siteListsSlice.injectInto(rootReducer);

export const { siteListRequested, siteListReceived, siteListFailed, siteListReloadRequested } = siteListsSlice.actions;
export const { selectPolicies, selectLinks, selectSiteLists } = injected.selectors;

/** Fetches a list unless it is held or on its way. */
export const fetchSiteList = createLoader(
  { requested: siteListRequested, received: siteListReceived, failed: siteListFailed },
  (api, list: SiteList) => (list === 'policies' ? api.get('/policy/') : api.get('/link/')),
  (state, list) =>
    ['loading', 'loaded'].includes(
      ((state as { siteLists?: SiteListsState }).siteLists ?? initialSiteListsState).loading[list].status,
    ),
);

export default siteListsSlice;
