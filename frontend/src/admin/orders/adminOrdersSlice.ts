// Admin orders (/new/uk/order): GET /api/order?pageNumber=&search=, 20 a page. The spec's paging: a fetch
// of page 1 (a new search) replaces the list, later pages append; clearing resets the page to 1 and empties
// the list. After a status update or a delete the list reloads; a refusal's message is shown.
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { errorMessage, type ApiClient, type Schemas } from '../../lib/api';
import { initialPagedList, receivePage, startPage, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type Failed, type Loadable, type Received, type ThunkExtra } from '../../lib/thunk';
import type { Order, OrderStatus, PagedOrders } from '../../features/order/orderTypes';

export interface AdminOrdersState extends Loadable, PagedList<Order> {
  search: string;
  /** Why the last status update or delete was refused. */
  actionError: string | null;
  /** An update or delete on its way. */
  busy: boolean;
}

export const initialAdminOrdersState: AdminOrdersState = {
  ...initialLoadable,
  ...initialPagedList<Order>(),
  search: '',
  actionError: null,
  busy: false,
};

export interface OrdersPageRequest {
  page: number;
  search: string;
}

const adminOrdersSlice = createSlice({
  name: 'adminOrders',
  initialState: initialAdminOrdersState,
  reducers: {
    adminOrdersRequested(state, action: PayloadAction<OrdersPageRequest>) {
      const { page, search } = action.payload;
      state.status = 'loading';
      state.error = null;
      state.reload = false;
      startPage(state, page, search === state.search);
      state.search = search;
    },
    adminOrdersReceived(state, action: PayloadAction<Received<OrdersPageRequest, PagedOrders>>) {
      const { arg, result } = action.payload;
      if (arg.search !== state.search) return; // a newer search is on its way
      state.status = 'loaded';
      receivePage(state, arg.page, result);
    },
    adminOrdersFailed(state, action: PayloadAction<Failed<OrdersPageRequest>>) {
      if (action.payload.arg.search !== state.search) return;
      state.status = 'failed';
      state.error = action.payload.message;
    },
    /** Clearing the search: page 1, an empty list, then a fresh fetch (the reload flag). */
    adminOrdersCleared(state) {
      state.search = '';
      state.products = [];
      state.pageNumber = 1;
      state.nextPage = null;
      state.actionError = null;
      state.reload = true;
    },
    adminOrdersReloadRequested(state) {
      state.reload = true;
    },
    orderActionStarted(state) {
      state.busy = true;
      state.actionError = null;
    },
    orderActionSucceeded(state) {
      state.busy = false;
      state.reload = true;
    },
    orderActionFailed(state, action: PayloadAction<string>) {
      state.busy = false;
      state.actionError = action.payload;
    },
  },
  selectors: {
    selectAdminOrders: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof adminOrdersSlice> {}
}

const injected = adminOrdersSlice.injectInto(rootReducer);

export const {
  adminOrdersRequested,
  adminOrdersReceived,
  adminOrdersFailed,
  adminOrdersCleared,
  adminOrdersReloadRequested,
  orderActionStarted,
  orderActionSucceeded,
  orderActionFailed,
} = adminOrdersSlice.actions;
export const { selectAdminOrders } = injected.selectors;

export const fetchAdminOrders = createLoader(
  { requested: adminOrdersRequested, received: adminOrdersReceived, failed: adminOrdersFailed },
  (api, { page, search }: OrdersPageRequest) =>
    api.get('/order', { query: { pageNumber: page, search: search.trim() || undefined } }),
);

/** One page of the whole list (admin/table/wholeList.ts loads them all): no server search. */
export const fetchAdminOrdersPage = (page: number) => fetchAdminOrders({ page, search: '' });

type Action = ThunkAction<Promise<boolean>, unknown, ThunkExtra, UnknownAction>;

function orderAction(call: (api: ApiClient) => Promise<unknown>): Action {
  return async (dispatch, _getState, { api }) => {
    dispatch(orderActionStarted());
    try {
      await call(api);
      dispatch(orderActionSucceeded());
      return true;
    } catch (error) {
      dispatch(orderActionFailed(errorMessage(error)));
      return false;
    }
  };
}

/** With `shipped`, who carries it and the tracking number (both optional): the customer's mail links them. */
export interface Shipping {
  carrier?: NonNullable<Order['carrier']>;
  trackingNumber?: string;
}

export const updateOrderStatus = (id: string, status: OrderStatus, shipping: Shipping = {}): Action =>
  orderAction((api) => api.put('/order/update/{_id}', { status, ...shipping }, { params: { _id: id } }));

export const deleteOrder = (id: string): Action =>
  orderAction((api) => api.delete('/order/delete/{id}', { params: { id } }));

/** A refund as the admin asks for it: the lines (and the delivery), or an amount, and why. */
export type RefundRequest = Schemas['RefundInput'];

/** Refunds (part of) an order; the server answers the refund, or why not (over the amount left, a hold, Stripe). */
export const refundOrder = (id: string, refund: RefundRequest): Action =>
  orderAction((api) => api.post('/order/refunds/{_id}', refund, { params: { _id: id } }));

/** Releases an order held for a fraud warning, once the admin has checked it (a dispute is the bank's). */
export const releaseHold = (id: string, note: string): Action =>
  orderAction((api) => api.post('/order/holds/{_id}/release', { note }, { params: { _id: id } }));

/** One order, whole (the admin's token sees every field): the admin's order view. */
export const fetchAdminOrder =
  (id: string): ThunkAction<Promise<Order>, unknown, ThunkExtra, UnknownAction> =>
  (_dispatch, _getState, { api }) =>
    api.get('/order/Orderdetails/{id}', { params: { id } });

export default adminOrdersSlice;
