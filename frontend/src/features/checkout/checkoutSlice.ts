// Placing an order: the card becomes a token in the browser (payment.ts), then POST /api/order/create/ with
// an Idempotency-Key made when the checkout opened and kept until an order succeeds, so a double submit or a
// retry creates one order. Success clears the basket and the applied discount.
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { errorMessage } from '../../lib/api';
import type { Status, ThunkExtra } from '../../lib/thunk';
import { cartCleaned, type CartState } from '../cart/cartSlice';
import { discountCleared, type DiscountState } from '../discount/discountSlice';
import { CardError, newIdempotencyKey, paymentProvider, type CardInput, type PaymentProvider } from './payment';

export interface DeliveryDetails {
  fullname: string;
  address: string;
  phone: string;
  email: string;
  message: string;
}

export interface CheckoutState {
  status: Status;
  /** The message shown next to the form (stock, declined card, a field the server refused). */
  error: string | null;
  idempotencyKey: string | null;
  /** The id of the order just placed. */
  orderId: string | null;
}

export const initialCheckoutState: CheckoutState = { status: 'idle', error: null, idempotencyKey: null, orderId: null };

const checkoutSlice = createSlice({
  name: 'checkout',
  initialState: initialCheckoutState,
  reducers: {
    /** The form opened: keep the key of an unfinished attempt, else make one. */
    checkoutOpened(state) {
      state.idempotencyKey ??= newIdempotencyKey();
      state.status = 'idle';
      state.error = null;
      state.orderId = null;
    },
    orderSubmitted(state) {
      state.status = 'loading';
      state.error = null;
    },
    orderPlaced(state, action: PayloadAction<string>) {
      state.status = 'loaded';
      state.orderId = action.payload;
      state.idempotencyKey = null;
    },
    orderFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
    },
  },
  selectors: {
    selectCheckout: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof checkoutSlice> {}
}

const injected = checkoutSlice.injectInto(rootReducer);

export const { checkoutOpened, orderSubmitted, orderPlaced, orderFailed } = checkoutSlice.actions;
export const { selectCheckout } = injected.selectors;

type CheckoutRoot = { cart: CartState; discount: DiscountState; checkout?: CheckoutState };

/** Pays and places the order; resolves the new order's id, or null when it failed (the slice has why). */
export function placeOrder(
  details: DeliveryDetails,
  card: CardInput,
  provider: PaymentProvider = paymentProvider,
): ThunkAction<Promise<string | null>, CheckoutRoot, ThunkExtra, UnknownAction> {
  return async (dispatch, getState, { api }) => {
    const state = getState();
    if (state.checkout?.status === 'loading') return null; // a double submit: the first one is on its way
    if (!state.checkout?.idempotencyKey) dispatch(checkoutOpened());
    dispatch(orderSubmitted());
    const key = getState().checkout?.idempotencyKey ?? newIdempotencyKey();
    try {
      const payment = await provider.tokenize(card);
      const { cart, discount } = getState();
      const id = await api.post<string>(
        '/order/create/',
        {
          fullname: details.fullname.trim(),
          address: details.address.trim(),
          phone: details.phone.trim(),
          email: details.email.trim(),
          message: details.message.trim(),
          product: cart.cartItems.map((line) => ({ product: line.product, qty: line.qty })),
          ...(discount.applied ? { code: discount.applied.code } : {}),
          payment,
        },
        { headers: { 'Idempotency-Key': key } },
      );
      dispatch(orderPlaced(id));
      dispatch(cartCleaned());
      dispatch(discountCleared());
      return id;
    } catch (error) {
      dispatch(orderFailed(error instanceof CardError ? error.message : errorMessage(error)));
      return null;
    }
  };
}

export default checkoutSlice;
