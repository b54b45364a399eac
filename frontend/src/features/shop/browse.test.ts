import { describe, expect, it } from 'vitest';
import { choiceFromParams, choiceQuery, choiceToSearch, DEFAULT_CHOICE, sameChoice } from './browse';

const read = (search: string) => choiceFromParams(new URLSearchParams(search));

describe('the shop choice in the address', () => {
  it('reads every part and writes it back in one order, defaults left out', () => {
    const choice = read('?maxPrice=9.99&inStock=true&sort=price-desc&category=c-soda&minPrice=2');
    expect(choice).toEqual({ category: 'c-soda', sort: 'price-desc', inStock: true, minPrice: '2', maxPrice: '9.99' });
    expect(choiceToSearch(choice)).toBe('?category=c-soda&sort=price-desc&inStock=true&minPrice=2&maxPrice=9.99');
    expect(choiceToSearch(DEFAULT_CHOICE)).toBe('');
    expect(choiceToSearch(read('?sort=featured&inStock=false'))).toBe('');
  });

  it('falls back to the defaults for values the shop does not offer, and swaps a reversed range', () => {
    expect(read('?sort=cheapest&inStock=yes&minPrice=abc&maxPrice=1.999')).toEqual(DEFAULT_CHOICE);
    expect(read('?minPrice=10&maxPrice=5')).toMatchObject({ minPrice: '5', maxPrice: '10' });
  });

  it('compares choices by what they hold and asks the server only for what differs from the defaults', () => {
    expect(sameChoice(read('?sort=rating&inStock=true'), read('?inStock=true&sort=rating'))).toBe(true);
    expect(sameChoice(read('?sort=rating'), DEFAULT_CHOICE)).toBe(false);
    expect(choiceQuery(DEFAULT_CHOICE)).toEqual({ category: undefined, sort: undefined, inStock: undefined, minPrice: undefined, maxPrice: undefined });
    expect(choiceQuery(read('?sort=newest&inStock=true&maxPrice=4'))).toMatchObject({ sort: 'newest', inStock: true, maxPrice: '4' });
  });
});
