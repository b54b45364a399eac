// The build's copy of a page leaves out what changes by the hour: no price, stock line or rating is in it,
// and each keeps its place for the app's live value. Outside the build's render nothing changes.
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Price } from '../components/Price';
import { ProductCard } from '../components/ProductCard';
import { lemon, mango } from '../testing/fixtures';
import { isPrerendering, prerendering } from './prerendering';

const card = (product: typeof mango) =>
  renderToString(
    <MemoryRouter>
      <ProductCard product={{ ...product, avgRating: 4.5, totalComments: 12 }} />
    </MemoryRouter>,
  );

describe('the build copy of a page', () => {
  it('shows no price, only its place', () => {
    const live = renderToString(<Price product={mango} />);
    const copy = prerendering(() => renderToString(<Price product={mango} />)).result;
    expect(live).toContain(mango.price.toFixed(2));
    expect(copy).not.toMatch(/£\d/);
    expect(copy).toContain('data-pending="price"');
  });

  it('shows no rating and no sold-out badge on a card', () => {
    expect(card(lemon)).toContain('Sold out');
    expect(card(mango)).toContain('4.5 out of 5, 12 reviews');
    const copy = prerendering(() => card(lemon)).result;
    expect(copy).not.toContain('Sold out');
    expect(copy).not.toContain('12 reviews');
    expect(copy).toContain('data-pending="rating"');
    expect(copy).toContain(lemon.name);
  });

  it('is only while the build renders, even when that render fails', () => {
    expect(isPrerendering()).toBe(false);
    expect(() =>
      prerendering(() => {
        expect(isPrerendering()).toBe(true);
        throw new Error('render failed');
      }),
    ).toThrow('render failed');
    expect(isPrerendering()).toBe(false);
  });
});
