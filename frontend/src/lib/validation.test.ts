// Every case in shared/testdata/validation.json, the file the Rust tests read too: the two sides agree.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cardBrand, check, isLoggedInEmail } from './validation';

interface Case {
  kind: string;
  input: unknown;
  valid: boolean;
}

// The repository's shared case file, shared/testdata/validation.json (three folders up from this file).
const casesFile = resolve(import.meta.dirname, '../../../shared/testdata/validation.json');
const { cases } = JSON.parse(readFileSync(casesFile, 'utf8')) as { cases: Case[] };

describe('validation cases shared with the back end', () => {
  it('reads a case file that covers every kind in docs/validation.md', () => {
    const kinds = new Set(cases.map((c) => c.kind));
    for (const kind of [
      'email', 'login_email', 'login_code', 'checkout_fullname', 'checkout_phone', 'checkout_address',
      'review_rating', 'review_comment', 'review_fullname', 'mailer_subject', 'mailer_title',
      'mailer_description', 'discount_rate', 'username', 'name', 'phone', 'personal_number', 'password',
      'card_number', 'expiry', 'security_code', 'description', 'price', 'time', 'number',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it.each(cases.map((c) => [c.kind, JSON.stringify(c.input), c.valid, c] as const))(
    '%s %s is %s',
    (_kind, _input, _valid, testCase) => {
      expect(check(testCase.kind, testCase.input)).toBe(testCase.valid);
    },
  );
});

describe('validation helpers', () => {
  it('names the card brand whose pattern matches', () => {
    expect(cardBrand('4111 1111 1111 1111')).toBe('visa');
    expect(cardBrand('5555555555554444')).toBe('mastercard');
    expect(cardBrand('378282246310005')).toBe('amex');
    expect(cardBrand('6011111111111117')).toBe('discover');
    expect(cardBrand('1234')).toBeNull();
  });

  it('counts a shopper as logged in when the e-mail is longer than 5 characters', () => {
    expect(isLoggedInEmail('a@b.co')).toBe(true);
    expect(isLoggedInEmail('a@b.c')).toBe(false);
    expect(isLoggedInEmail(null)).toBe(false);
  });
});
