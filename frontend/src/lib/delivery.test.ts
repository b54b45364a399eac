import { describe, expect, it } from 'vitest';
import { deliveryLine, selectHeldDeliveryTerms, shortMoney } from './delivery';

describe('the delivery terms in words', () => {
  it('names the charge and the free-delivery threshold as every invitation to purchase does', () => {
    expect(deliveryLine({ fee: 4.99, freeFrom: 40 })).toBe('+ £4.99 delivery, free from £40');
    expect(deliveryLine({ fee: 3.5, freeFrom: 39.5 })).toBe('+ £3.50 delivery, free from £39.50');
    expect(deliveryLine({ fee: 0, freeFrom: 0 })).toBe('Free UK delivery');
    expect(shortMoney(40)).toBe('£40');
  });

  it('reads the held terms without the slice, null until they arrive', () => {
    expect(selectHeldDeliveryTerms({})).toBeNull();
    expect(selectHeldDeliveryTerms({ delivery: { terms: { fee: 4.99, freeFrom: 40 } } })).toEqual({ fee: 4.99, freeFrom: 40 });
  });
});
