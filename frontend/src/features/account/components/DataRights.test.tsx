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
    const exported = {
      email: me.email,
      profile: { email: me.email },
      orders: [{ id: 'o1' }, { id: 'o2' }],
      reviews: [{ comment: 'Lovely' }],
      subscriptions: [],
      alerts: [{ drink: 'p1' }],
      loginHistory: [{}],
    };
    const api = shopApi({ 'GET /api/user/profile/': me, 'GET /api/user/export/': exported });
    const { user } = renderApp('/account/profile', { deps: { fetch: api.fetch }, preloadedState: signedIn });
    await user.click(await screen.findByRole('button', { name: 'Download my data' }, { timeout: 5000 }));
    expect(await screen.findByTestId('data-rights-outcome')).toHaveTextContent('my-data.json');
    expect(click).toHaveBeenCalledTimes(1);
    expect(await made.mock.calls[0]?.[0].text()).toContain('"email": "shopper@example.com"');
    // What the download holds, in words.
    const summary = within(screen.getByTestId('data-summary'));
    expect(summary.getByText('your profile')).toBeInTheDocument();
    expect(summary.getByText('2 orders')).toBeInTheDocument();
    expect(summary.getByText('1 review')).toBeInTheDocument();
    expect(summary.getByText('1 back-in-stock alert')).toBeInTheDocument();
    expect(summary.queryByText(/subscription/)).toBeNull();
  });

  it('names the orders on their way that the erasure waits for, and finishes an erasure cut short when asked again', async () => {
    let calls = 0;
    const api = shopApi({
      'GET /api/user/profile/': me,
      'POST /api/user/erase/request/': {
        message: 'We have e-mailed you a code. Order 10001 is still on its way.',
        waitingOrders: [{ _id: 'o-paid', number: 10001, status: 'paid' }],
      },
      'POST /api/user/erase/confirm/': () => {
        calls += 1;
        return calls === 1
          ? json({ message: 'Part of it is erased: send the same request again to finish it.', finished: false, erased: { orders: 0, reviews: 0, subscriptions: 0, deleted: 0 }, waitingOrders: [] })
          : json({ message: 'Your account is deleted.', finished: true, erased: { orders: 1, reviews: 0, subscriptions: 0, deleted: 2 }, waitingOrders: [] });
      },
    });
    const { user, store } = renderApp('/account/profile', { deps: { fetch: api.fetch }, preloadedState: signedIn });
    await user.click(await screen.findByRole('button', { name: 'Delete my account' }, { timeout: 5000 }));
    const waiting = within(await screen.findByTestId('erasure-waiting'));
    expect(waiting.getByRole('link', { name: 'Order 10001' })).toHaveAttribute('href', '/myorder/o-paid');
    await user.type(screen.getByLabelText('The code from the e-mail'), '123456');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    const yourData = screen.getByRole('region', { name: 'Your data' });
    await waitFor(() => expect(within(yourData).getByRole('status')).toHaveTextContent('send the same request again'));
    expect(store.getState().auth.token).toBe('jwt');
    await user.click(screen.getByRole('button', { name: 'Delete my account for good' }));
    await waitFor(() => expect(store.getState().auth.token).toBeNull());
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account is deleted' }, { timeout: 5000 })).toBeInTheDocument();
  });

  it('deletes the account with the e-mailed code, then forgets the session and says the account is gone', async () => {
    const api = shopApi({
      'GET /api/user/profile/': me,
      'POST /api/user/erase/request/': { message: 'We have e-mailed you a code: enter it to delete your account.', waitingOrders: [] },
      'POST /api/user/erase/confirm/': ({ body }) =>
        (body as { code: string }).code === '123456'
          ? json({ message: 'Your account is deleted.', finished: true, erased: { orders: 1, reviews: 0, subscriptions: 1, deleted: 3 }, waitingOrders: [] })
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
