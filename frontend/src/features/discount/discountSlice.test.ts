import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, offlineFetch } from '../../testing/fakeFetch';
import { discountCleared, selectAppliedDiscount, selectDiscountError } from './discountSlice';
import { lookUpDiscountCode } from './lookUpDiscountCode';

describe('customer discount code lookup', () => {
  it('stores the code and clears the error when the answer has status true', async () => {
    const fake = fakeFetch({
      'POST /api/code/customer/': { status: true, data: { code: 'SUMMER', discount: 15 }, message: 'ok' },
    });
    const store = makeStore(
      { discount: { applied: null, status: 'failed', error: 'old error' } },
      { fetch: fake.fetch },
    );
    await store.dispatch(lookUpDiscountCode('  SUMMER '));
    expect(fake.calls[0]?.body).toEqual({ code: 'SUMMER' });
    expect(fake.calls[0]?.headers.has('Authorization')).toBe(false);
    expect(selectAppliedDiscount(store.getState())).toEqual({ code: 'SUMMER', discount: 15 });
    expect(selectDiscountError(store.getState())).toBeNull();
  });

  it("stores the server's message as the error when status is false", async () => {
    const fake = fakeFetch({ 'POST /api/code/customer/': { status: false, message: 'This code has expired' } });
    const store = makeStore(undefined, { fetch: fake.fetch });
    await store.dispatch(lookUpDiscountCode('OLD'));
    expect(selectAppliedDiscount(store.getState())).toBeNull();
    expect(selectDiscountError(store.getState())).toBe('This code has expired');
    expect(store.getState().discount.status).toBe('failed');
  });

  it('stores the shared handler message when the call fails', async () => {
    const store = makeStore(undefined, { fetch: offlineFetch });
    await store.dispatch(lookUpDiscountCode('ANY'));
    expect(selectDiscountError(store.getState())).toBe('not fund 404');
  });

  it('clears back to nothing applied', () => {
    const store = makeStore({ discount: { applied: { code: 'A', discount: 5 }, status: 'loaded', error: null } });
    store.dispatch(discountCleared());
    expect(selectAppliedDiscount(store.getState())).toBeNull();
  });
});
