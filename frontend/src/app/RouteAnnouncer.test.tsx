// After a route change, focus is on the new page's h1 and the title is in the polite live region; the first
// page is left alone.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../testing/renderWithProviders';
import { shopApi } from '../testing/shopApi';

describe('RouteAnnouncer', () => {
  it('leaves the first page alone, then focuses the next page’s heading and announces its title', async () => {
    const { user } = renderApp('/shop/drinks/', { deps: { fetch: shopApi().fetch } });
    const shop = await screen.findByRole('heading', { level: 1, name: 'Our drinks' }, { timeout: 5000 });
    const announcer = screen.getByTestId('route-announcer');
    expect(announcer).toHaveAttribute('aria-live', 'polite');
    expect(shop).not.toHaveFocus();
    expect(announcer).toHaveTextContent('');

    await user.click(await screen.findByRole('link', { name: /Mango Fizz/ }));
    const drink = await screen.findByRole('heading', { level: 1, name: 'Mango Fizz' }, { timeout: 5000 });
    await waitFor(() => expect(drink).toHaveFocus());
    expect(drink).toHaveAttribute('tabindex', '-1');
    await waitFor(() => expect(announcer).toHaveTextContent('Mango Fizz | Palestine Drinks'));
  });
});
