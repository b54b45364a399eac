import { describe, expect, it } from 'vitest';
import { basketTotals } from './basketTotals';

const terms = { fee: 4.99, freeFrom: 40 };

describe('the basket totals', () => {
  it('adds the delivery charge below the threshold and says how far free delivery is', () => {
    expect(basketTotals([{ price: 9.49, qty: 2 }], terms)).toEqual({
      goods: 18.98,
      codeOff: 0,
      delivery: 4.99,
      total: 23.97,
      toFreeDelivery: 21.02,
      counted: 18.98,
    });
  });

  it('delivers free from the threshold, judged after an applied code, as the server charges', () => {
    expect(basketTotals([{ price: 40, qty: 1 }], terms)).toMatchObject({ delivery: 0, total: 40, toFreeDelivery: 0 });
    expect(basketTotals([{ price: 44, qty: 1 }], terms, 10)).toMatchObject({ codeOff: 4.4, delivery: 4.99, total: 44.59, toFreeDelivery: 0.4 });
  });

  it('uses the terms it is given, not figures of its own', () => {
    expect(basketTotals([{ price: 10, qty: 1 }], { fee: 3.5, freeFrom: 25 })).toMatchObject({ delivery: 3.5, total: 13.5, toFreeDelivery: 15 });
  });

  it('charges nothing for an empty basket', () => {
    expect(basketTotals([], terms)).toMatchObject({ delivery: 0, total: 0, toFreeDelivery: 0 });
  });
});
