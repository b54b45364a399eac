// /checkout: Delivery, Payment ('Order pay', Stripe's three card fields), Order summary, then the Pay
// button: in that order in the document, so on a phone (one column) and to a screen reader the summary and
// the discount box come before paying; on a wide screen the summary stands beside the rest. After a refused
// submit, focus moves to the first field to fix; after a declined card or a failed or abandoned 3-D Secure
// check, to the message saying why (both announced, and scrolled into view). Figures here are
// estimates by the server's rule; the order page shows the order's own totals. Stripe.js loads when this page
// opens, never before. On success the basket and the applied code are cleared and the browser goes to
// /myorder/{id}.
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
import { check } from '../../../lib/validation';
import { selectUserInfo } from '../../auth/authSlice';
import { selectCartAddress, selectCartLines } from '../../cart/cartSlice';
import { discountCleared, selectAppliedDiscount, selectDiscountError } from '../../discount/discountSlice';
import { lookUpDiscountCode } from '../../discount/lookUpDiscountCode';
import { checkoutOpened, placeOrder, selectCheckout, type DeliveryDetails } from '../checkoutSlice';
import { loadCheckoutStripe } from '../stripe';
import { fetchDeliveryTerms, selectDeliveryTerms } from '../../site/deliverySlice';
import { selectSiteInfo } from '../../site/siteSlice';
import { checkoutSummary, vatIn } from '../summary';
import { BeforeYouPay } from './BeforeYouPay';
import { loadSavedDetails, saveDetails } from '../returning';
import { CARD_FIELD_REQUIRED, CardFields, emptyCardFields, focusCardField, type CardFieldName, type CardFieldState, type CardFieldsState } from './CardFields';
import { Field } from '../../../components/Field';
import styles from './Checkout.module.css';
import { Link } from '../../../components/Link';

/** The spec's checkout form: the delivery fields plus its error flag (set by a submit with bad fields). */
interface CheckoutForm extends DeliveryDetails {
  error: boolean;
}

type DeliveryField = keyof DeliveryDetails;

/** The spec's checkout rule: fullname over 5, e-mail valid, phone over 9, address over 6. */
export function deliveryErrors(form: DeliveryDetails): Partial<Record<DeliveryField, string>> {
  const errors: Partial<Record<DeliveryField, string>> = {};
  if (!check('checkout_fullname', form.fullname)) errors.fullname = 'Enter your full name (more than 5 characters)';
  if (!check('checkout_address', form.address)) errors.address = 'Enter your address (more than 6 characters)';
  if (!check('checkout_phone', form.phone)) errors.phone = 'Enter a phone number of at least 10 digits';
  if (!check('email', form.email.trim())) errors.email = 'Enter a valid e-mail address';
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

const DELIVERY_ORDER: DeliveryField[] = ['fullname', 'address', 'phone', 'email'];
const CARD_ORDER: CardFieldName[] = ['cardNumber', 'cardExpiry', 'cardCvc'];

/** The first field a submit would refuse, in the order the form shows them; null when all are fine. */
export function firstInvalidField(form: DeliveryDetails, fields: CardFieldsState): DeliveryField | CardFieldName | null {
  const delivery = deliveryErrors(form);
  const card = cardFieldErrors(fields, true);
  return DELIVERY_ORDER.find((name) => delivery[name]) ?? CARD_ORDER.find((name) => card[name]) ?? null;
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

  const [form, setForm] = useState<CheckoutForm>({
    // A logged-in customer starts with their own details.
    fullname: saved.fullname ?? (typeof user?.fullname === 'string' ? user.fullname : ''),
    address: saved.address ?? (typeof user?.address === 'string' ? user.address : ''),
    phone: saved.phone ?? (typeof user?.phone === 'string' ? user.phone : ''),
    email: saved.email ?? user?.email ?? '',
    message: saved.message ?? '',
    error: false,
  });
  const [cardFields, setCardFields] = useState<CardFieldsState>(emptyCardFields);
  const [code, setCode] = useState('');
  const signedIn = Boolean(user?.email);
  const [saveForNextTime, setSaveForNextTime] = useState(true);
  // A new object per request, so the same target twice in a row still moves focus.
  const [focusRequest, setFocusRequest] = useState<{ target: FocusTarget } | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    dispatch(checkoutOpened());
    void dispatch(fetchDeliveryTerms());
  }, [dispatch]);
  // A returning customer: fill what is still blank from the profile or the last order.
  useEffect(() => {
    if (!signedIn) return undefined;
    let live = true;
    void dispatch(loadSavedDetails()).then((details) => {
      if (!live || !details) return;
      setForm((f) => ({
        ...f,
        fullname: f.fullname || details.fullname,
        phone: f.phone || details.phone,
        address: f.address || details.address,
      }));
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
  // Until the shop has said what delivery costs, the summary counts none and the Pay button waits.
  const summary = checkoutSummary(lines, deliveryTerms ?? { fee: 0, freeFrom: 0 }, applied?.discount ?? 0);
  const info = useAppSelector(selectSiteInfo);
  const vatRate = info?.vatRate ?? 20;
  const vat = vatIn(summary.total, vatRate);
  const errors = form.error ? deliveryErrors(form) : {};
  const cardProblems = cardFieldErrors(cardFields, form.error);
  const busy = checkout.status === 'loading';
  const ready = load.status === 'loaded' && stripe !== null && elements !== null && deliveryTerms !== null;

  const set = (field: DeliveryField) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
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
    const invalid = firstInvalidField(form, cardFields);
    setForm((f) => ({ ...f, error: invalid !== null }));
    if (invalid) {
      setFocusRequest({ target: invalid });
      return;
    }
    const { error: _flag, ...details } = form;
    const id = await dispatch(placeOrder(details, { stripe, card }));
    if (!id) setFocusRequest({ target: 'message' });
    if (id && signedIn && saveForNextTime) {
      void dispatch(saveDetails({ fullname: details.fullname.trim(), phone: details.phone.trim(), address: details.address.trim() }));
    }
    if (id) void navigate(paths.order.to(id), { state: { placed: true } });
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
            <Field id="address" label="Address" autoComplete="street-address" value={form.address} onChange={set('address')} error={errors.address} multiline />
            <div className={styles.row}>
              <Field id="phone" label="Phone" type="tel" inputMode="tel" autoComplete="tel" value={form.phone} onChange={set('phone')} error={errors.phone} />
              <Field id="email" label="E-mail" type="email" inputMode="email" autoComplete="email" value={form.email} onChange={set('email')} error={errors.email} />
            </div>
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
                <span>{formatMoney((Math.round(line.price * 100) * line.qty) / 100)}</span>
              </li>
            ))}
          </ul>
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
            <dd data-testid="subtotal">{formatMoney(summary.subtotal)}</dd>
            {summary.discount > 0 && (
              <>
                <dt>Discount</dt>
                <dd data-testid="discount">−{formatMoney(summary.discount)}</dd>
              </>
            )}
            <dt>Shipping</dt>
            <dd data-testid="shipping">
              {deliveryTerms === null ? '…' : summary.shipping === 0 ? 'Free' : formatMoney(summary.shipping)}
            </dd>
            <dt className={styles.grand}>Total</dt>
            <dd className={styles.grand} data-testid="total">
              {deliveryTerms === null ? '…' : formatMoney(summary.total)}
            </dd>
            <dt>VAT included</dt>
            <dd>{deliveryTerms === null ? '…' : formatMoney(vat)}</dd>
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
            <p ref={messageRef} className={styles.alert} role="alert" tabIndex={-1} data-testid="checkout-error">
              {checkout.error}
            </p>
          )}
          <BeforeYouPay info={info} total={summary.total} vat={vat} vatRate={vatRate} />
          <button type="submit" form="checkout-form" className={ui.accent} disabled={busy || !ready} aria-busy={busy}>
            {checkout.awaitingBank ? 'Waiting for your bank…' : busy ? 'Paying…' : `Pay ${formatMoney(summary.total)}`}
          </button>
        </div>
      </div>
    </div>
  );
}
