// Placing an order: the server prices the basket (POST /api/order/quote/) when the checkout opens, whenever
// the basket or the code changes, and again just before paying; a total that moved since the shopper saw it
// stops there and says what changed (nothing is sent to Stripe). Then Stripe turns the card into a
// PaymentMethod in the browser (payment.ts), with the billing postcode for the bank's postcode check, and
// POST /api/order/create/ carries the total the shopper saw (`expectedTotal`) under an Idempotency-Key that
// outlives a reload (checkoutKey.ts), so a double submit, a retry or a reload creates one order. The server
// charges the card: 201 is paid; 202 means the bank wants 3-D Secure, which Stripe.js runs before POST
// /api/order/confirm/{id}/ lets the server decide; 402 is a refusal, with the reason shown at the form and
// the basket kept; 409 with new figures is a total that moved after all. Success clears the basket and the
// applied discount.
import { createSlice, type PayloadAction, type ThunkAction, type UnknownAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import { ApiError, errorMessage } from '../../lib/api';
import type { Status, ThunkExtra } from '../../lib/thunk';
import { cartCleaned, type CartState } from '../../state/basket/cartSlice';
import { discountCleared, type DiscountState } from '../../state/basket/discountSlice';
import { keepKey, keptKey } from './checkoutKey';
import { isPaymentActionRequired, newIdempotencyKey, type CardPayment } from './payment';
import { basketSignature, quotedBasket, quoteOfRefusal, sameTotal, type Quote, type QuotedBasket } from './quote';

export interface DeliveryDetails {
  fullname: string;
  addressLine1: string;
  addressLine2: string;
  town: string;
  postcode: string;
  phone: string;
  email: string;
  message: string;
}

/** What the payment needs beside the delivery: the card's billing postcode, and the buyer's date of birth
 * (`YYYY-MM-DD`) when the basket holds an age-restricted drink (blank otherwise). */
export interface PayerDetails {
  billingPostcode: string;
  dateOfBirth: string;
}

/** The total moved between the figures the shopper saw and the server's. */
export interface PriceChange {
  before: Quote;
  after: Quote;
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
  /** The server's figures for the basket: what the summary shows and the Pay button asks. */
  quote: Quote | null;
  quoteStatus: Status;
  /** Why the basket could not be priced (a drink sold out, a code that ended). */
  quoteError: string | null;
  priceChange: PriceChange | null;
}

export const initialCheckoutState: CheckoutState = {
  status: 'idle',
  error: null,
  idempotencyKey: null,
  orderId: null,
  awaitingBank: false,
  quote: null,
  quoteStatus: 'idle',
  quoteError: null,
  priceChange: null,
};

const checkoutSlice = createSlice({
  name: 'checkout',
  initialState: initialCheckoutState,
  reducers: {
    /** The form opened: take the key kept for this basket, else keep that of an unfinished attempt, else make one. */
    checkoutOpened(state, action: PayloadAction<string | undefined>) {
      state.idempotencyKey = action.payload ?? state.idempotencyKey ?? newIdempotencyKey();
      state.status = 'idle';
      state.error = null;
      state.orderId = null;
      state.awaitingBank = false;
      state.priceChange = null;
    },
    quoteRequested(state) {
      state.quoteStatus = 'loading';
      state.quoteError = null;
    },
    quoteReceived(state, action: PayloadAction<Quote>) {
      state.quoteStatus = 'loaded';
      state.quote = action.payload;
    },
    quoteFailed(state, action: PayloadAction<string>) {
      state.quoteStatus = 'failed';
      state.quoteError = action.payload;
    },
    /** The total moved before paying: the new figures are shown, and the next Pay agrees to them. */
    priceChanged(state, action: PayloadAction<PriceChange>) {
      state.status = 'failed';
      state.error = 'The total changed since you opened the checkout: nothing was charged. Check the new figures, then pay again.';
      state.awaitingBank = false;
      state.quote = action.payload.after;
      state.quoteStatus = 'loaded';
      state.priceChange = action.payload;
    },
    orderSubmitted(state) {
      state.status = 'loading';
      state.error = null;
      state.priceChange = null;
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
    /** The key stood for other details (the form changed after an attempt the server holds): a new one. */
    keyRenewed(state) {
      state.idempotencyKey = newIdempotencyKey();
    },
  },
  selectors: {
    selectCheckout: (state) => state,
  },
});

declare module '../../app/rootReducer' {
  export interface LazyLoadedSlices extends WithSlice<typeof checkoutSlice> {}
}

const injected = checkoutSlice.injectInto(rootReducer);

export const {
  checkoutOpened,
  quoteRequested,
  quoteReceived,
  quoteFailed,
  priceChanged,
  orderSubmitted,
  bankCheckStarted,
  orderPlaced,
  orderFailed,
  paymentDeclined,
  keyRenewed,
} = checkoutSlice.actions;
export const { selectCheckout } = injected.selectors;

type CheckoutRoot = { cart: CartState; discount: DiscountState; checkout?: CheckoutState };
type CheckoutThunk<R> = ThunkAction<R, CheckoutRoot, ThunkExtra, UnknownAction>;

/** A refusal from Stripe in the browser (an incomplete or invalid card): shown at the form as it is. */
class CardRefused extends Error {}

const DECLINED = 402;
const STILL_WAITING = 409;
const MOVED = 409;
/** The server's word for a key sent with other details than the order it holds. */
const KEY_REUSED = 'Idempotency-Key was already used';

const basketOf = (state: CheckoutRoot): QuotedBasket => quotedBasket(state.cart.cartItems, state.discount.applied?.code);

/** Keeps the key (or its absence) with the basket it stands for, so a reload finds it. */
function keepCurrentKey(state: CheckoutRoot): void {
  keepKey(state.checkout?.idempotencyKey ?? null, basketSignature(basketOf(state)));
}

/** The form opened: the key kept for this basket survives a reload; another basket gets a new one. */
export function openCheckout(): CheckoutThunk<void> {
  return (dispatch, getState) => {
    const basket = basketSignature(basketOf(getState()));
    dispatch(checkoutOpened(keptKey(basket) ?? undefined));
    keepCurrentKey(getState());
  };
}

/** Prices the basket at the server (the checkout's summary); resolves the quote, or null when it failed. */
export function fetchQuote(): CheckoutThunk<Promise<Quote | null>> {
  return async (dispatch, getState, { api }) => {
    const basket = basketOf(getState());
    if (basket.product.length === 0) return null;
    dispatch(quoteRequested());
    try {
      const quote = await api.post('/order/quote/', basket);
      // A later change of the basket asked again meanwhile: this answer is for a basket no longer shown.
      if (basketSignature(basketOf(getState())) !== basketSignature(basket)) return null;
      dispatch(quoteReceived(quote));
      return quote;
    } catch (error) {
      dispatch(quoteFailed(errorMessage(error)));
      return null;
    }
  };
}

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

/** The delivery details as the order sends them: trimmed, the second address line left out when blank. */
function deliveryBody(details: DeliveryDetails) {
  const line2 = details.addressLine2.trim();
  return {
    fullname: details.fullname.trim(),
    addressLine1: details.addressLine1.trim(),
    ...(line2 ? { addressLine2: line2 } : {}),
    town: details.town.trim(),
    postcode: details.postcode.trim(),
    phone: details.phone.trim(),
    email: details.email.trim(),
    message: details.message.trim(),
  };
}

/**
 * A placed order: its id, and the key of its link (the checkout's `Order-Key`, as the order's e-mails carry
 * it), which opens its page with the drinks, name and address; `null` when the answer carried none.
 */
export interface PlacedOrder {
  id: string;
  key: string | null;
}

/** Pays and places the order; resolves the new order, or null when it failed (the slice has why). */
export function placeOrder(details: DeliveryDetails & PayerDetails, { stripe, card }: CardPayment): CheckoutThunk<Promise<PlacedOrder | null>> {
  return async (dispatch, getState, { api }) => {
    const state = getState();
    if (state.checkout?.status === 'loading') return null; // a double submit: the first one is on its way
    if (!state.checkout?.idempotencyKey) dispatch(openCheckout());
    const shown = getState().checkout?.quote ?? null;
    dispatch(orderSubmitted());
    const key = getState().checkout?.idempotencyKey ?? newIdempotencyKey();
    const delivery = deliveryBody(details);
    const basket = basketOf(getState());
    try {
      // The price again, just before paying: a total that moved stops here, before the card is read.
      const now = await api.post('/order/quote/', basket);
      if (!shown || !sameTotal(shown, now)) {
        dispatch(priceChanged({ before: shown ?? now, after: now }));
        return null;
      }
      const method = await stripe.createPaymentMethod({
        type: 'card',
        card,
        billing_details: {
          name: delivery.fullname,
          email: delivery.email,
          phone: delivery.phone,
          address: { postal_code: details.billingPostcode.trim().toUpperCase() },
        },
      });
      if (method.error) throw new CardRefused(method.error.message ?? 'Check your card details');
      let orderKey: string | null = null;
      const answer = await api.post(
        '/order/create/',
        {
          ...delivery,
          ...basket,
          ...(now.minimumAge !== null && details.dateOfBirth ? { dateOfBirth: details.dateOfBirth } : {}),
          expectedTotal: now.total,
          payment: { provider: 'stripe', paymentMethod: method.paymentMethod.id },
        },
        { headers: { 'Idempotency-Key': key }, onHeaders: (headers) => (orderKey = headers.get('Order-Key')) },
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
      keepCurrentKey(getState());
      return { id, key: orderKey };
    } catch (error) {
      const moved = error instanceof ApiError && error.status === MOVED ? quoteOfRefusal(error.body) : null;
      if (moved) dispatch(priceChanged({ before: shown ?? moved, after: moved }));
      else if (error instanceof ApiError && error.status === DECLINED) dispatch(paymentDeclined(error.message));
      else {
        dispatch(orderFailed(errorMessage(error)));
        if (error instanceof ApiError && error.message.startsWith(KEY_REUSED)) dispatch(keyRenewed());
      }
      keepCurrentKey(getState());
      return null;
    }
  };
}

export default checkoutSlice;
