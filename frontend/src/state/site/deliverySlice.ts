// The delivery terms every order is priced by (the charge, and the basket value from which delivery is
// free), as the orders function states them in `GET /api/order/payment-settings/`: the one source for every
// page that names them, so a change of the stack's setting changes the checkout, the basket, the drink pages
// and the delivery policy together. Loaded once per visit, like the site info; the slice injects itself
// when first imported.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import type { DeliveryTerms } from '../../lib/delivery';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';

export type { DeliveryTerms } from '../../lib/delivery';

export interface DeliveryState {
  terms: DeliveryTerms | null;
  loading: Loadable;
}

export const initialDeliveryState: DeliveryState = { terms: null, loading: initialLoadable };

const deliverySlice = createSlice({
  name: 'delivery',
  initialState: initialDeliveryState,
  reducers: {
    deliveryTermsRequested(state) {
      state.loading = { status: 'loading', error: null, reload: false };
    },
    deliveryTermsReceived(state, action: PayloadAction<Received<void, DeliveryTerms>>) {
      state.terms = action.payload.result;
      state.loading.status = 'loaded';
    },
    deliveryTermsFailed(state, action: PayloadAction<Failed<void>>) {
      state.loading = { status: 'failed', error: action.payload.message, reload: false };
    },
  },
  selectors: {
    selectDeliveryTerms: (state) => state.terms,
    selectDeliveryState: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof deliverySlice> {}
}

const injected = deliverySlice.injectInto(rootReducer);

export const { deliveryTermsRequested, deliveryTermsReceived, deliveryTermsFailed } = deliverySlice.actions;
export const { selectDeliveryTerms, selectDeliveryState } = injected.selectors;

/** Fetches the delivery terms unless they are held or on their way. */
export const fetchDeliveryTerms = createLoader<void, DeliveryTerms>(
  {
    requested: () => deliveryTermsRequested(),
    received: deliveryTermsReceived,
    failed: deliveryTermsFailed,
  },
  async (api) => {
    const settings = await api.get('/order/payment-settings/');
    return { fee: settings.deliveryFee, freeFrom: settings.freeDeliveryFrom };
  },
  (state) =>
    ['loading', 'loaded'].includes(((state as { delivery?: DeliveryState }).delivery ?? initialDeliveryState).loading.status),
);

export default deliverySlice;
