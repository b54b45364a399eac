// A fake Stripe.js at its own seam (the global `Stripe`), for tests: split card fields drawn as plain inputs,
// createPaymentMethod answering from the typed number, handleCardAction answering as told. The checkout,
// @stripe/react-stripe-js and @stripe/stripe-js stay real. Every call is recorded.
import type { PaymentIntentResult, PaymentMethodResult, StripeCardNumberElement } from '@stripe/stripe-js';
import type { CardPayments } from '../features/checkout/payment';

export interface FakeStripeCall {
  method: 'createPaymentMethod' | 'handleCardAction';
  arg: unknown;
}

export interface FakeStripeScript {
  /** The answer to createPaymentMethod for the typed (or given) card number's digits. */
  paymentMethod?: (digits: string) => { id: string } | { error: string };
  /** The answer to handleCardAction: the bank said yes, or no. */
  bankSaysYes?: boolean;
}

const LABELS: Record<string, string> = {
  cardNumber: 'Card number',
  cardExpiry: 'Expiration date (MM/YY)',
  cardCvc: 'Security code',
};

const defaultMethod = (digits: string) =>
  digits.length === 16 ? { id: `pm_fake_${digits.slice(-4)}` } : { error: 'Your card number is incomplete.' };

function methodResult(answer: { id: string } | { error: string }): PaymentMethodResult {
  const result =
    'id' in answer
      ? { paymentMethod: { id: answer.id, object: 'payment_method', type: 'card' } }
      : { error: { type: 'validation_error', code: 'incomplete_number', message: answer.error } };
  return result as unknown as PaymentMethodResult;
}

function intentResult(yes: boolean, clientSecret: string): PaymentIntentResult {
  const result = yes
    ? { paymentIntent: { id: clientSecret.split('_secret_')[0], status: 'requires_confirmation' } }
    : { error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: 'We are unable to authenticate your payment method.' } };
  return result as unknown as PaymentIntentResult;
}

/** A stand-alone card payment for thunk tests: `card` carries the number the fake pays with. */
export function fakeCardPayment(number: string, script: FakeStripeScript = {}) {
  const calls: FakeStripeCall[] = [];
  const card = { elementType: 'cardNumber', fakeNumber: number } as unknown as StripeCardNumberElement;
  const stripe: CardPayments = {
    createPaymentMethod: async (data) => {
      calls.push({ method: 'createPaymentMethod', arg: data });
      return methodResult((script.paymentMethod ?? defaultMethod)(number.replace(/\D/g, '')));
    },
    handleCardAction: async (clientSecret) => {
      calls.push({ method: 'handleCardAction', arg: clientSecret });
      return intentResult(script.bankSaysYes ?? true, clientSecret);
    },
  };
  return { stripe, card, calls };
}

// ---------------------------------------------------------------------------------------------------------
// The global, for page tests

let script: FakeStripeScript = {};
export const fakeStripeCalls: FakeStripeCall[] = [];

interface FakeElement {
  elementType: string;
  input: HTMLInputElement;
  listeners: Map<string, Set<(event: unknown) => void>>;
  element?: object;
}

function makeElement(type: string, group: Map<string, FakeElement>) {
  const input = document.createElement('input');
  const state: FakeElement = { elementType: type, input, listeners: new Map() };
  const emit = (event: string, payload: unknown) => state.listeners.get(event)?.forEach((handler) => handler(payload));
  input.addEventListener('input', () => {
    const digits = input.value.replace(/\D/g, '');
    const complete = type === 'cardNumber' ? digits.length === 16 : type === 'cardExpiry' ? digits.length === 4 : digits.length === 3;
    emit('change', { elementType: type, empty: input.value === '', complete, error: undefined });
  });
  const element = {
    elementType: type,
    mount(node: HTMLElement) {
      const label = node.id ? document.querySelector(`label[for="${node.id}"]`) : null;
      if (label?.id) input.setAttribute('aria-labelledby', label.id);
      else input.setAttribute('aria-label', LABELS[type] ?? type);
      node.replaceChildren(input);
      setTimeout(() => emit('ready', element), 0);
    },
    unmount: () => input.remove(),
    destroy() {
      input.remove();
      group.delete(type);
    },
    update: () => undefined,
    on(event: string, handler: (event: unknown) => void) {
      if (!state.listeners.has(event)) state.listeners.set(event, new Set());
      state.listeners.get(event)!.add(handler);
      return element;
    },
    off(event: string, handler: (event: unknown) => void) {
      state.listeners.get(event)?.delete(handler);
      return element;
    },
    focus: () => input.focus(),
    blur: () => input.blur(),
    clear: () => {
      input.value = '';
    },
  };
  state.element = element;
  group.set(type, state);
  return element;
}

function FakeStripe(key: string) {
  if (!key.startsWith('pk_')) throw new Error('a publishable key is needed');
  const group = new Map<string, FakeElement>();
  return {
    elements: () => ({
      create: (type: string) => makeElement(type, group),
      // Stripe takes a type or a react-stripe-js component (which names its type).
      getElement: (type: string | { __elementType: string }) =>
        group.get(typeof type === 'string' ? type : type.__elementType)?.element ?? null,
      update: () => undefined,
    }),
    createPaymentMethod: async (data: unknown) => {
      fakeStripeCalls.push({ method: 'createPaymentMethod', arg: data });
      const digits = group.get('cardNumber')?.input.value.replace(/\D/g, '') ?? '';
      return methodResult((script.paymentMethod ?? defaultMethod)(digits));
    },
    handleCardAction: async (clientSecret: string) => {
      fakeStripeCalls.push({ method: 'handleCardAction', arg: clientSecret });
      return intentResult(script.bankSaysYes ?? true, clientSecret);
    },
    createToken: async () => ({}),
    confirmCardPayment: async () => ({}),
    _registerWrapper: () => undefined,
    registerAppInfo: () => undefined,
  };
}
FakeStripe.version = 'endive';

/**
 * Puts the fake where Stripe.js would put itself. @stripe/stripe-js keeps the first `window.Stripe` it finds
 * for the whole run, so the fake stays installed and only its script changes between tests.
 */
export function installFakeStripe(next: FakeStripeScript = {}): void {
  script = next;
  fakeStripeCalls.length = 0;
  (window as unknown as { Stripe: unknown }).Stripe = FakeStripe;
}

/** The payment settings the orders function answers locally. */
export const paymentSettings = { publishableKey: 'pk_test_local_shop', jsUrl: '/_local/stripe.js', deliveryFee: 4.99, freeDeliveryFrom: 40 };
