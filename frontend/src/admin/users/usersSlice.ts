// The admin's users list: GET /api/user/lists?pageNumber=n (the paged envelope, 20 a page, newest first),
// 'load more' by the spec's paging rule; a role change (PUT /api/user/role/{email}) replaces the user in
// place with the server's answer; a delete (DELETE /api/user/delete/{email}) refetches the list, as the spec
// does after every delete. Injected with the admin's chunk, so no shopper downloads it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { userLoggedOut, type Role } from '../../state/session/authSlice';
import { errorMessage, type Schemas } from '../../lib/api';
import { initialPagedList, receivePage, startPage, type Paged, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';

/** A user as the admin's list and a role change answer it. */
type UserInfo = Schemas['UserInfo'];

/** The shared paged list; its `products` holds the users (the envelope's field is `product` for every list). */
export interface UsersState extends Loadable, PagedList<UserInfo> {
  /** E-mails with a role change or delete on its way. */
  busy: string[];
  /** The last role change or delete that failed, as the server worded it. */
  actionError: string | null;
}

export const initialUsersState: UsersState = {
  ...initialLoadable,
  ...initialPagedList<UserInfo>(),
  busy: [],
  actionError: null,
};

const usersSlice = createSlice({
  name: 'users',
  initialState: initialUsersState,
  reducers: {
    usersPageRequested(state, action: PayloadAction<number>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, action.payload, true);
    },
    usersPageReceived(state, action: PayloadAction<Received<number, Paged<UserInfo>>>) {
      state.status = 'loaded';
      receivePage(state, action.payload.arg, action.payload.result);
    },
    usersPageFailed(state, action: PayloadAction<Failed<number>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    usersReloadRequested(state) {
      state.reload = true;
    },
    userActionStarted(state, action: PayloadAction<string>) {
      state.busy.push(action.payload);
      state.actionError = null;
    },
    userRoleChanged(state, action: PayloadAction<UserInfo>) {
      const user = action.payload;
      state.busy = state.busy.filter((email) => email !== user.email);
      state.products = state.products.map((line) => (line.email === user.email ? user : line));
    },
    userDeleted(state, action: PayloadAction<string>) {
      state.busy = state.busy.filter((email) => email !== action.payload);
      state.reload = true;
    },
    userActionFailed(state, action: PayloadAction<{ email: string; message: string }>) {
      state.busy = state.busy.filter((email) => email !== action.payload.email);
      state.actionError = action.payload.message;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(userLoggedOut, () => initialUsersState);
  },
  selectors: {
    selectUsers: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof usersSlice> {}
}

const injected = usersSlice.injectInto(rootReducer);

export const {
  usersPageRequested,
  usersPageReceived,
  usersPageFailed,
  usersReloadRequested,
  userActionStarted,
  userRoleChanged,
  userDeleted,
  userActionFailed,
} = usersSlice.actions;
export const { selectUsers } = injected.selectors;

export const fetchUsersPage = createLoader(
  { requested: usersPageRequested, received: usersPageReceived, failed: usersPageFailed },
  (api, page: number) => api.get('/user/lists', { query: { pageNumber: page } }),
);

export const changeUserRole =
  (email: string, role: Role): AppThunk<Promise<void>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(userActionStarted(email));
    try {
      dispatch(userRoleChanged(await api.put('/user/role/{email}', { role }, { params: { email } })));
    } catch (error) {
      dispatch(userActionFailed({ email, message: errorMessage(error) }));
    }
  };

export const deleteUser =
  (email: string): AppThunk<Promise<void>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(userActionStarted(email));
    try {
      await api.delete('/user/delete/{email}', { params: { email } });
      dispatch(userDeleted(email));
    } catch (error) {
      dispatch(userActionFailed({ email, message: errorMessage(error) }));
    }
  };

export default usersSlice;

/** One erasure as the audit keeps it (who asked, when, how much changed; never the address). */
export type ErasureEntry = Schemas['ErasureEntry'];

/** Erases an address for a request received by e-mail (UK GDPR art. 17): the answer's message, or why not. */
export const eraseAddress =
  (email: string): AppThunk<Promise<{ ok: boolean; message: string }>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(userActionStarted(email));
    try {
      const { message } = await api.post('/user/erasure/{email}', undefined, { params: { email } });
      dispatch(userDeleted(email));
      return { ok: true, message };
    } catch (error) {
      const message = errorMessage(error);
      dispatch(userActionFailed({ email, message }));
      return { ok: false, message };
    }
  };

export const fetchErasures =
  (): AppThunk<Promise<ErasureEntry[]>> =>
  async (_dispatch, _getState, { api }) => {
    try {
      return await api.get('/user/erasures/');
    } catch {
      return [];
    }
  };
