import { describe, expect, it } from 'vitest';
import { isPaymentActionRequired, newIdempotencyKey } from './payment';

describe('the payment seam', () => {
  it('makes a UUID for the Idempotency-Key', () => {
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
  });

  it("reads the server's 3-D Secure answer and nothing else as one", () => {
    expect(isPaymentActionRequired({ _id: 'o-1', clientSecret: 'pi_1_secret_x', status: 'requires_action' })).toBe(true);
    expect(isPaymentActionRequired('o-1')).toBe(false);
    expect(isPaymentActionRequired(null)).toBe(false);
    expect(isPaymentActionRequired({ _id: 'o-1', status: 'requires_action' })).toBe(false);
    expect(isPaymentActionRequired({ _id: 'o-1', clientSecret: 'x', status: 'succeeded' })).toBe(false);
  });
});
