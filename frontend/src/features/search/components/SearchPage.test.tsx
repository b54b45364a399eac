import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { cola, page } from '../../../testing/fixtures';

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

  it('a misspelt search shows the corrected drinks and offers "Did you mean" linking to the correction', async () => {
    const api = shopApi({
      'GET /api/home/search/uk/palestinedrinks': ({ url }) =>
        new Response(
          JSON.stringify(
            url.searchParams.get('search') === 'colla'
              ? { comment: page([cola], 1, 1), didYouMean: 'cola' }
              : { comment: page([cola], 1, 1), didYouMean: null },
          ),
        ),
    });
    const { user } = renderApp('/drinks/uk?search=colla', { deps: { fetch: api.fetch } });
    const hint = await screen.findByText(/Did you mean/);
    expect(hint).toHaveTextContent('Did you mean cola? Showing drinks for “cola”.');
    expect(within(await screen.findByTestId('search-results')).getByRole('link', { name: 'Classic Cola' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Results for “colla”');
    await user.click(within(hint).getByRole('link', { name: 'cola' }));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Results for “cola”');
    await within(await screen.findByTestId('search-results')).findByRole('link', { name: 'Classic Cola' });
    expect(screen.queryByText(/Did you mean/)).not.toBeInTheDocument();
  });
});
