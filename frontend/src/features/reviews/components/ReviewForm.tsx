// The review form: stars (a radio group, so arrow keys move between them), comment, full name, e-mail and the
// drink, checked with the spec's rules (lib/validation.ts, the same cases the server runs) before sending.
// On a failed check the form is in error mode: every failing field says why and the first failing field takes
// the focus. Once stored, the form gives way to thanks that fit the rating (the spec's words for a happy
// reviewer; an unhappy one is not told we are glad they are satisfied), which take the focus. The spec's timings (section 9): the page
// scrolls to the thanks 1100 ms after a stored review and to the form's top 1000 ms after a failed submit
// (a failed check or a refusal); a shopper who prefers reduced motion gets the jump without the animation,
// at the same moment. On a product page the drink is fixed (`drink`): no select, and no drinks list fetched.
// The e-mail is asked only of a writer known by nothing else: a signed-in shopper is known by their session,
// and a delivered e-mail's link (`invitation`) fixes the drink, fills in the name and vouches for the buyer.
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectIsLoggedIn, selectUserInfo } from '../../../state/session/authSlice';
import { Field, fieldStyles } from '../../../components/Field';
import ui from '../../../components/ui.module.css';
import { check } from '../../../lib/validation';
import {
  fetchReviewDrinks,
  reviewFormReset,
  selectReviewDrinks,
  selectReviewForm,
  sendReview,
  type DrinkOption,
  type ReviewForm as ReviewFormValues,
  type ReviewInvitation,
  type ReviewProof,
} from '../reviewsSlice';
import styles from './Reviews.module.css';

/** The spec's words once a review is stored: for a reviewer who gave 4 or 5 stars. */
export const THANK_YOU =
  "We sincerely appreciate your review of our product. Your feedback means a lot to us, and we're very glad to know you're satisfied.";

/** For 3 stars: thanks, without claiming the reviewer is pleased. */
export const THANK_YOU_MIXED =
  "Thank you for your review. Your feedback means a lot to us, and it helps us make our drinks better.";

/** For 1 or 2 stars: thanks, sorry, and a way to reach the shop. */
export const THANK_YOU_UNHAPPY =
  "Thank you for your honest review, and we are sorry this drink disappointed you. Your feedback goes straight to our team; if something was wrong with your order, contact us and we will put it right.";

/** The thanks that fit the stars given. */
export function thanksFor(rating: number): string {
  if (rating >= 4) return THANK_YOU;
  return rating === 3 ? THANK_YOU_MIXED : THANK_YOU_UNHAPPY;
}

export const COMMENT_MAX = 2000;
export const FULLNAME_MAX = 100;

type FieldName = keyof ReviewFormValues;

const MESSAGES: Record<FieldName, string> = {
  rating: 'This field is required.',
  comment: 'Write a comment of more than 7 characters.',
  fullname: 'Enter your full name (more than 5 characters).',
  email: 'Enter a valid e-mail address.',
  products: 'Choose the drink you are reviewing.',
};

const RULES: Record<FieldName, (form: ReviewFormValues) => boolean> = {
  rating: (f) => check('review_rating', f.rating),
  comment: (f) => check('review_comment', f.comment),
  fullname: (f) => check('review_fullname', f.fullname),
  email: (f) => check('email', f.email.trim().toLowerCase()),
  products: (f) => f.products !== '',
};

/** In the form's order, so the first one is the one to fix first. */
const FIELDS = Object.keys(RULES) as FieldName[];

/** The fields that break a rule; the e-mail counts only when the writer has to type one. */
export function invalidFields(form: ReviewFormValues, withEmail = true): FieldName[] {
  return FIELDS.filter((field) => (withEmail || field !== 'email') && !RULES[field](form));
}

/** After a review with a typed address: what happens next, the same words whoever the address is. */
export const CONFIRM_NOTE =
  'It shows now, unverified. If that address bought the drink from us, we have e-mailed it a link: confirming there makes it a verified buyer’s review.';

/** The field a server refusal names ('fullname must be …', 'products: no drink has this id'). */
function fieldOf(message: string | null): FieldName | undefined {
  return FIELDS.find((f) => message?.startsWith(`${f} `) || message?.startsWith(`${f}:`));
}

const STAR_VALUES = [1, 2, 3, 4, 5];

/** Section 9: scroll to the thanks this long after a stored review... */
export const SUCCESS_SCROLL_MS = 1100;
/** ...and to the form's top this long after a failed submit. */
export const ERROR_SCROLL_MS = 1000;

/** Smooth, unless the shopper asked the system for less motion. */
function scrollBehavior(): ScrollBehavior {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/** One pending scroll at a time, dropped when the form goes away. */
function useDelayedScroll() {
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return useCallback((target: () => HTMLElement | null, delay: number, block: ScrollLogicalPosition) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => target()?.scrollIntoView?.({ behavior: scrollBehavior(), block }), delay);
  }, []);
}

interface ReviewFormProps {
  /** Preselects a drink in the select (the reviews page's `?product=`). */
  initialProduct?: string;
  /** Reviews this drink only (its product page): the select is left out. */
  drink?: DrinkOption;
  /** A delivered e-mail's link: its token, and the name and drink it fills in. */
  invitation?: ReviewInvitation & { token: string };
}

export function ReviewForm({ initialProduct = '', drink: fixedDrink, invitation }: ReviewFormProps) {
  const dispatch = useAppDispatch();
  const drinks = useAppSelector(selectReviewDrinks);
  const sending = useAppSelector(selectReviewForm);
  const signedIn = useAppSelector(selectIsLoggedIn);
  const user = useAppSelector(selectUserInfo);
  const drink = invitation ? { _id: invitation.products, name: invitation.productName } : fixedDrink;
  const proof: ReviewProof = invitation ? { kind: 'link', token: invitation.token } : signedIn ? { kind: 'signedIn' } : { kind: 'email' };
  const withEmail = proof.kind === 'email';
  const [sentWithEmail, setSentWithEmail] = useState(false);
  const [form, setForm] = useState<ReviewFormValues>({
    rating: 0,
    comment: '',
    fullname: invitation?.fullname ?? '',
    email: '',
    products: drink?._id ?? initialProduct,
  });
  const scrollLater = useDelayedScroll();
  const [errorMode, setErrorMode] = useState(false);
  const id = useId();
  const top = useRef<HTMLFormElement>(null);
  const thanks = useRef<HTMLDivElement>(null);
  const alert = useRef<HTMLParagraphElement>(null);
  const invalid = errorMode ? invalidFields(form, withEmail) : [];
  const serverField = sending.status === 'failed' ? fieldOf(sending.error) : undefined;
  const errorFor = (field: FieldName): string | null => {
    if (invalid.includes(field)) return MESSAGES[field];
    return serverField === field ? sending.error : null;
  };
  const controlId = (field: FieldName) => (field === 'rating' ? `${id}-rating-1` : `${id}-${field}`);

  // The effects below need only whether a drink is fixed: `drink` is a new object on every render of an
  // invitation.
  const hasDrink = Boolean(drink);
  useEffect(() => {
    if (!hasDrink) void dispatch(fetchReviewDrinks());
  }, [dispatch, hasDrink]);
  // A drink named in the address that the shop does not sell is not preselected.
  useEffect(() => {
    if (!hasDrink && drinks.status === 'loaded' && form.products && !drinks.items.some((d) => d._id === form.products)) {
      setForm((f) => ({ ...f, products: '' }));
    }
  }, [hasDrink, drinks.status, drinks.items, form.products]);
  useEffect(() => {
    if (sending.status === 'loaded' && sending.reload) {
      thanks.current?.focus({ preventScroll: true });
      scrollLater(() => thanks.current, SUCCESS_SCROLL_MS, 'center');
    }
    if (sending.status === 'failed') {
      alert.current?.focus({ preventScroll: true });
      scrollLater(() => top.current, ERROR_SCROLL_MS, 'start');
    }
  }, [sending.status, sending.reload, scrollLater]);

  const set = <K extends FieldName>(field: K, value: ReviewFormValues[K]) => setForm((f) => ({ ...f, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.status === 'loading') return;
    const failing = invalidFields(form, withEmail);
    if (failing.length > 0) {
      setErrorMode(true);
      scrollLater(() => top.current, ERROR_SCROLL_MS, 'start');
      const first = failing[0] as FieldName;
      const control = document.getElementById(first === 'rating' && form.rating > 0 ? `${id}-rating-${form.rating}` : controlId(first));
      control?.focus({ preventScroll: true });
      return;
    }
    setSentWithEmail(withEmail);
    void dispatch(sendReview(form, proof));
  };

  if (sending.status === 'loaded' && sending.reload) {
    return (
      <div className={styles.thanks} role="status" tabIndex={-1} ref={thanks} data-testid="review-thanks">
        <p>{thanksFor(form.rating)}</p>
        {sentWithEmail && <p>{CONFIRM_NOTE}</p>}
        <button
          type="button"
          className={ui.secondary}
          onClick={() => {
            setForm({ rating: 0, comment: '', fullname: '', email: '', products: drink?._id ?? form.products });
            setErrorMode(false);
            dispatch(reviewFormReset());
          }}
        >
          Write another review
        </button>
      </div>
    );
  }

  const ratingError = errorFor('rating');
  const productError = errorFor('products');
  return (
    <form ref={top} className={styles.form} onSubmit={submit} noValidate aria-labelledby={`${id}-title`} data-testid="review-form">
      <h2 id={`${id}-title`} className={ui.sectionTitle}>
        Write a review
      </h2>
      {sending.status === 'failed' && (
        <p className={fieldStyles.alert} role="alert" tabIndex={-1} ref={alert}>
          {sending.error}
        </p>
      )}
      <fieldset className={styles.starField} aria-describedby={ratingError ? `${id}-rating-error` : undefined}>
        <legend className={fieldStyles.label}>Your rating</legend>
        <div className={styles.starPicker}>
          {STAR_VALUES.map((n) => (
            <span key={n} className={styles.starChoice}>
              <input
                type="radio"
                className={`visually-hidden ${styles.starInput}`}
                id={`${id}-rating-${n}`}
                name={`${id}-rating`}
                value={n}
                checked={form.rating === n}
                onChange={() => set('rating', n)}
              />
              <label htmlFor={`${id}-rating-${n}`} className={n <= form.rating ? styles.starOn : styles.pickOff}>
                <span aria-hidden="true">★</span>
                <span className="visually-hidden">{n === 1 ? '1 star' : `${n} stars`}</span>
              </label>
            </span>
          ))}
        </div>
        {ratingError && (
          <p id={`${id}-rating-error`} className={fieldStyles.error}>
            {ratingError}
          </p>
        )}
      </fieldset>
      <Field
        id={controlId('comment')}
        name="comment"
        label="Your review"
        multiline
        rows={5}
        maxLength={COMMENT_MAX}
        value={form.comment}
        onChange={(v) => set('comment', v)}
        error={errorFor('comment')}
      />
      <Field
        id={controlId('fullname')}
        name="fullname"
        label="Full name"
        autoComplete="name"
        maxLength={FULLNAME_MAX}
        value={form.fullname}
        onChange={(v) => set('fullname', v)}
        error={errorFor('fullname')}
      />
      {withEmail ? (
        <Field
          id={controlId('email')}
          name="email"
          type="email"
          label="E-mail"
          autoComplete="email"
          hint="Never shown with your review. If you bought the drink with it, we e-mail you a link that makes your review a verified buyer’s."
          value={form.email}
          onChange={(v) => set('email', v)}
          error={errorFor('email')}
        />
      ) : (
        <p className={fieldStyles.field} data-testid="review-proof">
          {proof.kind === 'link'
            ? 'You are reviewing from your delivery e-mail: your review shows as a verified buyer’s.'
            : `Signed in as ${user?.email ?? ''}: your review shows as a verified buyer’s if you bought this drink.`}
        </p>
      )}
      {drink ? (
        <p className={fieldStyles.field} data-testid="review-drink">
          Reviewing <strong>{drink.name}</strong>
        </p>
      ) : (
        <div className={fieldStyles.field}>
          <label className={fieldStyles.label} htmlFor={controlId('products')}>
            Drink
          </label>
          <select
            id={controlId('products')}
            name="products"
            className={fieldStyles.input}
            value={form.products}
            onChange={(event) => set('products', event.target.value)}
            disabled={drinks.status !== 'loaded'}
            aria-invalid={productError ? true : undefined}
            aria-describedby={productError ? `${id}-products-error` : undefined}
          >
            <option value="">{drinks.status === 'loaded' || drinks.status === 'failed' ? 'Choose a drink' : 'Loading drinks…'}</option>
            {drinks.items.map((option) => (
              <option key={option._id} value={option._id}>
                {option.name}
              </option>
            ))}
          </select>
          {productError && (
            <p id={`${id}-products-error`} className={fieldStyles.error}>
              {productError}
            </p>
          )}
          {drinks.status === 'failed' && (
            <p className={fieldStyles.error}>
              We could not load our drinks: {drinks.error}{' '}
              <button type="button" className={styles.linkButton} onClick={() => void dispatch(fetchReviewDrinks())}>
                Try again
              </button>
            </p>
          )}
        </div>
      )}
      <div>
        <button type="submit" className={ui.primary} disabled={sending.status === 'loading'}>
          {sending.status === 'loading' ? 'Sending…' : 'Send review'}
        </button>
      </div>
    </form>
  );
}
