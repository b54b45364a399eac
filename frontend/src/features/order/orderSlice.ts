// The shopper's orders: one order's details (/myorder/{id}) and the logged-in customer's paged history with
// totals (/account/order). Injected with its screens' chunk.
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { initialPagedList, receivePage, startPage, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received } from '../../lib/thunk';
import type { Order, OrderAnswer, OrderTotals, PagedOrders } from '../../lib/orderTypes';

export interface OrderDetailState extends Loadable {
  id: string | null;
  order: OrderAnswer | null;
}

export interface OrderHistoryState extends Loadable, PagedList<Order> {
  totals: OrderTotals | null;
}

export interface OrderState {
  detail: OrderDetailState;
  history: OrderHistoryState;
}

export const initialOrderState: OrderState = {
  detail: { ...initialLoadable, id: null, order: null },
  history: { ...initialLoadable, ...initialPagedList<Order>(), totals: null },
};

const orderSlice = createSlice({
  name: 'order',
  initialState: initialOrderState,
  reducers: {
    orderDetailRequested(state, action: PayloadAction<string>) {
      const { detail } = state;
      if (detail.id !== action.payload) detail.order = null;
      detail.id = action.payload;
      detail.status = 'loading';
      detail.error = null;
      detail.reload = false;
    },
    orderDetailReceived(state, action: PayloadAction<Received<string, OrderAnswer>>) {
      if (action.payload.arg !== state.detail.id) return;
      state.detail.status = 'loaded';
      state.detail.order = action.payload.result;
    },
    orderDetailFailed(state, action: PayloadAction<Failed<string>>) {
      if (action.payload.arg !== state.detail.id) return;
      state.detail.status = 'failed';
      state.detail.error = action.payload.message;
    },
    orderDetailReloadRequested(state) {
      state.detail.reload = true;
    },
    historyPageRequested(state, action: PayloadAction<number>) {
      const { history } = state;
      history.status = 'loading';
      history.error = null;
      history.reload = false;
      startPage(history, action.payload, true);
    },
    historyPageReceived(state, action: PayloadAction<Received<number, PagedOrders>>) {
      state.history.status = 'loaded';
      receivePage(state.history, action.payload.arg, action.payload.result);
    },
    historyPageFailed(state, action: PayloadAction<Failed<number>>) {
      state.history.status = 'failed';
      state.history.error = action.payload.message;
    },
    historyReloadRequested(state) {
      state.history.reload = true;
    },
    orderTotalsRequested() {},
    orderTotalsReceived(state, action: PayloadAction<Received<void, OrderTotals>>) {
      state.history.totals = action.payload.result;
    },
    /** Totals are extra: the list's own error view covers a failed session. */
    orderTotalsFailed(state, _action: PayloadAction<Failed<void>>) {
      state.history.totals = null;
    },
  },
  selectors: {
    selectOrderDetail: (state) => state.detail,
    selectOrderHistory: (state) => state.history,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof orderSlice> {}
}

const injected = orderSlice.injectInto(rootReducer);

export const {
  orderDetailRequested,
  orderDetailReceived,
  orderDetailFailed,
  orderDetailReloadRequested,
  historyPageRequested,
  historyPageReceived,
  historyPageFailed,
  historyReloadRequested,
  orderTotalsRequested,
  orderTotalsReceived,
  orderTotalsFailed,
} = orderSlice.actions;
export const { selectOrderDetail, selectOrderHistory } = injected.selectors;

/** One order; `key` is an e-mailed link's (it opens the order without logging in, for 90 days). */
export const fetchOrderDetail = (id: string, key?: string | null) =>
  createLoader({ requested: orderDetailRequested, received: orderDetailReceived, failed: orderDetailFailed }, (api, orderId: string) =>
    api.get('/order/Orderdetails/{id}', { params: { id: orderId }, query: key ? { key } : {} }),
  )(id);

export const fetchOrderHistoryPage = createLoader(
  { requested: historyPageRequested, received: historyPageReceived, failed: historyPageFailed },
  (api, page: number) => api.get('/order/orderdetails/customer/order/', { query: { pageNumber: page } }),
);

export const fetchOrderTotals = createLoader(
  { requested: orderTotalsRequested, received: orderTotalsReceived, failed: orderTotalsFailed },
  (api) => api.get('/order/total/'),
);

export default orderSlice;
