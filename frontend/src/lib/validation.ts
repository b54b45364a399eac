// The spec's validation rules (section 5) as docs/validation.md states them, for instant feedback in forms.
// The Rust side is the authority; both run the cases in shared/testdata/validation.json, so they agree.

export type ValidationKind =
  | 'email'
  | 'login_email'
  | 'login_code'
  | 'checkout_fullname'
  | 'checkout_phone'
  | 'checkout_address'
  | 'review_rating'
  | 'review_comment'
  | 'review_fullname'
  | 'mailer_subject'
  | 'mailer_title'
  | 'mailer_description'
  | 'discount_rate'
  | 'username'
  | 'name'
  | 'phone'
  | 'personal_number'
  | 'password'
  | 'card_number'
  | 'expiry'
  | 'security_code'
  | 'description'
  | 'price'
  | 'time'
  | 'message'
  | 'number'
  | 'address_line'
  | 'town'
  | 'postcode';

/** Length in characters (code points), as the Rust side counts them. */
const len = (text: string): number => Array.from(text).length;
const trimmedLongerThan = (text: string, n: number): boolean => len(text.trim()) > n;
const trimmedAtLeast = (text: string, n: number): boolean => len(text.trim()) >= n;

export function isEmail(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (len(value) < 2 || value.trim() === '') return false;
  if (!/^[A-Za-z0-9@._-]+$/.test(value)) return false;
  const parts = value.split('@');
  if (parts.length !== 2) return false;
  const [local = '', domain = ''] = parts;
  return local !== '' && domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.');
}

function isPhone(text: string, minLength: number): boolean {
  const t = text.trim();
  return len(t) >= minLength && /^[0-9 +\-()]+$/.test(t);
}

/** A number given as JSON or as text, as forms send them. */
function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const t = value.trim();
    // Number() would also read '0x10' and ' 1_0'-like oddities; keep to the decimal forms Rust's f64 parse takes.
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return null;
    const n = Number(t);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function isPrice(text: string): boolean {
  return /^[1-9]\d*(\.\d+)?$/.test(text);
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover';

/** The brand whose number pattern matches, ignoring spaces; null when none does. */
export function cardBrand(number: string): CardBrand | null {
  const digits = number.replace(/ /g, '');
  if (!/^\d+$/.test(digits)) return null;
  const prefix = (n: number): number => (digits.length >= n ? Number(digits.slice(0, n)) : 0);
  const length = digits.length;
  if (digits.startsWith('4') && [13, 16, 19].includes(length)) return 'visa';
  if (length === 16 && ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720))) {
    return 'mastercard';
  }
  if (length === 15 && (prefix(2) === 34 || prefix(2) === 37)) return 'amex';
  if (length === 16 && (prefix(4) === 6011 || prefix(2) === 65 || (prefix(3) >= 644 && prefix(3) <= 649))) {
    return 'discover';
  }
  return null;
}

export function luhn(number: string): boolean {
  const digits = Array.from(number.replace(/\D/g, ''), Number);
  if (digits.length === 0) return false;
  const sum = digits
    .reverse()
    .reduce((acc, d, i) => acc + (i % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return sum % 10 === 0;
}

export function isExpiry(text: string): boolean {
  const match = /^(\d{2})\/(\d{2}|\d{4})$/.exec(text);
  if (!match) return false;
  const month = Number(match[1]);
  return month >= 1 && month <= 12;
}

/**
 * A UK postcode without its spaces, upper-cased (`SW1A1AA`), or null: an area of one or two letters, a
 * district digit and at most one more letter or digit, then a digit and two letters.
 */
function compactPostcode(text: string): string | null {
  const compact = text.replace(/ /g, '').toUpperCase();
  return /^[A-Z]{1,2}[0-9][A-Z0-9]?[0-9][A-Z]{2}$/.test(compact) ? compact : null;
}

/** A UK postcode as the shop stores it (`SW1A 1AA`), or null when `text` is not one. */
export function ukPostcode(text: string): string | null {
  const compact = compactPostcode(text.trim());
  return compact && len(text) <= 12 ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : null;
}

function checkNumberKind(kind: string, value: unknown): boolean | null {
  switch (kind) {
    case 'review_rating':
      return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 5;
    case 'discount_rate': {
      const n = asNumber(value);
      return n !== null && n > 0 && n <= 100;
    }
    case 'number': {
      const n = asNumber(value);
      return n !== null && n > 0;
    }
    default:
      return null;
  }
}

const textRules: Record<Exclude<ValidationKind, 'review_rating' | 'discount_rate' | 'number'>, (t: string) => boolean> = {
  email: isEmail,
  login_email: (t) => len(t) > 7 && isEmail(t),
  login_code: (t) => trimmedLongerThan(t, 5),
  checkout_fullname: (t) => trimmedLongerThan(t, 5),
  checkout_phone: (t) => isPhone(t, 10),
  checkout_address: (t) => trimmedLongerThan(t, 6),
  review_comment: (t) => trimmedLongerThan(t, 7),
  review_fullname: (t) => trimmedLongerThan(t, 5),
  mailer_subject: (t) => trimmedAtLeast(t, 3),
  mailer_title: (t) => trimmedAtLeast(t, 3),
  mailer_description: (t) => trimmedAtLeast(t, 3),
  name: (t) => trimmedAtLeast(t, 3),
  username: (t) => len(t) >= 6,
  phone: (t) => isPhone(t, 10),
  personal_number: (t) => len(t) >= 12,
  password: (t) => len(t) >= 3,
  card_number: (t) => cardBrand(t) !== null && luhn(t),
  expiry: isExpiry,
  security_code: (t) => /^\d{3,4}$/.test(t),
  description: (t) => trimmedAtLeast(t, 20),
  price: isPrice,
  time: (t) => t.trim() !== '',
  // Optional free text (an order's note): anything up to its cap.
  message: () => true,
  address_line: (t) => trimmedAtLeast(t, 2),
  town: (t) => trimmedAtLeast(t, 2),
  postcode: (t) => compactPostcode(t.trim()) !== null,
};

/** The longest each free-text kind may be, in characters after trimming (docs/validation.md). */
export const maxLength: Partial<Record<ValidationKind, number>> = {
  email: 254,
  login_email: 254,
  checkout_fullname: 100,
  review_fullname: 100,
  checkout_phone: 30,
  checkout_address: 300,
  message: 1000,
  review_comment: 2000,
  mailer_subject: 200,
  mailer_title: 200,
  mailer_description: 5000,
  address_line: 100,
  town: 60,
  postcode: 12,
};

/** Whether `value` passes rule `kind`. Unknown kinds fail; non-strings fail every text rule. */
export function check(kind: string, value: unknown): boolean {
  const numeric = checkNumberKind(kind, value);
  if (numeric !== null) return numeric;
  if (!Object.hasOwn(textRules, kind) || typeof value !== 'string') return false;
  const max = maxLength[kind as ValidationKind];
  if (max !== undefined && len(value.trim()) > max) return false;
  return textRules[kind as keyof typeof textRules](value);
}

export { isLoggedInEmail } from './loggedIn';
