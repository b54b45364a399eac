import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { homePayload } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';

describe('HomePage', () => {
  it('shows a loading state, then featured drinks and categories', async () => {
    renderApp('/', { deps: { fetch: shopApi().fetch } });
    expect(screen.getByRole('status')).toHaveTextContent('Loading featured drinks');
    const featured = await screen.findByTestId('featured-drinks');
    expect(within(featured).getAllByRole('listitem')).toHaveLength(3);
    expect(within(featured).getByRole('link', { name: 'Classic Cola' })).toHaveAttribute('href', '/drinks/p-cola');
    expect(within(featured).getByText('£11.25')).toBeInTheDocument();
    expect(within(featured).getByText('Sold out')).toBeInTheDocument();
    // Below the fold, drawn as it comes into view.
    expect(await screen.findByRole('link', { name: /Sodas/ })).toHaveAttribute('href', '/shop/drinks/?category=c-soda');
  });

  it('sets the title and the meta description', async () => {
    document.title = 'Contact us | Palestine Drinks'; // as if the shopper came back from another page
    renderApp('/', { deps: { fetch: shopApi().fetch } });
    await screen.findByTestId('featured-drinks');
    // Set by the head chunk that follows the first render.
    await waitFor(() => expect(document.title).toMatch(/Soft drinks delivered across the UK/));
    const meta = document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
    expect(meta.length).toBeGreaterThan(20);
    expect(meta.length).toBeLessThanOrEqual(165);
  });

  it("on error shows the message and 'Try again' refetches", async () => {
    let fail = true;
    const api = shopApi({
      'GET /api/home/home/uk/': () => (fail ? json({ message: 'Try later' }, 500) : json(homePayload)),
    });
    const { user } = renderApp('/', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Try later');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('featured-drinks')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.url.pathname === '/api/home/home/uk/')).toHaveLength(2);
  });

  it('has an empty state when nothing is featured', async () => {
    renderApp('/', { deps: { fetch: shopApi({ 'GET /api/home/home/uk/': { product: [], category: [] } }).fetch } });
    expect(await screen.findByText('New drinks are on the way')).toBeInTheDocument();
  });
});
