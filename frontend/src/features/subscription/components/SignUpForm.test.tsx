import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { renderWithProviders } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { SignUpForm, UNSUBSCRIBE_NOTE } from './SignUpForm';

const THANKS = 'Thank you for subscribing: please confirm with the link we have e-mailed you. You can unsubscribe at any time from the link in every e-mail.';

describe('footer sign-up form', () => {
  it('starts clean, even after an earlier refusal; a refused submit puts focus on what to fix', async () => {
    const api = shopApi({ 'POST /api/subscription/create/': json({ message: 'Try again later' }, 503) });
    const first = renderWithProviders(<SignUpForm />, { deps: { fetch: api.fetch } });
    expect(screen.getByLabelText('Your email')).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Tick at least one list')).not.toBeInTheDocument();
    await first.user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByLabelText('Your email')).toHaveFocus();
    await first.user.type(screen.getByLabelText('Your email'), 'layla@example.com');
    await first.user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('checkbox', { name: 'Our monthly newsletter' })).toHaveFocus();
    await first.user.click(screen.getByRole('checkbox', { name: 'Our monthly newsletter' }));
    await first.user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again later');
    first.unmount();

    // The same store, a new page's footer: no error carried over.
    renderWithProviders(<SignUpForm />, { store: first.store, deps: { fetch: api.fetch } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Your email')).not.toHaveAttribute('aria-invalid');
    expect(first.store.getState().signUp?.status).toBe('idle');
  });

  it('checks the address and a list before sending, then thanks the shopper', async () => {
    const api = shopApi({ 'POST /api/subscription/create/': json({ message: THANKS }, 201) });
    const { user } = renderWithProviders(<SignUpForm />, { deps: { fetch: api.fetch } });
    expect(screen.getByText(UNSUBSCRIBE_NOTE)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Your email'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByLabelText('Your email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Tick at least one list')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(screen.getByLabelText('Your email'));
    await user.type(screen.getByLabelText('Your email'), ' Layla@Example.com ');
    await user.type(screen.getByLabelText('What should we call you? (optional)'), 'Layla');
    await user.click(screen.getByRole('checkbox', { name: 'Special offers and new flavours' }));
    await user.click(screen.getByRole('checkbox', { name: 'Our monthly newsletter' }));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('status')).toHaveTextContent(THANKS);
    expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({
      email: 'layla@example.com',
      fullname: 'Layla',
      lists: ['Newsletter', 'Offers and new drinks'],
    });
  });

  it('shows the server refusal, such as too many sign-ups', async () => {
    const api = shopApi({
      'POST /api/subscription/create/': json({ message: 'This e-mail address was signed up several times already: try again in 60 minutes' }, 429),
    });
    const { user } = renderWithProviders(<SignUpForm />, { deps: { fetch: api.fetch } });
    await user.type(screen.getByLabelText('Your email'), 'layla@example.com');
    await user.click(screen.getByRole('checkbox', { name: 'Our monthly newsletter' }));
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('signed up several times already');
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeInTheDocument();
  });
});
