// The 'Order pay' fields: Stripe Elements' three split card fields with the spec's labels, boxed like every
// other field of the form. Stripe draws each in its own frame, so the page never holds the card; the labels
// and error lines are the shop's, fed by the fields' change events.
import { CardCvcElement, CardExpiryElement, CardNumberElement, useElements } from '@stripe/react-stripe-js';
import type { StripeElements } from '@stripe/stripe-js';
import type { StripeCardNumberElementOptions, StripeElementChangeEvent, StripeElementStyle } from '@stripe/stripe-js';
import { useMemo, useState } from 'react';
import { fieldStyles } from '../../../components/Field';
import styles from './Checkout.module.css';

export type CardFieldName = 'cardNumber' | 'cardExpiry' | 'cardCvc';

export interface CardFieldState {
  complete: boolean;
  error: string | null;
}

export type CardFieldsState = Record<CardFieldName, CardFieldState>;

export const emptyCardFields: CardFieldsState = {
  cardNumber: { complete: false, error: null },
  cardExpiry: { complete: false, error: null },
  cardCvc: { complete: false, error: null },
};

/** What an empty or unfinished field says after a submit. */
export const CARD_FIELD_REQUIRED: Record<CardFieldName, string> = {
  cardNumber: 'Enter your card number',
  cardExpiry: 'Enter the expiry date as MM/YY',
  cardCvc: 'Enter the security code',
};

const FIELDS: { name: CardFieldName; id: string; label: string }[] = [
  { name: 'cardNumber', id: 'card-number', label: 'Card number' },
  { name: 'cardExpiry', id: 'card-expiry', label: 'Expiration date (MM/YY)' },
  { name: 'cardCvc', id: 'card-cvc', label: 'Security code' },
];

/** Scrolls a card field to the middle of the screen and puts the cursor in it (Stripe's frame takes focus). */
export function focusCardField(elements: StripeElements | null, name: CardFieldName): void {
  const field = FIELDS.find((f) => f.name === name);
  if (field) document.getElementById(field.id)?.scrollIntoView?.({ block: 'center' });
  elements?.getElement(name === 'cardNumber' ? CardNumberElement : name === 'cardExpiry' ? CardExpiryElement : CardCvcElement)?.focus();
}

/** The form's own look, handed to Stripe (its frames cannot read the page's CSS). */
function fieldStyle(): StripeElementStyle {
  const css = getComputedStyle(document.documentElement);
  const token = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    base: {
      color: token('--color-ink', '#16130f'),
      fontFamily: token('--font-sans', 'system-ui, sans-serif'),
      fontSize: '17px',
      lineHeight: '1.5',
      '::placeholder': { color: token('--color-ink-soft', '#4a433b') },
    },
    invalid: { color: token('--color-red-700', '#a40e25') },
  };
}

interface CardFieldsProps {
  /** Errors to show: the fields' own, plus 'required' ones after a submit. */
  shownErrors: Partial<Record<CardFieldName, string>>;
  onFieldChange: (name: CardFieldName, state: CardFieldState) => void;
  disabled: boolean;
}

export function CardFields({ shownErrors, onFieldChange, disabled }: CardFieldsProps) {
  const elements = useElements();
  const [focused, setFocused] = useState<CardFieldName | null>(null);
  const options = useMemo<StripeCardNumberElementOptions>(() => ({ style: fieldStyle(), disabled }), [disabled]);
  const onChange = (name: CardFieldName) => (event: StripeElementChangeEvent) =>
    onFieldChange(name, { complete: event.complete, error: event.error?.message ?? null });
  const focus = (name: CardFieldName) => focusCardField(elements, name);

  const control = (name: CardFieldName, id: string) => {
    const error = shownErrors[name];
    const className = [fieldStyles.input, styles.cardField, focused === name ? styles.cardFieldFocus : '', error ? styles.cardFieldInvalid : '']
      .filter(Boolean)
      .join(' ');
    const common = {
      id,
      className,
      options,
      onChange: onChange(name),
      onFocus: () => setFocused(name),
      onBlur: () => setFocused((current) => (current === name ? null : current)),
    };
    if (name === 'cardNumber') return <CardNumberElement {...common} />;
    if (name === 'cardExpiry') return <CardExpiryElement {...common} />;
    return <CardCvcElement {...common} />;
  };

  const field = ({ name, id, label }: (typeof FIELDS)[number]) => {
    const error = shownErrors[name];
    return (
      <div className={fieldStyles.field} key={name}>
        {/* Stripe's frame cannot be the label's control: a click on the label focuses the field instead. */}
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a mouse stand-in for the label a frame cannot have; keyboard users reach the field with Tab */}
        <label className={fieldStyles.label} id={`${id}-label`} htmlFor={id} onClick={() => focus(name)}>
          {label}
        </label>
        {control(name, id)}
        {error && (
          <p id={`${id}-error`} className={fieldStyles.error} data-testid={`${id}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <>
      {field(FIELDS[0]!)}
      <div className={styles.row}>
        {field(FIELDS[1]!)}
        {field(FIELDS[2]!)}
      </div>
    </>
  );
}
