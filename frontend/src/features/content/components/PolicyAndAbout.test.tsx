import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { returnsPolicy } from '../../../testing/fixtures';

const POLICY = 'GET /api/_uk_home/palestine/show/details/website/pol-returns';

describe('PolicyPage', () => {
  it('reads the id from the last path segment and shows the policy', async () => {
    const api = shopApi();
    renderApp('/drinks/policies/pol-returns', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Returns policy' })).toBeInTheDocument();
    expect(screen.getByText('Unopened cases can be returned within 30 days.')).toBeInTheDocument();
    expect(screen.getByText('We refund the full price.')).toBeInTheDocument();
    expect(document.title).toBe('Returns policy | Palestine Drinks');
    expect(api.calls.filter((c) => c.url.pathname.endsWith('/website/pol-returns'))).toHaveLength(1);
  });

  it('shows a kept version (an order\'s terms) with its date and a link to the current words', async () => {
    const api = shopApi({
      'GET /api/policy/versions/terms/2': {
        _id: 'terms',
        version: 2,
        name: 'Terms of sale',
        des: 'Old words.\n## Who we are\nSee [your profile](/account/profile).',
        savedAt: '2026-10-01T09:00:00Z',
        source: 'admin',
      },
    });
    renderApp('/drinks/policies/terms?version=2', { deps: { fetch: api.fetch } });
    const kept = await screen.findByTestId('policy-version');
    expect(kept).toHaveTextContent('Version 2, in force from 01/10/2026');
    expect(screen.getByText('Old words.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'your profile' })).toHaveAttribute('href', '/account/profile');
    expect(screen.getByRole('link', { name: 'Read the current version' })).toHaveAttribute('href', '/drinks/policies/terms');
    expect(api.calls.some((c) => c.url.pathname.includes('/website/terms'))).toBe(false);
  });

  it("on error shows the message and 'Try again' refetches", async () => {
    let fail = true;
    const api = shopApi({ [POLICY]: () => (fail ? json({ message: 'Policy not found' }, 404) : json(returnsPolicy)) });
    const { user } = renderApp('/drinks/policies/pol-returns', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Policy not found');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Returns policy' })).toBeInTheDocument();
  });
});

describe('AboutPage', () => {
  it('shows the about and who-we-are texts', async () => {
    renderApp('/about/drinks-about-us', { deps: { fetch: shopApi().fetch } });
    expect(await screen.findByRole('heading', { name: 'How it started' })).toBeInTheDocument();
    expect(screen.getByText('It began with a family recipe.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Who we are' })).toBeInTheDocument();
    expect(screen.getByText('Three friends from Leeds.')).toBeInTheDocument();
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toBe('It began with a family recipe.');
  });

  it('fetches the about info once, even across pages', async () => {
    const api = shopApi();
    const { user } = renderApp('/about/drinks-about-us', { deps: { fetch: api.fetch } });
    await screen.findByRole('heading', { name: 'How it started' });
    await user.click(screen.getAllByRole('link', { name: 'Contact us' })[0]!);
    await screen.findByRole('heading', { level: 1, name: 'Contact us' });
    const about = api.calls.filter((c) => c.url.pathname === '/api/home_uk/palestine/about/show_result/');
    const info = api.calls.filter((c) => c.url.pathname === '/api/connect/uk/palestine/connect/');
    expect(about).toHaveLength(1);
    expect(info).toHaveLength(1);
  });
});
