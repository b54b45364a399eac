// The public content pages' own data: the policy on screen (GET /api/_uk_home/palestine/show/details/website/
// {id}), or one kept version of it (GET /api/policy/versions/{id}/{version}: an order's terms), the contact page's details (GET /api/contact/, fetched on entry unless held) and the contact form's
// sending (POST /api/_uk_home/palestine/feedback/send/only/). Injected with the
// content pages' chunk, so the home page does not carry it.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { errorMessage } from '../../lib/api';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { ContactInfo, Entry, PolicyVersion } from '../../types/catalog';

/** One kept version of a policy, as a page asks for it (`?version=3`). */
export interface VersionKey {
  id: string;
  version: number;
}

export interface FeedbackForm {
  fullname: string;
  email: string;
  phone: string;
  message: string;
}

export interface ContentState {
  policy: Loadable & { id: string | null; entry: Entry | null };
  /** A kept version on screen, keyed `terms@3`. */
  policyVersion: Loadable & { key: string | null; version: PolicyVersion | null };
  contact: Loadable & { details: ContactInfo | null };
  feedback: {
    status: 'idle' | 'loading' | 'loaded' | 'failed';
    error: string | null;
    /** The spec: a sent message sets the reload flag; the page then shows the server's answer. */
    reload: boolean;
    message: string | null;
  };
}

export const initialContentState: ContentState = {
  policy: { ...initialLoadable, id: null, entry: null },
  policyVersion: { ...initialLoadable, key: null, version: null },
  contact: { ...initialLoadable, details: null },
  feedback: { status: 'idle', error: null, reload: false, message: null },
};

const contentSlice = createSlice({
  name: 'content',
  initialState: initialContentState,
  reducers: {
    policyRequested(state, action: PayloadAction<string>) {
      state.policy = { status: 'loading', error: null, reload: false, id: action.payload, entry: null };
    },
    policyReceived(state, action: PayloadAction<Received<string, Entry>>) {
      if (action.payload.arg !== state.policy.id) return; // an answer for a page already left
      state.policy.status = 'loaded';
      state.policy.entry = action.payload.result;
    },
    policyFailed(state, action: PayloadAction<Failed<string>>) {
      if (action.payload.arg !== state.policy.id) return;
      state.policy.status = 'failed';
      state.policy.error = action.payload.message;
    },
    policyVersionRequested(state, action: PayloadAction<VersionKey>) {
      state.policyVersion = { status: 'loading', error: null, reload: false, key: versionKey(action.payload), version: null };
    },
    policyVersionReceived(state, action: PayloadAction<Received<VersionKey, PolicyVersion>>) {
      if (versionKey(action.payload.arg) !== state.policyVersion.key) return;
      state.policyVersion.status = 'loaded';
      state.policyVersion.version = action.payload.result;
    },
    policyVersionFailed(state, action: PayloadAction<Failed<VersionKey>>) {
      if (versionKey(action.payload.arg) !== state.policyVersion.key) return;
      state.policyVersion.status = 'failed';
      state.policyVersion.error = action.payload.message;
    },
    policyReloadRequested(state) {
      state.policy.reload = true;
    },
    contactRequested(state, _action: PayloadAction<void>) {
      state.contact.status = 'loading';
      state.contact.error = null;
      state.contact.reload = false;
    },
    contactReceived(state, action: PayloadAction<Received<void, ContactInfo>>) {
      state.contact.status = 'loaded';
      state.contact.details = action.payload.result;
    },
    contactFailed(state, action: PayloadAction<Failed<void>>) {
      state.contact.status = 'failed';
      state.contact.error = action.payload.message;
    },
    feedbackSent(state) {
      state.feedback = { status: 'loading', error: null, reload: false, message: null };
    },
    feedbackAccepted(state, action: PayloadAction<string>) {
      state.feedback = { status: 'loaded', error: null, reload: true, message: action.payload };
    },
    feedbackRejected(state, action: PayloadAction<string>) {
      state.feedback = { status: 'failed', error: action.payload, reload: false, message: null };
    },
    /** 'Send another message': the form again, empty. */
    feedbackReset(state) {
      state.feedback = initialContentState.feedback;
    },
  },
  selectors: {
    selectPolicy: (state) => state.policy,
    selectPolicyVersion: (state) => state.policyVersion,
    selectFeedback: (state) => state.feedback,
    selectContact: (state) => state.contact,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof contentSlice> {}
}

const injected = contentSlice.injectInto(rootReducer);

export const {
  policyRequested,
  policyReceived,
  policyFailed,
  policyReloadRequested,
  policyVersionRequested,
  policyVersionReceived,
  policyVersionFailed,
  feedbackSent,
  feedbackAccepted,
  feedbackRejected,
  feedbackReset,
  contactRequested,
  contactReceived,
  contactFailed,
} = contentSlice.actions;
export const { selectPolicy, selectPolicyVersion, selectFeedback, selectContact } = injected.selectors;

/** `terms@3`: which kept version the state holds. */
export function versionKey({ id, version }: VersionKey): string {
  return `${id}@${version}`;
}

/** The contact page's details, once: skipped while held or on the way (a failure is asked again). */
export const fetchContact = createLoader(
  { requested: contactRequested, received: contactReceived, failed: contactFailed },
  (api) => api.get('/contact/'),
  (state) => ['loading', 'loaded'].includes(((state as { content?: ContentState }).content ?? initialContentState).contact.status),
);

export const fetchPolicy = createLoader(
  { requested: policyRequested, received: policyReceived, failed: policyFailed },
  (api, id: string) => api.get('/_uk_home/palestine/show/details/website/{id}', { params: { id } }),
);

/** One kept version of a policy (the words an order was sold under). */
export const fetchPolicyVersion = createLoader(
  { requested: policyVersionRequested, received: policyVersionReceived, failed: policyVersionFailed },
  (api, key: VersionKey) =>
    api.get('/policy/versions/{id}/{version}', { params: { id: key.id, version: String(key.version) } }),
);

/** The server's reply when it gives none of its own. */
export const REPLY_PROMISE = 'Thank you: we reply within 24 hours on business days (Monday to Friday).';

/** Sends the contact form; the server's message (or its 422/429 message) lands in `feedback`. */
export const sendFeedback =
  (form: FeedbackForm): AppThunk<Promise<void>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(feedbackSent());
    try {
      const answer = await api.post('/_uk_home/palestine/feedback/send/only/', {
        fullname: form.fullname.trim(),
        email: form.email.trim().toLowerCase(),
        phone: form.phone.trim(),
        message: form.message.trim(),
      });
      dispatch(feedbackAccepted(answer?.message || REPLY_PROMISE));
    } catch (error) {
      dispatch(feedbackRejected(errorMessage(error)));
    }
  };

export default contentSlice;
