// Admin orders (/new/uk/order): GET /api/order?pageNumber=&search=&cursor=, 20 a page, each later page read
// from where the last one ended (its `result.next.cursor`). The spec's paging: a fetch of page 1 (a new
// search) replaces the list, later pages append; clearing resets the page to 1 and empties
// the list. A status update, an archive or a delete says what it did (`notice`) and changes the row in place
// from the server's answer, so the table (its sort, filters, page and the admin's focus) stays where it
// was; a reload would empty the list and fetch every page again. A refusal's message is shown.
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { errorMessage, type ApiClient, type Schemas } from '../../lib/api';
import { FIRST_PAGE, initialPagedList, receivePage, startPage, type PagedList } from '../../lib/paging';
import { createLoader, initialLoadable, type AppThunk, type Failed, type Loadable, type Received, type ThunkExtra } from '../../lib/thunk';
import { orderReference, wholeOrder, type Order, type OrderStatus, type CursorPagedOrders } from '../../lib/orderTypes';
import { formatMoney } from '../../lib/format';

export interface AdminOrdersState extends Loadable, PagedList<Order> {
  search: string;
  /** Where the last page read ended: a later page is read on from there. */
  cursor: string | null;
  /** Why the last status update, archive or delete was refused. */
  actionError: string | null;
  /** What the last one did, in words. */
  notice: string | null;
  /** An update or delete on its way. */
  busy: boolean;
}

export const initialAdminOrdersState: AdminOrdersState = {
  ...initialLoadable,
  ...initialPagedList<Order>(),
  search: '',
  cursor: null,
  actionError: null,
  notice: null,
  busy: false,
};

export interface OrdersPageRequest {
  page: number;
  search: string;
  /** For a later page: where the page before it ended (the state's `cursor` when absent). */
  cursor?: string | null;
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
    adminOrdersReceived(state, action: PayloadAction<Received<OrdersPageRequest, CursorPagedOrders>>) {
      const { arg, result } = action.payload;
      if (arg.search !== state.search) return; // a newer search is on its way
      state.status = 'loaded';
      receivePage(state, arg.page, result);
      state.cursor = result?.result?.next?.cursor ?? null;
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
      state.cursor = null;
      state.actionError = null;
      state.reload = true;
    },
    adminOrdersReloadRequested(state) {
      state.reload = true;
    },
    orderActionStarted(state) {
      state.busy = true;
      state.actionError = null;
      state.notice = null;
    },
    /** Done: the answer's order replaces its row (or the deleted one leaves), and the notice says so. */
    orderActionSucceeded(state, action: PayloadAction<{ notice: string; order?: Order; deleted?: string }>) {
      const { notice, order, deleted } = action.payload;
      state.busy = false;
      state.notice = notice;
      if (order) state.products = state.products.map((row) => (row._id === order._id ? order : row));
      if (deleted) state.products = state.products.filter((row) => row._id !== deleted);
    },
    orderNoticeCleared(state) {
      state.notice = null;
      state.actionError = null;
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
  orderNoticeCleared,
} = adminOrdersSlice.actions;
export const { selectAdminOrders } = injected.selectors;

const loadAdminOrders = createLoader(
  { requested: adminOrdersRequested, received: adminOrdersReceived, failed: adminOrdersFailed },
  (api, { page, search, cursor }: OrdersPageRequest) =>
    api.get('/order', { query: { pageNumber: page, search: search.trim() || undefined, cursor: cursor ?? undefined } }),
);

/** Page `page` of a list: page 1 afresh, a later page of the same search from where the last one ended. */
export const fetchAdminOrders =
  (request: OrdersPageRequest): AppThunk<Promise<void>> =>
  async (dispatch, getState) => {
    const held = (getState() as { adminOrders?: AdminOrdersState }).adminOrders ?? initialAdminOrdersState;
    const onward = request.page !== FIRST_PAGE && held.search === request.search;
    const cursor = request.cursor !== undefined ? request.cursor : onward ? held.cursor : null;
    await dispatch(loadAdminOrders({ ...request, cursor }));
  };

/** One page of the whole list (admin/table/wholeList.ts loads them all): no server search. */
export const fetchAdminOrdersPage = (page: number) => fetchAdminOrders({ page, search: '' });

type Action = ThunkAction<Promise<boolean>, unknown, ThunkExtra, UnknownAction>;

type Outcome = { notice: string; order?: Order; deleted?: string };

function orderAction(call: (api: ApiClient) => Promise<Outcome>): Action {
  return async (dispatch, _getState, { api }) => {
    dispatch(orderActionStarted());
    try {
      dispatch(orderActionSucceeded(await call(api)));
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

/** Nothing more happens to such an order: it may be archived, and deleted if no money was ever taken. */
export const isFinished = (status: OrderStatus): boolean => ['delivered', 'cancelled', 'expired', 'refunded'].includes(status);

/** The shop keeps every order that was paid (for its accounts, six years): only an unpaid finished one goes. */
export const canDelete = (order: Pick<Order, 'status' | 'wasPaid'>): boolean => isFinished(order.status) && !order.wasPaid;

/** What a move did, in the words the admin reads after it. */
export function movedNotice(before: Pick<Order, '_id' | 'number' | 'total' | 'fullname'>, after: Pick<Order, 'status'>): string {
  const reference = orderReference(before);
  if (after.status === 'refunded') return `Order ${reference} is cancelled and ${formatMoney(before.total)} is refunded to ${before.fullname}'s card.`;
  return `Order ${reference} is now ${after.status}.`;
}

export const updateOrderStatus = (order: Order, status: OrderStatus, shipping: Shipping = {}): Action =>
  orderAction(async (api) => {
    const moved = await api.put('/order/update/{_id}', { status, ...shipping }, { params: { _id: order._id } });
    return { notice: movedNotice(order, moved), order: moved };
  });

/** Archived: off the default list, kept whole (searches, the CSV, the results); `false` brings it back. */
export const archiveOrder = (order: Order, archived: boolean): Action =>
  orderAction(async (api) => {
    const saved = await api.put('/order/archive/{_id}', { archived }, { params: { _id: order._id } });
    const reference = orderReference(order);
    return {
      notice: archived ? `Order ${reference} is archived: it is off the list, and still found by a search and in the CSV.` : `Order ${reference} is back on the list.`,
      order: saved,
    };
  });

export const deleteOrder = (order: Order): Action =>
  orderAction(async (api) => {
    await api.delete('/order/delete/{id}', { params: { id: order._id } });
    return { notice: `Order ${orderReference(order)} is deleted.`, deleted: order._id };
  });

/** A refund as the admin asks for it: the lines (and the delivery), or an amount, and why. */
export type RefundRequest = Schemas['RefundInput'];

/** Refunds (part of) an order; the server answers the refund, or why not (over the amount left, a hold, Stripe). */
export const refundOrder = (order: Order, refund: RefundRequest): Action =>
  orderAction(async (api) => {
    const made = await api.post('/order/refunds/{_id}', refund, { params: { _id: order._id } });
    const reference = orderReference(order);
    const notice =
      made.status === 'failed'
        ? `The bank could not refund ${formatMoney(made.amount)} of order ${reference}: nothing was taken back from the shop.`
        : `${formatMoney(made.amount)} of order ${reference} is refunded to ${order.fullname}'s card${made.creditNote ? ` (credit note ${made.creditNote.number})` : ''}.`;
    return { notice };
  });

/** Releases an order held for a fraud warning, once the admin has checked it (a dispute is the bank's). */
export const releaseHold = (order: Order, note: string): Action =>
  orderAction(async (api) => {
    const released = await api.post('/order/holds/{_id}/release', { note }, { params: { _id: order._id } });
    return { notice: `The hold on order ${orderReference(order)} is released.`, order: released };
  });

/** One order, whole (the admin's token sees every field): the admin's order view. */
export const fetchAdminOrder =
  (id: string): ThunkAction<Promise<Order>, unknown, ThunkExtra, UnknownAction> =>
  (_dispatch, _getState, { api }) =>
    api.get('/order/Orderdetails/{id}', { params: { id } }).then(wholeOrder);

export default adminOrdersSlice;
