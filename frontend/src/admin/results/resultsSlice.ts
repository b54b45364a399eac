// Admin sales results (/new/uk/result): GET /api/order/results/, monthly counters and the e-mail list.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import type { Schemas } from '../../lib/api';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';

/** One month's counters in pounds: `totalPaid` in the month, `totalRefunded` in the month, `totalPayments` kept. */
export type MonthResult = Schemas['MonthResult'];

export type SalesResults = Schemas['Results'];

export interface ResultsState extends Loadable, SalesResults {}

export const initialResultsState: ResultsState = { ...initialLoadable, results: [], emails: [] };

const resultsSlice = createSlice({
  name: 'results',
  initialState: initialResultsState,
  reducers: {
    resultsRequested(state, _action: PayloadAction<void>) {
      state.status = 'loading';
      state.error = null;
      state.reload = false;
    },
    resultsReceived(state, action: PayloadAction<Received<void, SalesResults>>) {
      state.status = 'loaded';
      state.results = action.payload.result.results ?? [];
      state.emails = action.payload.result.emails ?? [];
    },
    resultsFailed(state, action: PayloadAction<Failed<void>>) {
      state.status = 'failed';
      state.error = action.payload.message;
    },
    resultsReloadRequested(state) {
      state.reload = true;
    },
  },
  selectors: {
    selectResults: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof resultsSlice> {}
}

const injected = resultsSlice.injectInto(rootReducer);

export const { resultsRequested, resultsReceived, resultsFailed, resultsReloadRequested } = resultsSlice.actions;
export const { selectResults } = injected.selectors;

export const fetchResults = createLoader(
  { requested: resultsRequested, received: resultsReceived, failed: resultsFailed },
  (api) => api.get('/order/results/'),
);

export default resultsSlice;
