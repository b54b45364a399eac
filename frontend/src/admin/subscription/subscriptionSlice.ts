// Admin subscriptions (/new/uk/subscription) and the mailer (/new/uk/mailer): the mail lists with their
// counts (GET /api/sub/), the subscribers newest first, 20 at a time (GET /api/subscription/), delete, and
// the mailer's send (POST /api/subscription/mailer/) with the spec's mail-sent flag, the progress of the
// mailing just sent (GET /api/subscription/mailings/{id}) and the past mailings (GET /api/subscription/mailings/).
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { userLoggedOut } from '../../state/session/authSlice';
import { errorMessage, type Body, type Schemas } from '../../lib/api';
import { initialPagedList, receivePage, startPage, type Paged, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received } from '../../lib/thunk';
import { INPUTS_EMPTY, type Letter } from './letter';

/** A mail list with how many subscribers it has. */
export type MailList = Schemas['MailListCount'];

export type Subscriber = Schemas['Subscriber'];

export type MailingStatus = Schemas['MailingStatus'];

/** A mailing as a job: the sender works through its readers and counts them here. */
export type Mailing = Schemas['Mailing'];

/**
 * A letter's sections as the document gives them: the first (title and description required), then up to 9
 * more whose fields may be left out.
 */
type MailingSections = [Schemas['MailingFirstSection'], ...Schemas['MailingSection'][]];

/** Whether a mailing is still being sent (its progress is worth polling). */
export const isUnderway = (mailing: Mailing | null): boolean => mailing !== null && (mailing.status === 'queued' || mailing.status === 'sending');

export interface SubscriptionState extends Loadable, PagedList<Subscriber> {
  lists: MailList[];
  listsStatus: Loadable['status'];
  listsError: string | null;
  /** Ids with a delete on its way. */
  busy: string[];
  actionError: string | null;
  /** The mailer: sending, then the spec's mail-sent flag with how many got it, or the refusal. */
  sending: boolean;
  mailSent: boolean;
  recipients: number;
  mailError: string | null;
  /** The mailing just sent, as last polled. */
  mailingId: string | null;
  mailing: Mailing | null;
  /** The past mailings beside the mailer, newest first (first page). */
  mailings: Mailing[];
  mailingsStatus: Loadable['status'];
  mailingsError: string | null;
}

export const initialSubscriptionState: SubscriptionState = {
  ...initialLoadable,
  ...initialPagedList<Subscriber>(),
  lists: [],
  listsStatus: 'idle',
  listsError: null,
  busy: [],
  actionError: null,
  sending: false,
  mailSent: false,
  recipients: 0,
  mailError: null,
  mailingId: null,
  mailing: null,
  mailings: [],
  mailingsStatus: 'idle',
  mailingsError: null,
};

const subscriptionSlice = createSlice({
  name: 'subscription',
  initialState: initialSubscriptionState,
  reducers: {
    subscribersPageRequested(state, action: PayloadAction<number>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, action.payload, true);
    },
    subscribersPageReceived(state, action: PayloadAction<Received<number, Paged<Subscriber>>>) {
      state.status = 'loaded';
      receivePage(state, action.payload.arg, action.payload.result);
    },
    subscribersPageFailed(state, action: PayloadAction<Failed<number>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    subscriptionReloadRequested(state) {
      state.reload = true;
    },
    mailListsRequested(state, _action: PayloadAction<void>) {
      state.listsStatus = 'loading';
      state.listsError = null;
    },
    mailListsReceived(state, action: PayloadAction<Received<void, MailList[]>>) {
      state.listsStatus = 'loaded';
      state.lists = action.payload.result;
    },
    mailListsFailed(state, action: PayloadAction<Failed<void>>) {
      state.listsStatus = 'failed';
      state.listsError = action.payload.message;
    },
    subscriberDeleteStarted(state, action: PayloadAction<string>) {
      state.busy.push(action.payload);
      state.actionError = null;
    },
    subscriberDeleted(state, action: PayloadAction<string>) {
      state.busy = state.busy.filter((id) => id !== action.payload);
      state.reload = true;
    },
    subscriberDeleteFailed(state, action: PayloadAction<{ id: string; message: string }>) {
      state.busy = state.busy.filter((id) => id !== action.payload.id);
      state.actionError = action.payload.message;
    },
    mailingStarted(state) {
      state.sending = true;
      state.mailError = null;
    },
    mailingSent(state, action: PayloadAction<{ id: string; recipients: number }>) {
      state.sending = false;
      state.mailSent = true;
      state.recipients = action.payload.recipients;
      state.mailingId = action.payload.id;
      state.mailing = null;
    },
    mailingProgressRequested(_state, _action: PayloadAction<string>) {},
    mailingProgressReceived(state, action: PayloadAction<Received<string, Mailing>>) {
      if (action.payload.arg !== state.mailingId) return;
      state.mailing = action.payload.result;
      // Keep the list beside the mailer in step with the progress shown.
      state.mailings = state.mailings.some((m) => m._id === action.payload.arg)
        ? state.mailings.map((m) => (m._id === action.payload.arg ? action.payload.result : m))
        : [action.payload.result, ...state.mailings];
    },
    // A missed poll changes nothing: the next one tries again.
    mailingProgressFailed(_state, _action: PayloadAction<Failed<string>>) {},
    mailingsRequested(state, _action: PayloadAction<void>) {
      state.mailingsStatus = 'loading';
      state.mailingsError = null;
    },
    mailingsReceived(state, action: PayloadAction<Received<void, Paged<Mailing>>>) {
      state.mailingsStatus = 'loaded';
      state.mailings = action.payload.result.product;
    },
    mailingsFailed(state, action: PayloadAction<Failed<void>>) {
      state.mailingsStatus = 'failed';
      state.mailingsError = action.payload.message;
    },
    mailingFailed(state, action: PayloadAction<string>) {
      state.sending = false;
      state.mailError = action.payload;
    },
    /** 'Send another': back to a fresh letter. */
    mailerReset(state) {
      state.mailSent = false;
      state.recipients = 0;
      state.mailError = null;
      state.mailingId = null;
      state.mailing = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(userLoggedOut, () => initialSubscriptionState);
  },
  selectors: {
    selectSubscription: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof subscriptionSlice> {}
}

const injected = subscriptionSlice.injectInto(rootReducer);

export const {
  subscribersPageRequested,
  subscribersPageReceived,
  subscribersPageFailed,
  subscriptionReloadRequested,
  mailListsRequested,
  mailListsReceived,
  mailListsFailed,
  subscriberDeleteStarted,
  subscriberDeleted,
  subscriberDeleteFailed,
  mailingStarted,
  mailingSent,
  mailingFailed,
  mailingProgressRequested,
  mailingProgressReceived,
  mailingProgressFailed,
  mailingsRequested,
  mailingsReceived,
  mailingsFailed,
  mailerReset,
} = subscriptionSlice.actions;
export const { selectSubscription } = injected.selectors;

export const fetchSubscribersPage = createLoader(
  { requested: subscribersPageRequested, received: subscribersPageReceived, failed: subscribersPageFailed },
  (api, page: number) => api.get('/subscription/', { query: { pageNumber: page } }),
);

export const fetchMailLists = createLoader({ requested: mailListsRequested, received: mailListsReceived, failed: mailListsFailed }, (api) =>
  api.get('/sub/'),
);

export const deleteSubscriber =
  (id: string): AppThunk<Promise<void>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(subscriberDeleteStarted(id));
    try {
      await api.delete('/subscription/delete/{id}', { params: { id } });
      dispatch(subscriberDeleted(id));
      void dispatch(fetchMailLists());
    } catch (error) {
      dispatch(subscriberDeleteFailed({ id, message: errorMessage(error) }));
    }
  };

/** One mailing's progress (the screen polls it while the mailing is underway). */
export const fetchMailingProgress = createLoader(
  { requested: mailingProgressRequested, received: mailingProgressReceived, failed: mailingProgressFailed },
  (api, id: string) => api.get('/subscription/mailings/{id}', { params: { id } }),
);

/** The past mailings, newest first (the first page). */
export const fetchMailings = createLoader({ requested: mailingsRequested, received: mailingsReceived, failed: mailingsFailed }, (api) =>
  api.get('/subscription/mailings/', { query: { pageNumber: 1 } }),
);

/** How many subscribers the lists reach now, each once (what the mailer will count when it queues). */
export const countRecipients =
  (lists: readonly string[]): AppThunk<Promise<number>> =>
  async (_dispatch, _getState, { api }) =>
    (await api.get('/subscription/recipients/', { query: { lists: lists.join(',') } })).recipients;

/** Sends the letter to its lists; resolves whether it went. */
export const sendMailing =
  (letter: Letter): AppThunk<Promise<boolean>> =>
  async (dispatch, _getState, { api }) => {
    dispatch(mailingStarted());
    try {
      const [first, ...rest] = letter.sections.map((s) => ({ title: s.title.trim(), description: s.description.trim(), link: s.link.trim(), image: s.image.trim() }));
      // The screen checks the letter first (letterError), so there is always a first section.
      if (!first) throw new Error(INPUTS_EMPTY);
      const sections: MailingSections = [first, ...rest];
      const answer = await api.post('/subscription/mailer/', {
        MailList: letter.lists,
        // openapi-typescript renders the document's prefixItems-then-items array as a one-element tuple.
        data: { subject: letter.subject.trim(), sections: sections as Body<'post', '/subscription/mailer/'>['data']['sections'] },
      });
      dispatch(mailingSent({ id: answer._id, recipients: answer.recipients }));
      return true;
    } catch (error) {
      dispatch(mailingFailed(errorMessage(error)));
      return false;
    }
  };

export default subscriptionSlice;
