// The browser's payment seam. The card number and security code never leave the browser: a provider turns
// the card into a token, and only {provider, token, brand, last4} goes to POST /api/order/create/.
//
// Locally the test provider stands in (the back end's TestProvider accepts `tok_test_*` tokens and declines
// `tok_test_declined`). A Stripe module would implement the same PaymentProvider interface, its
// `tokenize` creating a PaymentMethod with Stripe.js (the token being its id, provider 'stripe'), and be
// chosen in `paymentProvider` below; nothing else in the checkout changes. See docs/frontend-checkout.md.
import { cardBrand, check, type CardBrand } from '../../lib/validation';

export interface CardInput {
  number: string;
  /** MM/YY or MM/YYYY. */
  expiry: string;
  securityCode: string;
}

export type CardField = keyof CardInput;

/** What the back end receives about the card. */
export interface PaymentToken {
  provider: string;
  token: string;
  brand: CardBrand;
  last4: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Resolves the token for a valid card; rejects with a CardError naming the field otherwise. */
  tokenize(card: CardInput): Promise<PaymentToken>;
}

export class CardError extends Error {
  readonly field: CardField;

  constructor(field: CardField, message: string) {
    super(message);
    this.name = 'CardError';
    this.field = field;
  }
}

/** The test card the back end declines (as a real bank can). */
export const DECLINED_TEST_CARD = '4000000000000002';

const digitsOf = (number: string): string => number.replace(/[\s-]/g, '');

/** True when an MM/YY or MM/YYYY expiry's month has not ended yet at `now`. */
export function isExpiryCurrent(expiry: string, now: Date = new Date()): boolean {
  const match = /^(\d{2})\/(\d{2}|\d{4})$/.exec(expiry.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return year * 12 + month >= now.getFullYear() * 12 + now.getMonth() + 1;
}

/** The first problem with each card field (the shared rules plus 'expiry not in the past'). */
export function cardErrors(card: CardInput, now: Date = new Date()): Partial<Record<CardField, string>> {
  const errors: Partial<Record<CardField, string>> = {};
  if (!check('card_number', digitsOf(card.number))) errors.number = 'Enter a valid Visa, Mastercard, Amex or Discover card number';
  if (!check('expiry', card.expiry.trim())) errors.expiry = 'Enter the expiry date as MM/YY';
  else if (!isExpiryCurrent(card.expiry, now)) errors.expiry = 'This card has expired';
  if (!check('security_code', card.securityCode.trim())) errors.securityCode = 'Enter the 3 or 4 digit security code';
  return errors;
}

function randomToken(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The local provider: a valid card becomes `tok_test_<random>`; 4000 0000 0000 0002 becomes the declined token. */
export function createTestProvider(now: () => Date = () => new Date()): PaymentProvider {
  return {
    name: 'test',
    async tokenize(card) {
      const errors = cardErrors(card, now());
      const field = (Object.keys(errors) as CardField[])[0];
      if (field) throw new CardError(field, errors[field]!);
      const digits = digitsOf(card.number);
      return {
        provider: 'test',
        token: digits === DECLINED_TEST_CARD ? 'tok_test_declined' : `tok_test_${randomToken()}`,
        brand: cardBrand(digits)!,
        last4: digits.slice(-4),
      };
    },
  };
}

/** The provider the checkout uses: the test one until a Stripe module replaces it here. */
export const paymentProvider: PaymentProvider = createTestProvider();

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
