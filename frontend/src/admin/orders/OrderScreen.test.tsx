import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { makeOrder, orderPage, orders } from '../../testing/orderFixtures';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';

/** Lazy screens load their chunks on first use; a busy machine can take longer than the default 1 s. */
const FIRST_LOAD = { timeout: 5000 };

const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

describe('admin orders screen', () => {
  it('loads every page, filters in the browser, updates a status in place with an announced, focused notice, and shows a refusal', async () => {
    let status = 'paid';
    const others = orders(25).map((o) => ({ ...o, email: `customer${o._id}@example.com` }));
    const pages = () => [[...others.slice(0, 20)], [...others.slice(20), makeOrder({ status: status as 'paid' })]];
    const api = shopApi({
      'GET /api/order': ({ url }) => {
        const n = Number(url.searchParams.get('pageNumber'));
        return json(orderPage(pages()[n - 1] ?? [], n, 2));
      },
      'PUT /api/order/update/o-1234abcd-0000': ({ body }) => {
        const next = (body as { status: string }).status;
        if (next === 'pending') return json({ message: 'An order cannot go from paid back to pending' }, 422);
        status = next;
        return json(makeOrder({ status: status as 'shipped' }));
      },
    });
    const { user } = renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findAllByTestId('admin-order', undefined, FIRST_LOAD)).toHaveLength(20);
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 26 orders'));
    expect(api.calls.filter((c) => c.url.pathname === '/api/order').map((c) => c.url.searchParams.get('pageNumber'))).toEqual(['1', '2']);

    await user.type(screen.getByLabelText('Search by name, e-mail or order id'), 'Layla');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getAllByTestId('admin-order')).toHaveLength(1));
    const row = screen.getByTestId('admin-order');
    await user.selectOptions(within(row).getByRole('combobox'), 'shipped');
    await user.click(within(row).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getByTestId('admin-order-status')).toHaveTextContent('shipped'));
    // Said, with the focus on it; the row changed in place: no list fetched again, the filter kept.
    const notice = screen.getByTestId('write-notice');
    expect(notice).toHaveTextContent('Order PD-10001 is now shipped.');
    expect(notice).toHaveAttribute('role', 'status');
    await waitFor(() => expect(notice).toHaveFocus());
    expect(api.calls.filter((c) => c.url.pathname === '/api/order')).toHaveLength(2);
    expect(screen.getAllByTestId('admin-order')).toHaveLength(1);

    await user.selectOptions(within(screen.getByTestId('admin-order')).getByRole('combobox'), 'pending');
    await user.click(within(screen.getByTestId('admin-order')).getByRole('button', { name: 'Update' }));
    expect(await screen.findByTestId('order-action-error')).toHaveTextContent('An order cannot go from paid back to pending');

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findAllByTestId('admin-order')).toHaveLength(20);
    expect(screen.getByLabelText('Search by name, e-mail or order id')).toHaveValue('');
  });

  it("opens the admin's order view from a row: details, history, totals and the status move", async () => {
    let order = makeOrder({ status: 'paid' });
    const api = shopApi({
      'GET /api/order': orderPage([order], 1, 1),
      'GET /api/order/Orderdetails/o-1234abcd-0000': () => json(order),
      'PUT /api/order/update/o-1234abcd-0000': ({ body }) => {
        order = makeOrder({ ...(body as object), status: 'shipped', trackingUrl: 'https://track.example/AB1', history: [...order.history, { status: 'shipped', at: '2026-11-23T09:00:00Z' }] });
        return json(order);
      },
    });
    const { user } = renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('link', { name: 'PD-10001' }, FIRST_LOAD));
    expect(await screen.findByRole('heading', { name: 'Order PD-10001' }, FIRST_LOAD)).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Order PD-10001 · Orders · Admin · Palestine Drinks'));
    expect(screen.getByTestId('admin-order-facts')).toHaveTextContent('layla@example.com');
    expect(within(screen.getByRole('navigation', { name: 'Admin' })).getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('admin-order-facts')).toHaveTextContent('visa ending 4242');
    expect(screen.getByTestId('admin-order-totals')).toHaveTextContent('VAT included (20%)£4.02');
    expect(within(screen.getByTestId('admin-order-history')).getAllByRole('listitem')).toHaveLength(2);

    await user.selectOptions(screen.getByLabelText(/^New status of order PD-10001/), 'shipped');
    await user.selectOptions(screen.getByLabelText('Carrier of order PD-10001'), 'royal-mail');
    await user.type(screen.getByLabelText('Tracking number of order PD-10001'), 'AB1');
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.getByTestId('admin-order-view-status')).toHaveTextContent('shipped'));
    expect(screen.getByTestId('admin-order-tracking')).toHaveTextContent('Royal Mail · AB1');
    expect(within(screen.getByTestId('admin-order-history')).getAllByRole('listitem')).toHaveLength(3);
  });

  it('marks an order of an age-restricted drink for an age check on delivery, in the list and on its page', async () => {
    const checked = makeOrder({ _id: 'o-age', number: 'PD-10002', ageCheck: true });
    const plain = makeOrder({ _id: 'o-plain', number: 'PD-10003' });
    const api = shopApi({
      'GET /api/order': orderPage([checked, plain], 1, 1),
      'GET /api/order/Orderdetails/o-age': checked,
    });
    const { user } = renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    const marks = await screen.findAllByTestId('admin-order-age-check', undefined, FIRST_LOAD);
    expect(marks).toHaveLength(1);
    expect(marks[0]).toHaveTextContent('Age check on delivery');
    await user.click(screen.getByRole('link', { name: 'PD-10002' }));
    expect(await screen.findByRole('heading', { name: 'Order PD-10002' }, FIRST_LOAD)).toBeInTheDocument();
    expect(screen.getByTestId('admin-order-facts')).toHaveTextContent('Age check on delivery');
  });

  it('ships with a carrier and a tracking number when the admin gives them', async () => {
    const api = shopApi({
      'GET /api/order': orderPage([makeOrder()], 1, 1),
      'PUT /api/order/update/o-1234abcd-0000': ({ body }) => json(makeOrder({ ...(body as object), status: 'shipped' })),
    });
    const { user } = renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    const row = await screen.findByTestId('admin-order', undefined, FIRST_LOAD);
    await user.selectOptions(within(row).getByLabelText(/^New status of order PD-10001/), 'shipped');
    await user.selectOptions(within(row).getByLabelText('Carrier of order PD-10001'), 'dpd');
    await user.type(within(row).getByLabelText('Tracking number of order PD-10001'), ' 1550 1234 5678 ');
    await user.click(within(row).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'shipped', carrier: 'dpd', trackingNumber: '1550 1234 5678' });
  });

  it('shows where the money is, and cancels a paid order only as a confirmed refund', async () => {
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm); // happy-dom has no dialogs
    let paid = makeOrder({ status: 'paid' });
    const list = () =>
      orderPage(
        [
          paid,
          makeOrder({ _id: 'o-pending-1', status: 'pending' }),
          makeOrder({ _id: 'o-expired-1', status: 'expired' }),
        ],
        1,
        1,
      );
    const api = shopApi({
      'GET /api/order': () => json(list()),
      'PUT /api/order/update/o-1234abcd-0000': ({ body }) => {
        paid = makeOrder({ status: 'refunded', refundId: 're_123', refunded: 24.1 });
        expect(body).toEqual({ status: 'cancelled' });
        return json(paid);
      },
    });
    const { user } = renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    const rows = await screen.findAllByTestId('admin-order', undefined, FIRST_LOAD);
    expect(rows.map((row) => within(row).getByTestId('admin-order-payment').getAttribute('data-state'))).toEqual(['paid', 'pending', 'expired']);

    const row = rows[0]!;
    await user.selectOptions(within(row).getByRole('combobox'), 'cancelled');
    const cancel = within(row).getByRole('button', { name: 'Cancel and refund' });
    await user.click(cancel);
    expect(confirm).toHaveBeenLastCalledWith("Cancel this order and refund £24.10 to Layla Haddad's card?");
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.click(cancel);
    await waitFor(() => expect(screen.getAllByTestId('admin-order-payment')[0]).toHaveTextContent('refunded'));
    expect(screen.getAllByTestId('admin-order-status')[0]).toHaveTextContent('refunded');
    // A pending order's cancel refunds nothing, so it stays a plain update.
    await user.selectOptions(within(screen.getAllByTestId('admin-order')[1]!).getByRole('combobox'), 'cancelled');
    expect(within(screen.getAllByTestId('admin-order')[1]!).getByRole('button', { name: 'Update' })).toBeEnabled();
  });

  it('offers Delete only for a finished order never paid, asks first naming it, and removes the row', async () => {
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm); // happy-dom has no dialogs
    const api = shopApi({
      'GET /api/order': orderPage(
        [
          makeOrder({ status: 'delivered' }),
          makeOrder({ _id: 'o-refunded', number: 'PD-10002', status: 'refunded' }),
          makeOrder({ _id: 'o-lapsed', number: 'PD-10003', status: 'expired', wasPaid: false }),
          makeOrder({ _id: 'o-waiting', number: 'PD-10004', status: 'pending', wasPaid: false }),
        ],
        1,
        1,
      ),
      'DELETE /api/order/delete/o-lapsed': { message: 'The order was deleted' },
    });
    const { user } = renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    await screen.findAllByTestId('admin-order', undefined, FIRST_LOAD);
    // Paid once (delivered, refunded): kept for the accounts, so no Delete; a pending order is not finished.
    expect(screen.getAllByRole('button', { name: /^Delete/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['Delete order PD-10003']);
    const remove = screen.getByRole('button', { name: 'Delete order PD-10003' });
    await user.click(remove);
    expect(confirm).toHaveBeenLastCalledWith('Delete order PD-10003 for Layla Haddad? It was never paid. This cannot be undone.');
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(remove);
    await waitFor(() => expect(screen.getAllByTestId('admin-order')).toHaveLength(3));
    expect(screen.getByTestId('write-notice')).toHaveTextContent('Order PD-10003 is deleted.');
  });

  it('archives a finished order off the default list, keeps it in a search, "Show archived" and the CSV, and brings it back', async () => {
    let archivedAt: string | null = null;
    const delivered = () => makeOrder({ status: 'delivered', archivedAt });
    const api = shopApi({
      'GET /api/order': () => json(orderPage([delivered(), makeOrder({ _id: 'o-new', number: 'PD-10002', fullname: 'Omar Saleh' })], 1, 1)),
      'PUT /api/order/archive/o-1234abcd-0000': ({ body }) => {
        archivedAt = (body as { archived: boolean }).archived ? '2026-11-30T10:00:00Z' : null;
        return json(delivered());
      },
    });
    const { user } = renderApp('/new/uk/order', { preloadedState: admin, deps: { fetch: api.fetch } });
    await screen.findAllByTestId('admin-order', undefined, FIRST_LOAD);
    // Only a finished order can be archived.
    expect(screen.getAllByRole('button', { name: /^Archive order/ }).map((b) => b.getAttribute('aria-label'))).toEqual(['Archive order PD-10001']);
    await user.click(screen.getByRole('button', { name: 'Archive order PD-10001' }));
    await waitFor(() => expect(screen.getAllByTestId('admin-order')).toHaveLength(1));
    expect(screen.getByTestId('write-notice')).toHaveTextContent('Order PD-10001 is archived');
    expect(screen.getByTestId('table-count')).toHaveTextContent('1 archived not listed (the CSV has them)');

    // A search finds it.
    await user.type(screen.getByLabelText('Search by name, e-mail or order id'), 'PD-10001');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getAllByTestId('admin-order')).toHaveLength(1));
    expect(screen.getByTestId('admin-order-archived')).toHaveTextContent('archived');
    await user.click(screen.getByRole('button', { name: 'Clear' }));

    await user.click(screen.getByRole('checkbox', { name: 'Show archived orders' }));
    await waitFor(() => expect(screen.getAllByTestId('admin-order')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Unarchive order PD-10001' }));
    await waitFor(() => expect(screen.getByTestId('write-notice')).toHaveTextContent('Order PD-10001 is back on the list.'));
    expect(screen.queryByTestId('admin-order-archived')).not.toBeInTheDocument();
  });
});
