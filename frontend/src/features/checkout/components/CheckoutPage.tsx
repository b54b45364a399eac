// /checkout: Delivery (a UK address's lines and postcode; the date of birth when the basket holds an
// age-restricted drink), Payment ('Order pay', Stripe's three card fields and the billing postcode), Order
// summary, then the Pay button: in that order in the document, so on a phone (one column) and to a screen
// reader the summary and the discount box come before paying; on a wide screen the summary stands beside the
// rest. The summary's figures are the server's quote, asked when the page opens, when the basket or the
// code changes, and again on Pay; a total that moved is shown with what changed, and the next Pay agrees to
// it. After a refused submit, focus moves to the first field to fix; after a declined card, a moved total
// or a failed or abandoned 3-D Secure check, to the message saying why (both announced, and scrolled into
// view). Stripe.js loads when this page opens, never before. On success the basket and the applied code are
// cleared and the browser goes to /myorder/{id}?key= (the checkout's Order-Key).
import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import { CardNumberElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { PageHeading } from '../../../components/PageHeading';
import ui from '../../../components/ui.module.css';
import { formatMoney } from '../../../lib/format';
import type { ThunkExtra } from '../../../lib/thunk';
import { usePageMeta } from '../../../lib/meta';
import { check, ukPostcode } from '../../../lib/validation';
import { selectUserInfo } from '../../../state/session/authSlice';
import { selectCartAddress, selectCartLines } from '../../../state/basket/cartSlice';
import { discountCleared, selectAppliedDiscount, selectDiscountError } from '../../../state/basket/discountSlice';
import { lookUpDiscountCode } from '../../../state/basket/lookUpDiscountCode';
import { ageOn } from '../age';
import { fetchQuote, openCheckout, placeOrder, selectCheckout, type DeliveryDetails, type PayerDetails } from '../checkoutSlice';
import { basketSignature, quoteChanges, quotedBasket } from '../quote';
import { loadCheckoutStripe } from '../stripe';
import { fetchDeliveryTerms, selectDeliveryTerms } from '../../../state/site/deliverySlice';
import { selectSiteInfo } from '../../../state/site/siteSlice';
import { BeforeYouPay } from './BeforeYouPay';
import { loadSavedDetails, saveDetails } from '../returning';
import { CARD_FIELD_REQUIRED, CardFields, emptyCardFields, focusCardField, type CardFieldName, type CardFieldState, type CardFieldsState } from './CardFields';
import { Field } from '../../../components/Field';
import styles from './Checkout.module.css';
import { Link } from '../../../components/Link';

/** The spec's checkout form: the delivery fields plus its error flag (set by a submit with bad fields). */
interface CheckoutForm extends DeliveryDetails, PayerDetails {
  error: boolean;
}

type DeliveryField = keyof DeliveryDetails | keyof PayerDetails;

/** A card's billing postcode: the bank checks it, so any country's form (letters, digits, a space or dash). */
const BILLING_POSTCODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/;

/**
 * The spec's checkout rule (fullname over 5, e-mail valid, phone over 9, an address) with the address as a
 * UK address's parts and postcode, the card's billing postcode, and the date of birth when `minimumAge` asks.
 */
export function deliveryErrors(form: DeliveryDetails & PayerDetails, minimumAge: number | null = null): Partial<Record<DeliveryField, string>> {
  const errors: Partial<Record<DeliveryField, string>> = {};
  if (!check('checkout_fullname', form.fullname)) errors.fullname = 'Enter your full name (more than 5 characters)';
  if (!check('address_line', form.addressLine1)) errors.addressLine1 = 'Enter the first line of your address';
  if (form.addressLine2.trim() && !check('address_line', form.addressLine2)) errors.addressLine2 = 'Enter at least 2 characters, or leave it blank';
  if (!check('town', form.town)) errors.town = 'Enter your town or city';
  if (!check('postcode', form.postcode)) errors.postcode = 'Enter a UK postcode, like SW1A 1AA';
  if (!check('checkout_phone', form.phone)) errors.phone = 'Enter a phone number of at least 10 digits';
  if (!check('email', form.email.trim())) errors.email = 'Enter a valid e-mail address';
  if (minimumAge !== null) {
    const age = ageOn(form.dateOfBirth);
    if (age === null) errors.dateOfBirth = 'Enter your date of birth';
    else if (age < minimumAge) errors.dateOfBirth = `You must be ${minimumAge} or over to buy this basket: remove the age-restricted drink to order the rest`;
  }
  if (!BILLING_POSTCODE.test(form.billingPostcode.trim())) errors.billingPostcode = "Enter the postcode of your card's billing address";
  return errors;
}

/** The card fields' errors to show: their own, and after a submit 'required' for any unfinished one. */
export function cardFieldErrors(fields: CardFieldsState, submitted: boolean): Partial<Record<CardFieldName, string>> {
  const errors: Partial<Record<CardFieldName, string>> = {};
  for (const name of Object.keys(fields) as CardFieldName[]) {
    const field = fields[name];
    if (field.error) errors[name] = field.error;
    else if (submitted && !field.complete) errors[name] = CARD_FIELD_REQUIRED[name];
  }
  return errors;
}

/** Where focus goes after a submit: the first field to fix, or the message saying why paying failed. */
type FocusTarget = DeliveryField | CardFieldName | 'message';

const DELIVERY_ORDER: DeliveryField[] = ['fullname', 'addressLine1', 'addressLine2', 'town', 'postcode', 'phone', 'email', 'dateOfBirth'];
const CARD_ORDER: CardFieldName[] = ['cardNumber', 'cardExpiry', 'cardCvc'];

/** The first field a submit would refuse, in the order the form shows them; null when all are fine. */
export function firstInvalidField(
  form: DeliveryDetails & PayerDetails,
  fields: CardFieldsState,
  minimumAge: number | null = null,
): DeliveryField | CardFieldName | null {
  const delivery = deliveryErrors(form, minimumAge);
  const card = cardFieldErrors(fields, true);
  return (
    DELIVERY_ORDER.find((name) => delivery[name]) ??
    CARD_ORDER.find((name) => card[name]) ??
    (delivery.billingPostcode ? 'billingPostcode' : null)
  );
}

/** Scrolls `element` to the middle of the screen (clear of the sticky header on a phone) and focuses it. */
function bringToFocus(element: HTMLElement | null | undefined): void {
  if (!element) return;
  element.scrollIntoView?.({ block: 'center' });
  element.focus({ preventScroll: true });
}

type StripeLoad = { status: 'loading' } | { status: 'loaded'; stripe: Stripe } | { status: 'failed'; error: string };

const stripeFor = (): ThunkAction<Promise<Stripe>, unknown, ThunkExtra, UnknownAction> => (_dispatch, _getState, { api }) =>
  loadCheckoutStripe(api);

/** Stripe for this page, with a retry when it could not be loaded. */
function useCheckoutStripe(): [StripeLoad, () => void] {
  const dispatch = useAppDispatch();
  const [load, setLoad] = useState<StripeLoad>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let current = true;
    dispatch(stripeFor()).then(
      (stripe) => current && setLoad({ status: 'loaded', stripe }),
      (error: unknown) =>
        current && setLoad({ status: 'failed', error: error instanceof Error && error.message ? error.message : 'The card fields could not be loaded' }),
    );
    return () => {
      current = false;
    };
  }, [dispatch, attempt]);
  const retry = useCallback(() => {
    setLoad({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  return [load, retry];
}

export default function CheckoutPage() {
  const [load, retry] = useCheckoutStripe();
  return (
    <Elements stripe={load.status === 'loaded' ? load.stripe : null}>
      <CheckoutForm load={load} onRetry={retry} />
    </Elements>
  );
}

function CheckoutForm({ load, onRetry }: { load: StripeLoad; onRetry: () => void }) {
  usePageMeta('Checkout', 'Enter your delivery details and pay for your drinks securely.');
  const stripe = useStripe();
  const elements = useElements();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const lines = useAppSelector(selectCartLines);
  const saved = useAppSelector(selectCartAddress);
  const applied = useAppSelector(selectAppliedDiscount);
  const codeError = useAppSelector(selectDiscountError);
  const codeStatus = useAppSelector((state) => state.discount.status);
  const checkout = useAppSelector(selectCheckout);
  const user = useAppSelector(selectUserInfo);

  const own = (value: unknown) => (typeof value === 'string' ? value : '');
  const [form, setForm] = useState<CheckoutForm>({
    // A logged-in customer starts with their own details.
    fullname: saved.fullname ?? own(user?.fullname),
    addressLine1: own(user?.addressLine1),
    addressLine2: own(user?.addressLine2),
    town: own(user?.town),
    postcode: own(user?.postcode),
    phone: saved.phone ?? own(user?.phone),
    email: saved.email ?? user?.email ?? '',
    message: saved.message ?? '',
    billingPostcode: own(user?.postcode),
    dateOfBirth: '',
    error: false,
  });
  // An address kept in one box (saved before the checkout asked for its parts), shown for the shopper to copy.
  const [oneBoxAddress, setOneBoxAddress] = useState(own(user?.postcode) ? '' : saved.address || own(user?.address));
  // The billing postcode follows the delivery postcode until the shopper types their own.
  const [billingTyped, setBillingTyped] = useState(false);
  const [cardFields, setCardFields] = useState<CardFieldsState>(emptyCardFields);
  const [code, setCode] = useState('');
  const signedIn = Boolean(user?.email);
  const [saveForNextTime, setSaveForNextTime] = useState(true);
  // A new object per request, so the same target twice in a row still moves focus.
  const [focusRequest, setFocusRequest] = useState<{ target: FocusTarget } | null>(null);
  const messageRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    dispatch(openCheckout());
    void dispatch(fetchDeliveryTerms());
  }, [dispatch]);
  // The server's price of what is in the basket now: when the page opens, and after any change of it.
  const basket = basketSignature(quotedBasket(lines, applied?.code));
  useEffect(() => {
    void dispatch(fetchQuote());
  }, [dispatch, basket]);
  // A returning customer: fill what is still blank from the profile or the last order.
  useEffect(() => {
    if (!signedIn) return undefined;
    let live = true;
    void dispatch(loadSavedDetails()).then((details) => {
      if (!live || !details) return;
      setForm((f) => {
        // The parts come as a set, and only into a form whose address is still blank.
        const blank = !f.addressLine1 && !f.town && !f.postcode;
        return {
          ...f,
          fullname: f.fullname || details.fullname,
          phone: f.phone || details.phone,
          ...(blank
            ? { addressLine1: details.addressLine1, addressLine2: details.addressLine2, town: details.town, postcode: details.postcode }
            : {}),
          billingPostcode: f.billingPostcode || (blank ? details.postcode : f.postcode),
        };
      });
      if (details.oneBoxAddress) setOneBoxAddress((shown) => shown || details.oneBoxAddress);
    });
    return () => {
      live = false;
    };
  }, [dispatch, signedIn]);

  // Runs once the render that shows the field's error or the message is on screen (and only then: a later
  // change of Stripe's elements does not move focus again).
  const elementsRef = useRef(elements);
  elementsRef.current = elements;
  useEffect(() => {
    if (!focusRequest) return;
    const { target } = focusRequest;
    if (target === 'message') {
      bringToFocus(messageRef.current);
    } else if (CARD_ORDER.includes(target as CardFieldName)) {
      focusCardField(elementsRef.current, target as CardFieldName);
    } else {
      bringToFocus(document.getElementById(target));
    }
  }, [focusRequest]);

  const deliveryTerms = useAppSelector(selectDeliveryTerms);
  const info = useAppSelector(selectSiteInfo);
  // The summary is the server's quote; until it arrives its figures wait, and so does the Pay button.
  const quote = checkout.quote;
  const minimumAge = quote?.minimumAge ?? null;
  const vatRate = quote?.vatRate ?? info?.vatRate ?? 20;
  const errors = form.error ? deliveryErrors(form, minimumAge) : {};
  const cardProblems = cardFieldErrors(cardFields, form.error);
  const busy = checkout.status === 'loading';
  const ready = load.status === 'loaded' && stripe !== null && elements !== null && quote !== null && checkout.quoteStatus !== 'failed';
  const money = (pounds: number | undefined) => (pounds === undefined ? '…' : formatMoney(pounds));
  const lineTotal = (product: string) => quote?.lines.find((line) => line.product === product)?.total;
  const changes = checkout.priceChange ? quoteChanges(checkout.priceChange.before, checkout.priceChange.after) : [];

  const set = (field: DeliveryField) => (value: string) =>
    setForm((f) => ({
      ...f,
      [field]: value,
      ...(field === 'postcode' && !billingTyped ? { billingPostcode: value } : {}),
    }));
  const onCardFieldChange = useCallback(
    (name: CardFieldName, state: CardFieldState) => setCardFields((fields) => ({ ...fields, [name]: state })),
    [],
  );

  const onApply = () => {
    if (code.trim()) void dispatch(lookUpDiscountCode(code));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const card = elements?.getElement(CardNumberElement) ?? null;
    if (busy || !stripe || !card) return;
    const invalid = firstInvalidField(form, cardFields, minimumAge);
    setForm((f) => ({ ...f, error: invalid !== null }));
    if (invalid) {
      setFocusRequest({ target: invalid });
      return;
    }
    const { error: _flag, ...details } = form;
    const placed = await dispatch(placeOrder(details, { stripe, card }));
    if (!placed) setFocusRequest({ target: 'message' });
    if (placed && signedIn && saveForNextTime) {
      void dispatch(
        saveDetails({
          fullname: details.fullname.trim(),
          phone: details.phone.trim(),
          addressLine1: details.addressLine1.trim(),
          addressLine2: details.addressLine2.trim(),
          town: details.town.trim(),
          postcode: details.postcode.trim(),
        }),
      );
    }
    if (placed) void navigate(paths.order.to(placed.id, placed.key), { state: { placed: true } });
  };

  if (lines.length === 0 && checkout.status !== 'loaded') {
    return (
      <div className={ui.container}>
        <PageHeading title="Checkout" crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Checkout' }]} />
        <p>Your cart is empty</p>
        <p>
          <Link className={ui.primary} to={paths.shop.to()}>
            Continue shopping
          </Link>
        </p>
      </div>
    );
  }

  return (
    <div className={ui.container}>
      <PageHeading title="Checkout" crumbs={[{ label: 'Home', to: paths.home.to() }, { label: 'Checkout' }]} />
      <div className={styles.layout}>
        <form id="checkout-form" className={`${styles.section} ${styles.details}`} aria-label="Checkout" noValidate onSubmit={(e) => void onSubmit(e)}>
          <section className={styles.card} aria-labelledby="delivery-title">
            <h2 id="delivery-title">Delivery</h2>
            <Field id="fullname" label="Full name" autoComplete="name" value={form.fullname} onChange={set('fullname')} error={errors.fullname} />
            {oneBoxAddress && (
              <p className={styles.note} data-testid="saved-address">
                Your saved address: <span className={styles.preLine}>{oneBoxAddress}</span>
              </p>
            )}
            <Field id="addressLine1" label="Address line 1" autoComplete="address-line1" value={form.addressLine1} onChange={set('addressLine1')} error={errors.addressLine1} />
            <Field
              id="addressLine2"
              label="Address line 2 (optional)"
              autoComplete="address-line2"
              value={form.addressLine2}
              onChange={set('addressLine2')}
              error={errors.addressLine2}
            />
            <div className={styles.row}>
              <Field id="town" label="Town or city" autoComplete="address-level2" value={form.town} onChange={set('town')} error={errors.town} />
              <Field
                id="postcode"
                label="Postcode"
                autoComplete="postal-code"
                autoCapitalize="characters"
                value={form.postcode}
                onChange={set('postcode')}
                onBlur={() => setForm((f) => ({ ...f, postcode: ukPostcode(f.postcode) ?? f.postcode }))}
                error={errors.postcode}
              />
            </div>
            <div className={styles.row}>
              <Field id="phone" label="Phone" type="tel" inputMode="tel" autoComplete="tel" value={form.phone} onChange={set('phone')} error={errors.phone} />
              <Field id="email" label="E-mail" type="email" inputMode="email" autoComplete="email" value={form.email} onChange={set('email')} error={errors.email} />
            </div>
            {minimumAge !== null && (
              <Field
                id="dateOfBirth"
                label="Date of birth"
                type="date"
                autoComplete="bday"
                hint={`Your basket holds a drink with over 150 mg of caffeine a litre, sold only to buyers aged ${minimumAge} or over. The courier checks ID on delivery.`}
                value={form.dateOfBirth}
                onChange={set('dateOfBirth')}
                error={errors.dateOfBirth}
              />
            )}
            <Field id="message" label="Message (optional)" value={form.message} onChange={set('message')} multiline />
            {signedIn && (
              <label className={styles.note}>
                <input type="checkbox" checked={saveForNextTime} onChange={(e) => setSaveForNextTime(e.target.checked)} /> Save these details to my
                account for next time
              </label>
            )}
          </section>

          <section className={styles.card} aria-labelledby="payment-title">
            <h2 id="payment-title">Payment</h2>
            <fieldset className={styles.card} aria-describedby="card-note">
              <legend>Order pay</legend>
              {load.status === 'loading' && (
                <p role="status" className={styles.note} data-testid="card-fields-loading">
                  Loading the secure card fields…
                </p>
              )}
              {load.status === 'failed' && (
                <div className={styles.retry}>
                  <p className={styles.alert} role="alert" data-testid="card-fields-error">
                    {load.error}
                  </p>
                  <button
                    type="button"
                    className={ui.secondary}
                    onClick={() => {
                      onRetry();
                      // The same call said what delivery costs: ask again if it failed too.
                      void dispatch(fetchDeliveryTerms());
                    }}
                  >
                    Try again
                  </button>
                </div>
              )}
              {load.status === 'loaded' && <CardFields shownErrors={cardProblems} onFieldChange={onCardFieldChange} disabled={busy} />}
              <Field
                id="billingPostcode"
                label="Billing postcode"
                autoComplete="billing postal-code"
                autoCapitalize="characters"
                hint="The postcode your card's statements go to: your bank checks it."
                value={form.billingPostcode}
                onChange={(value) => {
                  setBillingTyped(true);
                  set('billingPostcode')(value);
                }}
                error={errors.billingPostcode}
              />
              <p id="card-note" className={styles.note}>
                Your card details go straight to our payment provider, Stripe: we never see your card number or security code.
              </p>
            </fieldset>
          </section>
        </form>

        <section className={`${styles.section} ${styles.summary}`} aria-labelledby="summary-title">
          <h2 id="summary-title">Order summary</h2>
          <ul className={styles.lines}>
            {lines.map((line) => (
              <li key={line.product} className={styles.line}>
                <span>
                  {line.qty} × {line.name} <span className={styles.note}>({line.quantity})</span>
                </span>
                <span>{money(lineTotal(line.product))}</span>
              </li>
            ))}
          </ul>
          {checkout.quoteError && (
            <p className={styles.fieldError} role="alert" data-testid="quote-error">
              {checkout.quoteError}
            </p>
          )}
          <div className={styles.codeRow}>
            <Field id="discount-code" label="Discount code" value={code} onChange={setCode} />
            <button type="button" className={ui.secondary} onClick={onApply} disabled={codeStatus === 'loading' || !code.trim()}>
              Apply
            </button>
          </div>
          {codeError && (
            <p className={styles.fieldError} role="alert" data-testid="code-error">
              {codeError}
            </p>
          )}
          {applied && (
            <p className={styles.note} data-testid="applied-code">
              Code {applied.code}: {applied.discount}% off.{' '}
              <button type="button" className={ui.secondary} onClick={() => dispatch(discountCleared())}>
                Remove code
              </button>
            </p>
          )}
          <dl className={styles.totals} data-testid="checkout-totals">
            <dt>Subtotal</dt>
            <dd data-testid="subtotal">{money(quote?.subtotal)}</dd>
            {quote && quote.discount > 0 && (
              <>
                <dt>Discount</dt>
                <dd data-testid="discount">−{formatMoney(quote.discount)}</dd>
              </>
            )}
            <dt>Shipping</dt>
            <dd data-testid="shipping">{quote ? (quote.shipping === 0 ? 'Free' : formatMoney(quote.shipping)) : '…'}</dd>
            <dt className={styles.grand}>Total</dt>
            <dd className={styles.grand} data-testid="total">
              {money(quote?.total)}
            </dd>
            <dt>VAT included</dt>
            <dd>{money(quote?.vat)}</dd>
          </dl>
          {deliveryTerms && (
            <p className={styles.note}>
              Delivery is {formatMoney(deliveryTerms.fee)}, free for orders from {formatMoney(deliveryTerms.freeFrom)} after any
              discount.
            </p>
          )}
        </section>

        <div className={`${styles.section} ${styles.pay}`}>
          {form.error && firstInvalidField(form, cardFields) !== null && (
            <p className={styles.alert} role="alert">
              Please check the highlighted fields.
            </p>
          )}
          {checkout.error && (
            <div ref={messageRef} className={styles.alert} role="alert" tabIndex={-1} data-testid="checkout-error">
              <p>{checkout.error}</p>
              {changes.length > 0 && (
                <ul className={styles.changes} data-testid="price-changes">
                  {changes.map((change) => (
                    <li key={change}>{change}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <BeforeYouPay info={info} total={quote?.total ?? null} vat={quote?.vat ?? null} vatRate={vatRate} />
          <button type="submit" form="checkout-form" className={ui.accent} disabled={busy || !ready} aria-busy={busy}>
            {checkout.awaitingBank ? 'Waiting for your bank…' : busy ? 'Paying…' : `Pay ${money(quote?.total)}`}
          </button>
        </div>
      </div>
    </div>
  );
}
