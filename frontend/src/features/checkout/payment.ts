// The browser's side of a card payment. The card never reaches the shop's code: Stripe's fields (or, locally,
// the gateway's stand-in) turn it into a PaymentMethod, and only its id goes to POST /api/order/create/. The
// server creates and confirms the payment; when the bank asks for 3-D Secure the browser runs the bank's
// step with Stripe.js and the server confirms again. See docs/frontend-checkout.md.
import type { PaymentIntentResult, PaymentMethodResult, StripeCardNumberElement } from '@stripe/stripe-js';
import type { Schemas } from '../../lib/api';

/** The two Stripe.js calls the checkout makes (a Stripe object, or a fake one in tests). */
export interface CardPayments {
  createPaymentMethod(data: {
    type: 'card';
    card: StripeCardNumberElement;
    /** The billing postcode goes with the card so the bank's postcode check runs. */
    billing_details?: { name?: string; email?: string; phone?: string; address?: { postal_code?: string } };
  }): Promise<PaymentMethodResult>;
  handleCardAction(clientSecret: string): Promise<PaymentIntentResult>;
}

/** What the checkout pays with: Stripe and the mounted card number field (the other two go with it). */
export interface CardPayment {
  stripe: CardPayments;
  card: StripeCardNumberElement;
}

/** POST /api/order/create/ answers 202 with this when the bank wants 3-D Secure. */
export type PaymentActionRequired = Schemas['ActionRequired'];

export function isPaymentActionRequired(body: unknown): body is PaymentActionRequired {
  const answer = body as Partial<PaymentActionRequired> | null;
  return (
    typeof answer === 'object' &&
    answer !== null &&
    answer.status === 'requires_action' &&
    typeof answer._id === 'string' &&
    typeof answer.clientSecret === 'string'
  );
}

/** A UUID for the Idempotency-Key header (randomUUID where the page is a secure context). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
