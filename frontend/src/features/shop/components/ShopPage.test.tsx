import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { drinks, page } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';

describe('ShopPage', () => {
  it("lists the drinks and 'Load more drinks' appends the next page until there is none", async () => {
    const api = shopApi({
      'GET /api/home/drinks/hom/uk/uk/': ({ url }) =>
        json(url.searchParams.get('pageNumber') === '1' ? page(drinks(12), 1, 2) : page(drinks(2, 13), 2, 2)),
    });
    const { user } = renderApp('/shop/drinks/', { deps: { fetch: api.fetch } });
    const list = await screen.findByTestId('drinks-list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
    expect(document.title).toMatch(/^Shop drinks \|/);
    await user.click(screen.getByRole('button', { name: 'Load more drinks' }));
    expect(await screen.findByRole('link', { name: 'Drink 14' })).toBeInTheDocument();
    expect(within(screen.getByTestId('drinks-list')).getAllByRole('listitem')).toHaveLength(14);
    expect(screen.queryByRole('button', { name: 'Load more drinks' })).not.toBeInTheDocument();
  });

  it('keeps the heading outline whole: no level skipped between the page and the cards', async () => {
    const api = shopApi({ 'GET /api/home/drinks/hom/uk/uk/': page(drinks(3), 1, 1) });
    renderApp('/shop/drinks/', { deps: { fetch: api.fetch } });
    await screen.findByTestId('drinks-list');
    const main = document.querySelector('main') ?? document.body;
    const levels = [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    levels.forEach((level, i) => {
      if (i > 0) expect(level - (levels[i - 1] ?? level)).toBeLessThanOrEqual(1);
    });
    expect(screen.getByRole('list', { name: 'The drinks' })).toBeInTheDocument();
  });

  it('filters by the category in the query string', async () => {
    const api = shopApi();
    renderApp('/shop/drinks/?category=c-soda', { deps: { fetch: api.fetch } });
    await screen.findByTestId('drinks-list');
    const call = api.calls.find((c) => c.url.pathname === '/api/home/drinks/hom/uk/uk/');
    expect(call?.url.searchParams.get('category')).toBe('c-soda');
    expect(screen.getByRole('link', { name: 'Show all drinks' })).toHaveAttribute('href', '/shop/drinks/');
  });

  it("shows an error with 'Try again', and an empty shelf", async () => {
    let answer = json({ message: 'not fund 404' }, 500);
    const api = shopApi({ 'GET /api/home/drinks/hom/uk/uk/': () => answer });
    const { user } = renderApp('/shop/drinks/', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('not fund 404');
    answer = json(page([], 1, 1));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No drinks here yet')).toBeInTheDocument();
  });
});
