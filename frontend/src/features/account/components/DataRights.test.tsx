import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../testing/fakeFetch';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { initialAuthState } from '../../../state/session/authSlice';

const me = { _id: 'shopper@example.com', email: 'shopper@example.com', role: 'customer', fullname: 'Layla H', phone: '', address: '', createdAt: '2026-11-22T05:00:00Z' };
const signedIn = { auth: { ...initialAuthState, token: 'jwt', userInfo: me } };

afterEach(() => vi.restoreAllMocks());

describe('your data', () => {
  it('downloads the export as my-data.json', async () => {
    const made = vi.fn((blob: Blob) => (void blob, 'blob:export'));
    Object.assign(URL, { createObjectURL: made, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const api = shopApi({ 'GET /api/user/profile/': me, 'GET /api/user/export/': { email: me.email, orders: [] } });
    const { user } = renderApp('/account/profile', { deps: { fetch: api.fetch }, preloadedState: signedIn });
    await user.click(await screen.findByRole('button', { name: 'Download my data' }, { timeout: 5000 }));
    expect(await screen.findByTestId('data-rights-outcome')).toHaveTextContent('my-data.json');
    expect(click).toHaveBeenCalledTimes(1);
    expect(await made.mock.calls[0]?.[0].text()).toContain('"email": "shopper@example.com"');
  });

  it('deletes the account with the e-mailed code, then forgets the session and says the account is gone', async () => {
    const api = shopApi({
      'GET /api/user/profile/': me,
      'POST /api/user/erase/request/': { message: 'We have e-mailed you a code: enter it to delete your account.' },
      'POST /api/user/erase/confirm/': ({ body }) =>
        (body as { code: string }).code === '123456'
          ? json({ message: 'Your account is deleted.', erased: { orders: 1, reviews: 0, subscriptions: 1, deleted: 3 } })
          : json({ message: 'That code is wrong: 4 tries left' }, 400),
    });
    const { user, store } = renderApp('/account/profile', { deps: { fetch: api.fetch }, preloadedState: signedIn });
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }, { timeout: 5000 }));
    const code = await screen.findByLabelText('The code from the e-mail');
    // The button that had the focus is gone: the code's field has it, and the sent code is announced.
    await waitFor(() => expect(code).toHaveFocus());
    // The profile page has other live regions (the passkeys'): this one is the data section's.
    const yourData = screen.getByRole('region', { name: 'Your data' });
    expect(within(yourData).getByRole('status')).toHaveTextContent('We have e-mailed you a code');
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is wrong: 4 tries left');
    expect(store.getState().auth.token).toBe('jwt');
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(store.getState().auth.token).toBeNull());
    // A page of its own says what happened, and its heading has the focus.
    const heading = await screen.findByRole('heading', { level: 1, name: 'Your account is deleted' }, { timeout: 5000 });
    expect(screen.getByTestId('account-deleted')).toHaveTextContent('Your account is deleted.');
    expect(screen.getByTestId('account-deleted')).toHaveTextContent('you are logged out');
    await waitFor(() => expect(heading).toHaveFocus());
  });
});
