import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';

describe('SearchPage', () => {
  it('searches for the query string and lists the matches', async () => {
    const api = shopApi();
    renderApp('/drinks/uk?search=mango', { deps: { fetch: api.fetch } });
    const results = await screen.findByTestId('search-results');
    expect(within(results).getByRole('link', { name: 'Mango Fizz' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Results for “mango”');
    expect(api.calls.find((c) => c.url.pathname.startsWith('/api/home/search'))?.url.searchParams.get('search')).toBe('mango');
  });

  it('says when nothing matches', async () => {
    const api = shopApi({ 'GET /api/home/search/uk/palestinedrinks': { comment: { product: [], pages: 1 } } });
    renderApp('/drinks/uk?search=zzz', { deps: { fetch: api.fetch } });
    expect(await screen.findByText('No drinks match “zzz”')).toBeInTheDocument();
  });

  it('a new search from the form goes to the search link', async () => {
    const { user } = renderApp('/drinks/uk?search=', { deps: { fetch: shopApi().fetch } });
    await user.type(await screen.findByRole('searchbox', { name: 'Search drinks' }), 'cola{Enter}');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Results for “cola”');
  });
});
