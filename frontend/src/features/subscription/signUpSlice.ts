// The shopper's mail-list sign-up (POST /api/subscription/create/): sending, then the server's thank-you or
// its refusal (a bad address, too many tries). Loaded with the footer's sign-up form, never on first paint.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { errorMessage } from '../../lib/api';
import type { AppThunk, Status } from '../../lib/thunk';

/** The lists a shopper may join (the back end's SUBSCRIPTION_LISTS names the same), and how the form words them. */
export const SIGN_UP_LISTS = [
  { list: 'Newsletter', label: 'Our monthly newsletter' },
  { list: 'Offers and new drinks', label: 'Special offers and new flavours' },
] as const;

export interface SignUp {
  email: string;
  fullname: string;
  lists: string[];
}

export interface SignUpState {
  status: Status;
  message: string | null;
  error: string | null;
}

export const initialSignUpState: SignUpState = { status: 'idle', message: null, error: null };

const signUpSlice = createSlice({
  name: 'signUp',
  initialState: initialSignUpState,
  reducers: {
    signUpRequested(state) {
      state.status = 'loading';
      state.error = null;
    },
    signUpSucceeded(state, action: PayloadAction<string>) {
      state.status = 'loaded';
      state.message = action.payload;
    },
    signUpFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
    signUpReset() {
      return initialSignUpState;
    },
  },
  selectors: {
    selectSignUp: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof signUpSlice> {}
}

const injected = signUpSlice.injectInto(rootReducer);

export const { signUpRequested, signUpSucceeded, signUpFailed, signUpReset } = signUpSlice.actions;
export const { selectSignUp } = injected.selectors;

export const signUp =
  (form: SignUp): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(signUpRequested());
    try {
      const fullname = form.fullname.trim();
      const body = { email: form.email.trim().toLowerCase(), ...(fullname ? { fullname } : {}), lists: form.lists };
      const answer = await api.post('/subscription/create/', body);
      dispatch(signUpSucceeded(answer.message));
      return true;
    } catch (error) {
      dispatch(signUpFailed(errorMessage(error)));
      return false;
    }
  };

export default signUpSlice;
