// The signed-in person's profile: GET /api/user/profile/ to show it, PUT to save full name, phone and the
// UK address's parts (the server makes the one-box address of them). A 422 names the field in its message
// ('phone must be at least 10 digits', 'postcode must be a UK postcode…'), so the error goes beside that field. Loaded with the profile screens' chunk (account and admin), not the first page.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { ApiError, errorMessage } from '../../lib/api';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received, type Status } from '../../lib/thunk';
import { userInfoUpdated, userLoggedOut, type UserInfo } from './authSlice';

export const PROFILE_FIELDS = ['fullname', 'phone', 'addressLine1', 'addressLine2', 'town', 'postcode'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileChanges = Record<ProfileField, string>;

export interface ProfileState extends Loadable {
  profile: UserInfo | null;
  save: {
    status: Status;
    /** A failure no single field owns. */
    error: string | null;
    fieldErrors: Partial<Record<ProfileField, string>>;
  };
}

export const initialProfileState: ProfileState = {
  ...initialLoadable,
  profile: null,
  save: { status: 'idle', error: null, fieldErrors: {} },
};

/** The field a 422 message is about: the back end starts the message with the field's name. */
export function fieldOfMessage(message: string): ProfileField | null {
  const first = message.trim().split(/\s/, 1)[0]?.toLowerCase() ?? '';
  return PROFILE_FIELDS.find((field) => field.toLowerCase() === first) ?? null;
}

const profileSlice = createSlice({
  name: 'profile',
  initialState: initialProfileState,
  reducers: {
    profileRequested(state) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
    },
    profileReceived(state, action: PayloadAction<Received<void, UserInfo>>) {
      state.status = 'loaded';
      state.profile = action.payload.result;
    },
    profileFailed(state, action: PayloadAction<Failed<void>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    profileReloadRequested(state) {
      state.reload = true;
    },
    profileSaveRequested(state) {
      state.save = { status: 'loading', error: null, fieldErrors: {} };
    },
    profileSaved(state, action: PayloadAction<UserInfo>) {
      state.profile = action.payload;
      state.save = { status: 'loaded', error: null, fieldErrors: {} };
    },
    profileSaveFailed(state, action: PayloadAction<{ message: string; field: ProfileField | null }>) {
      const { message, field } = action.payload;
      state.save = { status: 'failed', error: field ? null : message, fieldErrors: field ? { [field]: message } : {} };
    },
    /** The form changed after a save: the 'saved' note no longer describes it. */
    profileEdited(state) {
      if (state.save.status === 'loaded') state.save.status = 'idle';
    },
  },
  extraReducers: (builder) => {
    builder.addCase(userLoggedOut, () => initialProfileState);
  },
  selectors: {
    selectProfile: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof profileSlice> {}
}

const injected = profileSlice.injectInto(rootReducer);

export const {
  profileRequested,
  profileReceived,
  profileFailed,
  profileReloadRequested,
  profileSaveRequested,
  profileSaved,
  profileSaveFailed,
  profileEdited,
} = profileSlice.actions;
export const { selectProfile } = injected.selectors;

export const fetchProfile = createLoader(
  { requested: profileRequested, received: profileReceived, failed: profileFailed },
  (api) => api.get('/user/profile/'),
);

/** Saves the fields (an empty text clears one; the address's parts go together); true when saved. */
export const saveProfile =
  (changes: ProfileChanges): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(profileSaveRequested());
    try {
      const saved = await api.put('/user/profile/', changes);
      dispatch(profileSaved(saved));
      dispatch(userInfoUpdated(saved));
      return true;
    } catch (error) {
      const message = errorMessage(error);
      const field = error instanceof ApiError && error.status === 422 ? fieldOfMessage(message) : null;
      dispatch(profileSaveFailed({ message, field }));
      return false;
    }
  };

export default profileSlice;
