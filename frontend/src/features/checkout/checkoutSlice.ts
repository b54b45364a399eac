// Placing an order: Stripe turns the card into a PaymentMethod in the browser (payment.ts), then POST
// /api/order/create/ with an Idempotency-Key made when the checkout opened and kept until an order succeeds,
// so a double submit or a retry creates one order. The server charges the card: 201 is paid; 202 means the
// bank wants 3-D Secure, which Stripe.js runs before POST /api/order/confirm/{id}/ lets the server decide;
// 402 is a refusal, with the reason shown at the form and the basket kept. Success clears the basket and
// the applied discount.
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { ApiError, errorMessage } from '../../lib/api';
import type { Status, ThunkExtra } from '../../lib/thunk';
import { cartCleaned, type CartState } from '../cart/cartSlice';
import { discountCleared, type DiscountState } from '../discount/discountSlice';
import { isPaymentActionRequired, newIdempotencyKey, type CardPayment } from './payment';

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
  /** True while the shopper's bank runs its 3-D Secure check. */
  awaitingBank: boolean;
}

export const initialCheckoutState: CheckoutState = { status: 'idle', error: null, idempotencyKey: null, orderId: null, awaitingBank: false };

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
      state.awaitingBank = false;
    },
    orderSubmitted(state) {
      state.status = 'loading';
      state.error = null;
    },
    bankCheckStarted(state) {
      state.awaitingBank = true;
    },
    orderPlaced(state, action: PayloadAction<string>) {
      state.status = 'loaded';
      state.orderId = action.payload;
      state.idempotencyKey = null;
      state.awaitingBank = false;
    },
    orderFailed(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
      state.awaitingBank = false;
    },
    /** The card was refused: nothing of that attempt is kept, so the next one is a new order. */
    paymentDeclined(state, action: PayloadAction<string>) {
      state.status = 'failed';
      state.error = action.payload;
      state.awaitingBank = false;
      state.idempotencyKey = newIdempotencyKey();
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

export const { checkoutOpened, orderSubmitted, bankCheckStarted, orderPlaced, orderFailed, paymentDeclined } = checkoutSlice.actions;
export const { selectCheckout } = injected.selectors;

type CheckoutRoot = { cart: CartState; discount: DiscountState; checkout?: CheckoutState };

/** A refusal from Stripe in the browser (an incomplete or invalid card): shown at the form as it is. */
class CardRefused extends Error {}

const DECLINED = 402;
const STILL_WAITING = 409;

/**
 * POST /api/order/confirm/{id}/ after the bank's step. A 409 means Stripe has not settled yet: the order
 * stands, pending, and its page says so (a webhook or the expiry will settle it), so the shopper goes there
 * rather than paying again for drinks already held for them.
 */
async function confirmAfterBank(api: ThunkExtra['api'], id: string): Promise<string> {
  try {
    return await api.post('/order/confirm/{id}/', undefined, { params: { id } });
  } catch (error) {
    if (error instanceof ApiError && error.status === STILL_WAITING) return id;
    throw error;
  }
}

/** Pays and places the order; resolves the new order's id, or null when it failed (the slice has why). */
export function placeOrder(
  details: DeliveryDetails,
  { stripe, card }: CardPayment,
): ThunkAction<Promise<string | null>, CheckoutRoot, ThunkExtra, UnknownAction> {
  return async (dispatch, getState, { api }) => {
    const state = getState();
    if (state.checkout?.status === 'loading') return null; // a double submit: the first one is on its way
    if (!state.checkout?.idempotencyKey) dispatch(checkoutOpened());
    dispatch(orderSubmitted());
    const key = getState().checkout?.idempotencyKey ?? newIdempotencyKey();
    const delivery = {
      fullname: details.fullname.trim(),
      address: details.address.trim(),
      phone: details.phone.trim(),
      email: details.email.trim(),
      message: details.message.trim(),
    };
    try {
      const method = await stripe.createPaymentMethod({
        type: 'card',
        card,
        billing_details: { name: delivery.fullname, email: delivery.email, phone: delivery.phone },
      });
      if (method.error) throw new CardRefused(method.error.message ?? 'Check your card details');
      const { cart, discount } = getState();
      const answer = await api.post(
        '/order/create/',
        {
          ...delivery,
          product: cart.cartItems.map((line) => ({ product: line.product, qty: line.qty })),
          ...(discount.applied ? { code: discount.applied.code } : {}),
          payment: { provider: 'stripe', paymentMethod: method.paymentMethod.id },
        },
        { headers: { 'Idempotency-Key': key } },
      );
      let id: string;
      if (typeof answer === 'string') {
        id = answer;
      } else if (isPaymentActionRequired(answer)) {
        dispatch(bankCheckStarted());
        // Whatever the bank said, the server asks Stripe itself: the browser's word decides nothing.
        await stripe.handleCardAction(answer.clientSecret).catch(() => undefined);
        id = await confirmAfterBank(api, answer._id);
      } else {
        throw new Error('The shop gave an answer the checkout does not understand: try again later');
      }
      dispatch(orderPlaced(id));
      dispatch(cartCleaned());
      dispatch(discountCleared());
      return id;
    } catch (error) {
      if (error instanceof ApiError && error.status === DECLINED) dispatch(paymentDeclined(error.message));
      else dispatch(orderFailed(errorMessage(error)));
      return null;
    }
  };
}

export default checkoutSlice;
