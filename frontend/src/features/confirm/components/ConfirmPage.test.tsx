import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';

const KINDS = [
  ['subscription', 'Confirm your subscription', 'Yes, subscribe me', '/api/subscription/confirm/'],
  ['alert', 'Confirm your back-in-stock alert', 'Yes, tell me when it is back', '/api/product/notify/confirm/'],
  ['review', 'Confirm your review', 'Confirm my review', '/api/reviews/confirm/'],
] as const;

describe('the confirmation page of an e-mail link', () => {
  it.each(KINDS)('confirms a %s only when its button is pressed, with the token in a POST', async (kind, title, button, path) => {
    const api = shopApi({ [`POST ${path}`]: json({ message: 'Done: confirmed.' }) });
    const { user } = renderApp(`/confirm/${kind}?token=abc.123.def`, { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    // Opening the page (as a mail scanner fetching the link would) sends nothing.
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
    await user.click(screen.getByRole('button', { name: button }));
    expect(await screen.findByRole('status')).toHaveTextContent('Done: confirmed.');
    const posts = api.calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.url.pathname, call.body])).toEqual([[path, { token: 'abc.123.def' }]]);
  });

  it("shows the server's refusal and lets the shopper try again", async () => {
    const api = shopApi({ 'POST /api/reviews/confirm/': json({ message: 'This confirmation link is not valid or has expired' }, 400) });
    const { user } = renderApp('/confirm/review?token=old', { deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'Confirm my review' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This confirmation link is not valid or has expired');
    expect(screen.getByRole('button', { name: 'Confirm my review' })).toBeInTheDocument();
  });

  it('says a link without its code cannot confirm, and an unknown kind is not a page', async () => {
    const api = shopApi();
    const { unmount } = renderApp('/confirm/alert', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is missing its code');
    expect(screen.queryByRole('button', { name: 'Yes, tell me when it is back' })).not.toBeInTheDocument();
    unmount();
    renderApp('/confirm/anything?token=x', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});
