import { describe, expect, it } from 'vitest';
import { CardError, cardErrors, createTestProvider, isExpiryCurrent, newIdempotencyKey } from './payment';

const now = new Date(2026, 10, 22); // November 2026
const provider = createTestProvider(() => now);
const card = (number: string, expiry = '12/28', securityCode = '123') => ({ number, expiry, securityCode });

describe('the test payment provider', () => {
  it('turns a valid Visa into a random test token with the brand and last four digits only', async () => {
    const a = await provider.tokenize(card('4242 4242 4242 4242'));
    const b = await provider.tokenize(card('4242424242424242'));
    expect(a).toEqual({ provider: 'test', token: expect.stringMatching(/^tok_test_[0-9a-f]{24}$/), brand: 'visa', last4: '4242' });
    expect(b.token).not.toBe(a.token);
    expect(JSON.stringify(a)).not.toContain('4242424242424242');
    expect(JSON.stringify(a)).not.toContain('123');
  });

  it('names the brand of Mastercard, Amex and Discover test numbers', async () => {
    expect((await provider.tokenize(card('5555 5555 5555 4444'))).brand).toBe('mastercard');
    expect((await provider.tokenize(card('3782 822463 10005', '12/28', '1234'))).brand).toBe('amex');
    expect((await provider.tokenize(card('6011 1111 1111 1117'))).brand).toBe('discover');
  });

  it('gives the declined token for 4000 0000 0000 0002', async () => {
    expect(await provider.tokenize(card('4000 0000 0000 0002'))).toEqual({
      provider: 'test',
      token: 'tok_test_declined',
      brand: 'visa',
      last4: '0002',
    });
  });

  it.each([
    ['a number failing Luhn', card('4242 4242 4242 4241'), 'number'],
    ['an unknown brand', card('1234 5678 9012 3452'), 'number'],
    ['letters in the number', card('4242 4242 4242 424a'), 'number'],
    ['a month 13', card('4242424242424242', '13/28'), 'expiry'],
    ['an expiry without a slash', card('4242424242424242', '1228'), 'expiry'],
    ['an expiry in the past', card('4242424242424242', '10/26'), 'expiry'],
    ['a 2-digit security code', card('4242424242424242', '12/28', '12'), 'securityCode'],
    ['a 5-digit security code', card('4242424242424242', '12/28', '12345'), 'securityCode'],
  ])('refuses %s, naming the field', async (_what, input, field) => {
    const error = await provider.tokenize(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardError);
    expect((error as CardError).field).toBe(field);
  });
});

describe('card checks', () => {
  it('takes this month as current, MM/YY and MM/YYYY alike', () => {
    expect(isExpiryCurrent('11/26', now)).toBe(true);
    expect(isExpiryCurrent('11/2026', now)).toBe(true);
    expect(isExpiryCurrent('10/2026', now)).toBe(false);
    expect(isExpiryCurrent('01/27', now)).toBe(true);
  });

  it('reports every bad field at once', () => {
    expect(Object.keys(cardErrors(card('', '', ''), now)).sort()).toEqual(['expiry', 'number', 'securityCode']);
    expect(cardErrors(card('4242 4242 4242 4242'), now)).toEqual({});
  });

  it('makes a UUID for the Idempotency-Key', () => {
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
