// What every page may show about the shop: the site info ("connect"), the about and who-we-are texts, the
// policies (linked from the footer) and the link entries (on home). Pages load them on entry only when not
// already held: the loader skips the call while one is running or after one succeeded. A retry, or an admin
// saving the site info, asks again.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { AboutPayload, Entry, SiteInfo } from '../../types/catalog';

export type SitePart = 'info' | 'about' | 'policies' | 'links';

export interface SiteState {
  info: SiteInfo | null;
  about: Entry[];
  whoweare: Entry[];
  policies: Entry[];
  links: Entry[];
  /** Where each part stands: the parts load independently. */
  loading: Record<SitePart, Loadable>;
}

const SOURCES: Record<SitePart, string> = {
  info: '/connect/uk/palestine/connect/',
  about: '/home_uk/palestine/about/show_result/',
  policies: '/policy/',
  links: '/link/',
};

export const initialSiteState: SiteState = {
  info: null,
  about: [],
  whoweare: [],
  policies: [],
  links: [],
  loading: { info: initialLoadable, about: initialLoadable, policies: initialLoadable, links: initialLoadable },
};

type SiteAnswer = SiteInfo | Partial<AboutPayload> | Array<SiteInfo | Entry> | null;

const siteSlice = createSlice({
  name: 'site',
  initialState: initialSiteState,
  reducers: {
    sitePartRequested(state, action: PayloadAction<SitePart>) {
      state.loading[action.payload] = { status: 'loading', error: null, reload: false };
    },
    sitePartReceived(state, action: PayloadAction<Received<SitePart, SiteAnswer>>) {
      const { arg, result } = action.payload;
      if (arg === 'info') {
        // The back end answers one record; an older one answered a list.
        state.info = ((Array.isArray(result) ? result[0] : result) as SiteInfo | undefined) ?? null;
      } else if (arg === 'about' && result && !Array.isArray(result)) {
        const { about, whoweare, connect } = result as Partial<AboutPayload>;
        state.about = about ?? [];
        state.whoweare = whoweare ?? [];
        // The about answer carries the site info too: keep it if the info itself is not in yet.
        state.info ??= connect ?? null;
      } else {
        state[arg] = (Array.isArray(result) ? result : []) as Entry[];
      }
      state.loading[arg].status = 'loaded';
    },
    sitePartFailed(state, action: PayloadAction<Failed<SitePart>>) {
      state.loading[action.payload.arg] = { status: 'failed', error: action.payload.message, reload: false };
    },
    /** A retry, or data known to be stale: the part is fetched again by the next page that wants it. */
    sitePartReloadRequested(state, action: PayloadAction<SitePart>) {
      state.loading[action.payload] = { status: 'idle', error: null, reload: true };
    },
    /** An admin saved the site info: every page shows the saved record at once. */
    siteInfoSaved(state, action: PayloadAction<SiteInfo>) {
      state.info = action.payload;
      state.loading.info = { status: 'loaded', error: null, reload: false };
    },
  },
});

export const { sitePartRequested, sitePartReceived, sitePartFailed, sitePartReloadRequested, siteInfoSaved } =
  siteSlice.actions;

/** Fetches one part of the site info unless it is held or on its way. */
export const fetchSitePart = createLoader(
  { requested: sitePartRequested, received: sitePartReceived, failed: sitePartFailed },
  (api, part: SitePart) => api.get<SiteAnswer>(SOURCES[part]),
  (state, part) => ['loading', 'loaded'].includes((state as { site: SiteState }).site.loading[part].status),
);

// Plain selector functions: the ones a page does not use drop out of its script.
type Root = { site: SiteState };
export const selectSiteInfo = (state: Root) => state.site.info;
export const selectSiteState = (state: Root) => state.site;
export const selectPolicies = (state: Root) => state.site.policies;
export const selectLinks = (state: Root) => state.site.links;

export default siteSlice;
