import { describe, expect, it } from 'vitest';
import { formatDate } from './dates';
import { countOf, formatMoney, toPence, truncate } from './format';
import { metaDescription } from './meta';
import { discountedPrice, lineTotal, unitPrice } from './price';
import { nextPageOf } from './paging';

describe('formatMoney', () => {
  it('shows pounds the en-GB way', () => {
    expect(formatMoney(4.99)).toBe('£4.99');
    expect(formatMoney(1234.5)).toBe('£1,234.50');
    expect(formatMoney(0)).toBe('£0.00');
  });
});

describe('formatDate', () => {
  it('shows day/month/year', () => {
    expect(formatDate('2026-11-22T10:00:00Z')).toBe('22/11/2026');
  });

  it('gives back text it cannot read as a date', () => {
    expect(formatDate('last summer')).toBe('last summer');
  });
});

describe('truncate', () => {
  it('leaves 30 characters alone', () => {
    const thirty = 'x'.repeat(30);
    expect(truncate(thirty)).toBe(thirty);
  });

  it('cuts above 30 characters and adds an ellipsis', () => {
    expect(truncate('Sparkling Pomegranate and Rose Lemonade')).toBe('Sparkling Pomegranate and Rose…');
  });
});

describe('metaDescription', () => {
  it('cuts at 165 characters and collapses whitespace', () => {
    const long = `A  drink\n${'y'.repeat(300)}`;
    const meta = metaDescription(long);
    expect(meta).toHaveLength(165);
    expect(meta.startsWith('A drink y')).toBe(true);
  });
});

describe('prices', () => {
  it('rounds pounds to pence half-up', () => {
    expect(toPence(4.995)).toBe(500);
    expect(toPence(1.005)).toBe(101);
    expect(toPence(4.99)).toBe(499);
  });

  it('takes the discount percentage off, to 2 decimals', () => {
    expect(discountedPrice(12.5, 10)).toBe(11.25);
    expect(discountedPrice(4.99, 10)).toBe(4.49);
    expect(discountedPrice(4.99, 0)).toBeNull();
  });

  it('charges the discounted price only when the product has a discount', () => {
    expect(unitPrice({ price: 12.5, discount: 10, Discountprice: 11.25 })).toBe(11.25);
    expect(unitPrice({ price: 12.5, discount: 10 })).toBe(11.25);
    expect(unitPrice({ price: 12.5, discount: 0, Discountprice: 11.25 })).toBe(12.5);
  });

  it('totals price × qty without float drift', () => {
    expect(lineTotal([{ price: 0.1, qty: 3 }, { price: 0.2, qty: 1 }])).toBe(0.5);
    expect(lineTotal([{ price: 4.99, qty: 3 }, { price: 11.25, qty: 2 }])).toBe(37.47);
    expect(lineTotal([])).toBe(0);
  });
});

describe('nextPageOf (the paging rule)', () => {
  it('has no next page when there is one page or none', () => {
    expect(nextPageOf(1, { next: { page: 2 } })).toBeNull();
    expect(nextPageOf(0, null)).toBeNull();
  });

  it('takes result.next.page otherwise', () => {
    expect(nextPageOf(3, { next: { page: 2 } })).toBe(2);
  });

  it('has none when next is missing or above pages', () => {
    expect(nextPageOf(3, {})).toBeNull();
    expect(nextPageOf(3, { next: { page: 4 } })).toBeNull();
  });

  it('counts with the singular for one', () => {
    expect([countOf(0, 'item'), countOf(1, 'item'), countOf(2, 'item'), countOf(1, 'order')]).toEqual(['0 items', '1 item', '2 items', '1 order']);
  });
});
