// Site contact info ("connect") and about text. Pages load them on entry only when not already held: the
// loader skips the call while one is running or after one succeeded.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { AboutRecord, SiteInfo } from '../../types/catalog';

export interface SiteState {
  info: SiteInfo | null;
  about: AboutRecord[];
  whoweare: AboutRecord[];
  /** Where each part stands: `info` and `about` load independently. */
  loading: Record<SitePart, Loadable>;
}

export type SitePart = 'info' | 'about';

const SOURCES: Record<SitePart, string> = {
  info: '/connect/uk/palestine/connect/',
  about: '/home_uk/palestine/about/show_result/',
};

export const initialSiteState: SiteState = {
  info: null,
  about: [],
  whoweare: [],
  loading: { info: initialLoadable, about: initialLoadable },
};

/** The about endpoint's answer; the site info endpoint answers the record itself. */
interface AboutAnswer {
  about?: AboutRecord[];
  whoweare?: AboutRecord[];
  connect?: SiteInfo | null;
}

type SiteAnswer = SiteInfo | AboutAnswer | null;

const siteSlice = createSlice({
  name: 'site',
  initialState: initialSiteState,
  reducers: {
    sitePartRequested(state, action: PayloadAction<SitePart>) {
      state.loading[action.payload] = { status: 'loading', error: null, reload: false };
    },
    sitePartReceived(state, action: PayloadAction<Received<SitePart, SiteAnswer>>) {
      const { arg, result } = action.payload;
      if (arg === 'info') state.info = (result as SiteInfo | null) ?? null;
      else {
        const { about = [], whoweare = [], connect } = (result ?? {}) as AboutAnswer;
        state.about = about;
        state.whoweare = whoweare;
        // The about answer carries the site info too: keep it if the info itself is not in yet.
        state.info ??= connect ?? null;
      }
      state.loading[arg].status = 'loaded';
    },
    sitePartFailed(state, action: PayloadAction<Failed<SitePart>>) {
      state.loading[action.payload.arg] = { status: 'failed', error: action.payload.message, reload: false };
    },
  },
});

export const { sitePartRequested, sitePartReceived, sitePartFailed } = siteSlice.actions;

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

export default siteSlice;
