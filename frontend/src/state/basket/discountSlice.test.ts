import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { initialAuthState } from '../session/authSlice';
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
    // The spec: payload passed through (the back end trims).
    expect(fake.calls[0]?.body).toEqual({ code: '  SUMMER ' });
    expect(fake.calls[0]?.headers.has('Authorization')).toBe(false);
    expect(selectAppliedDiscount(store.getState())).toEqual({ code: 'SUMMER', discount: 15 });
    expect(selectDiscountError(store.getState())).toBeNull();
  });

  it('sends no bearer token even when the shopper is signed in (a visitor call)', async () => {
    const fake = fakeFetch({
      'POST /api/code/customer/': { status: true, data: { code: 'SUMMER', discount: 15 }, message: 'ok' },
    });
    const store = makeStore(
      { auth: { ...initialAuthState, token: 'jwt-123', userInfo: { email: 'shopper@example.com', role: 'customer' } } },
      { fetch: fake.fetch },
    );
    await store.dispatch(lookUpDiscountCode('summer'));
    expect(fake.calls[0]?.headers.has('Authorization')).toBe(false);
    expect(fake.calls[0]?.body).toEqual({ code: 'summer' });
    expect(selectAppliedDiscount(store.getState())).toEqual({ code: 'SUMMER', discount: 15 });
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
