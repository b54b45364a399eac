import { describe, expect, it } from 'vitest';
import { checkoutSummary } from './summary';

const terms = { fee: 4.99, freeFrom: 40 };

describe('the checkout summary', () => {
  it('adds £4.99 delivery below £40', () => {
    expect(checkoutSummary([{ price: 4.99, qty: 2 }], terms)).toEqual({ subtotal: 9.98, discount: 0, shipping: 4.99, total: 14.97 });
  });

  it('takes the code off the subtotal half-up, as the server does (3 × £1.99 at 15% = £5.07)', () => {
    expect(checkoutSummary([{ price: 1.99, qty: 3 }], terms, 15)).toEqual({ subtotal: 5.97, discount: 0.9, shipping: 4.99, total: 10.06 });
  });

  it('delivers free from £40, judged after the code', () => {
    expect(checkoutSummary([{ price: 40, qty: 1 }], terms).shipping).toBe(0);
    expect(checkoutSummary([{ price: 44, qty: 1 }], terms, 10)).toEqual({ subtotal: 44, discount: 4.4, shipping: 4.99, total: 44.59 });
    expect(checkoutSummary([{ price: 45, qty: 1 }], terms, 10)).toEqual({ subtotal: 45, discount: 4.5, shipping: 0, total: 40.5 });
  });

  it('charges the delivery terms it is given, not figures of its own', () => {
    expect(checkoutSummary([{ price: 10, qty: 1 }], { fee: 3.5, freeFrom: 10 }).shipping).toBe(0);
    expect(checkoutSummary([{ price: 9.99, qty: 1 }], { fee: 3.5, freeFrom: 10 })).toEqual({ subtotal: 9.99, discount: 0, shipping: 3.5, total: 13.49 });
  });

  it('charges nothing for an empty basket', () => {
    expect(checkoutSummary([], terms).total).toBe(0);
  });
});
