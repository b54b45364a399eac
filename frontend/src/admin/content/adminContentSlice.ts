// The admin's content screens: about, who-we-are, policy and link entries and categories (one list each),
// and the site info. Lists follow the spec's pattern: loading, then loaded or failed, with a reload flag set
// after a create or update (the screen then refetches); a delete refetches at once. Injected with the admin
// chunk, so no shopper downloads it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { siteInfoSaved } from '../../state/site/siteSlice';
import { errorMessage, type ApiClient } from '../../lib/api';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { SiteInfo, SocialLinks } from '../../types/catalog';

export type EntryKind = 'about' | 'whoweare' | 'policy' | 'link' | 'category';

/** An entry or a category, as the admin lists show them (both the document's Entry and Category fit it). */
export interface AdminItem {
  _id: string;
  name: string;
  des: string;
  link?: string;
  image: string[];
  sort?: number;
  updatedAt?: string;
}

/** What a create or update sends; `_id` absent means create. */
export interface ItemDraft {
  _id?: string | undefined;
  name: string;
  des: string;
  link?: string;
  image: string[];
  sort?: number;
}

export interface WriteState {
  saving: boolean;
  /** The server's message for a failed write (a 422 names the field). */
  saveError: string | null;
  /** A short note after a write that went through. */
  notice: string | null;
}

export interface ListArea extends Loadable, WriteState {
  items: AdminItem[];
}

export interface SiteArea extends Loadable, WriteState {
  info: SiteInfo | null;
}

export interface AdminContentState {
  lists: Record<EntryKind, ListArea>;
  site: SiteArea;
}

const initialWrite: WriteState = { saving: false, saveError: null, notice: null };
const initialList: ListArea = { ...initialLoadable, ...initialWrite, items: [] };

export const initialAdminContentState: AdminContentState = {
  lists: { about: initialList, whoweare: initialList, policy: initialList, link: initialList, category: initialList },
  site: { ...initialLoadable, ...initialWrite, info: null },
};

type EntryBody = Omit<ItemDraft, '_id'>;

interface EntryRoutes {
  list(api: ApiClient): Promise<AdminItem[]>;
  create(api: ApiClient, body: EntryBody): Promise<unknown>;
  update(api: ApiClient, _id: string, body: EntryBody): Promise<unknown>;
  remove(api: ApiClient, _id: string): Promise<unknown>;
}

/** A link entry's body: the form always sends its link (the document requires it on create). */
function linkBody(body: EntryBody): EntryBody & { link: string } {
  const { link } = body;
  if (link === undefined) throw new Error('A link entry needs its link');
  return { ...body, link };
}

/** Each kind's calls: GET {base}/, POST {base}/create/, PUT {base}/update/{_id}, DELETE {base}/delete/{_id}. */
const ROUTES: Record<EntryKind, EntryRoutes> = {
  about: {
    list: (api) => api.get('/about/'),
    create: (api, body) => api.post('/about/create/', body),
    update: (api, _id, body) => api.put('/about/update/{_id}', body, { params: { _id } }),
    remove: (api, _id) => api.delete('/about/delete/{_id}', { params: { _id } }),
  },
  whoweare: {
    list: (api) => api.get('/whoweare/'),
    create: (api, body) => api.post('/whoweare/create/', body),
    update: (api, _id, body) => api.put('/whoweare/update/{_id}', body, { params: { _id } }),
    remove: (api, _id) => api.delete('/whoweare/delete/{_id}', { params: { _id } }),
  },
  policy: {
    list: (api) => api.get('/policy/'),
    create: (api, body) => api.post('/policy/create/', body),
    update: (api, _id, body) => api.put('/policy/update/{_id}', body, { params: { _id } }),
    remove: (api, _id) => api.delete('/policy/delete/{_id}', { params: { _id } }),
  },
  link: {
    list: (api) => api.get('/link/'),
    create: (api, body) => api.post('/link/create/', linkBody(body)),
    update: (api, _id, body) => api.put('/link/update/{_id}', body, { params: { _id } }),
    remove: (api, _id) => api.delete('/link/delete/{_id}', { params: { _id } }),
  },
  category: {
    list: (api) => api.get('/category/'),
    create: (api, body) => api.post('/category/create/', body),
    update: (api, _id, body) => api.put('/category/update/{_id}', body, { params: { _id } }),
    remove: (api, _id) => api.delete('/category/delete/{_id}', { params: { _id } }),
  },
};

type Target = EntryKind | 'site';

const areaOf = (state: AdminContentState, target: Target): Loadable & WriteState =>
  target === 'site' ? state.site : state.lists[target];

const adminContentSlice = createSlice({
  name: 'adminContent',
  initialState: initialAdminContentState,
  reducers: {
    adminListRequested(state, action: PayloadAction<EntryKind>) {
      const area = state.lists[action.payload];
      area.status = 'loading';
      area.error = null;
      area.reload = false;
    },
    adminListReceived(state, action: PayloadAction<Received<EntryKind, AdminItem[]>>) {
      const area = state.lists[action.payload.arg];
      area.status = 'loaded';
      area.items = Array.isArray(action.payload.result) ? action.payload.result : [];
    },
    adminListFailed(state, action: PayloadAction<Failed<EntryKind>>) {
      const area = state.lists[action.payload.arg];
      area.status = 'failed';
      area.error = action.payload.message;
    },
    adminSiteRequested(state, _action: PayloadAction<void>) {
      state.site.status = 'loading';
      state.site.error = null;
      state.site.reload = false;
    },
    adminSiteReceived(state, action: PayloadAction<Received<void, SiteInfo>>) {
      state.site.status = 'loaded';
      state.site.info = action.payload.result;
    },
    adminSiteFailed(state, action: PayloadAction<Failed<void>>) {
      state.site.status = 'failed';
      state.site.error = action.payload.message;
    },
    /** 'Try again' on a failed list or site info. */
    adminReloadRequested(state, action: PayloadAction<Target>) {
      areaOf(state, action.payload).reload = true;
    },
    adminWriteStarted(state, action: PayloadAction<Target>) {
      Object.assign(areaOf(state, action.payload), { saving: true, saveError: null, notice: null });
    },
    /** A create or update went through: the reload flag makes the screen refetch. */
    adminWriteSucceeded(state, action: PayloadAction<{ target: Target; notice: string; reload: boolean }>) {
      const { target, notice, reload } = action.payload;
      Object.assign(areaOf(state, target), { saving: false, saveError: null, notice });
      if (reload) areaOf(state, target).reload = true;
    },
    adminWriteFailed(state, action: PayloadAction<{ target: Target; message: string }>) {
      Object.assign(areaOf(state, action.payload.target), { saving: false, saveError: action.payload.message, notice: null });
    },
    adminWriteCleared(state, action: PayloadAction<Target>) {
      Object.assign(areaOf(state, action.payload), { saveError: null, notice: null });
    },
  },
  selectors: {
    selectAdminList: (state, kind: EntryKind) => state.lists[kind],
    selectAdminSite: (state) => state.site,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof adminContentSlice> {}
}

const injected = adminContentSlice.injectInto(rootReducer);

export const {
  adminListRequested,
  adminListReceived,
  adminListFailed,
  adminSiteRequested,
  adminSiteReceived,
  adminSiteFailed,
  adminReloadRequested,
  adminWriteStarted,
  adminWriteSucceeded,
  adminWriteFailed,
  adminWriteCleared,
} = adminContentSlice.actions;
export const { selectAdminList, selectAdminSite } = injected.selectors;

export const fetchAdminList = createLoader(
  { requested: adminListRequested, received: adminListReceived, failed: adminListFailed },
  (api, kind: EntryKind) => ROUTES[kind].list(api),
);

export const fetchAdminSite = createLoader(
  { requested: adminSiteRequested, received: adminSiteReceived, failed: adminSiteFailed },
  (api) => api.get('/connect/uk/palestine/connect/'),
);

/** Creates (no `_id`) or updates an entry; true when it went through. */
export const saveAdminItem =
  (kind: EntryKind, draft: ItemDraft): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(adminWriteStarted(kind));
    const { _id, ...body } = draft;
    try {
      if (_id) await ROUTES[kind].update(api, _id, body);
      else await ROUTES[kind].create(api, body);
      dispatch(adminWriteSucceeded({ target: kind, notice: _id ? `Saved “${draft.name}”.` : `Created “${draft.name}”.`, reload: true }));
      return true;
    } catch (error) {
      dispatch(adminWriteFailed({ target: kind, message: errorMessage(error) }));
      return false;
    }
  };

/** Deletes an entry, then refetches the list. */
export const deleteAdminItem =
  (kind: EntryKind, item: Pick<AdminItem, '_id' | 'name'>): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(adminWriteStarted(kind));
    try {
      await ROUTES[kind].remove(api, item._id);
      dispatch(adminWriteSucceeded({ target: kind, notice: `Deleted “${item.name}”.`, reload: false }));
      await dispatch(fetchAdminList(kind));
      return true;
    } catch (error) {
      dispatch(adminWriteFailed({ target: kind, message: errorMessage(error) }));
      return false;
    }
  };

export interface SiteDraft {
  name: string;
  des: string;
  cover_des: string;
  image: string[];
  Social: SocialLinks;
  discount: string;
  /** A whole percentage; prices include VAT at this rate. */
  vatRate: number;
  vatNumber: string;
  deliveryEstimate: string;
  /** The company's registered name, Companies House number and registered office (blank: not shown). */
  companyName: string;
  companyNumber: string;
  registeredOffice: string;
}

/** Creates the site info (POST /api/connect/create/) when it has no `_id`, else updates it. */
export const saveAdminSite =
  (id: string | null | undefined, draft: SiteDraft): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(adminWriteStarted('site'));
    try {
      const saved = id
        ? await api.put('/connect/update/{_id}', draft, { params: { _id: id } })
        : await api.post('/connect/create/', draft);
      // Every storefront page (the footer too) shows the saved record without asking again.
      if (saved) dispatch(siteInfoSaved(saved));
      dispatch(adminWriteSucceeded({ target: 'site', notice: 'The site info is saved.', reload: true }));
      return true;
    } catch (error) {
      dispatch(adminWriteFailed({ target: 'site', message: errorMessage(error) }));
      return false;
    }
  };

export default adminContentSlice;
