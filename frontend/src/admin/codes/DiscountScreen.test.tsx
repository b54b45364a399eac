import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';

/** Lazy screens load their chunks on first use; a busy machine can take longer than the default 1 s. */
const FIRST_LOAD = { timeout: 5000 };

const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

const code = (overrides = {}) => ({
  _id: 'SUMMER',
  code: 'SUMMER',
  discount: 10,
  emailCount: 3,
  open: true,
  maxUses: null,
  oncePerEmail: false,
  expiresOn: null,
  name: '',
  des: '',
  image: [],
  link: '',
  Discountprice: 0,
  ...overrides,
});

describe('admin discount codes screen', () => {
  function codesApi() {
    let list = [code()];
    const fake = fakeFetch({
      'GET /api/code/': () => json(list),
      'POST /api/code/create/': ({ body }) => {
        const b = body as { code: string; discount: number };
        list = [code({ _id: b.code, code: b.code, discount: b.discount, emailCount: 0 }), ...list];
        return json(list[0], 201);
      },
      'PUT /api/code/update/SUMMER': ({ body }) => {
        list = [code({ discount: (body as { discount: number }).discount })];
        return json(list[0]);
      },
      'DELETE /api/code/delete/SUMMER': () => {
        list = [];
        return json({ message: 'deleted' });
      },
    });
    return fake;
  }

  it('creates: the button is enabled only when the rate is filled, then success and Return reloads the list', async () => {
    const api = codesApi();
    const { user } = renderApp('/new/uk/discount', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('discount-code', undefined, FIRST_LOAD)).toHaveTextContent('SUMMER');
    await user.click(screen.getByRole('button', { name: 'New code' }));
    await user.type(screen.getByLabelText('Code'), 'WINTER');
    const create = screen.getByRole('button', { name: 'Create' });
    expect(create).toBeDisabled();
    await user.type(screen.getByLabelText('Rate (% off)'), 'abc');
    expect(create).toBeEnabled();
    await user.click(create);
    expect(screen.getByText('The rate is a whole number from 1 to 100')).toBeInTheDocument();
    // What the back end refuses is refused here first: not whole, below 1, above 100.
    for (const rate of ['2.5', '0', '101', '-5']) {
      await user.clear(screen.getByLabelText('Rate (% off)'));
      await user.type(screen.getByLabelText('Rate (% off)'), rate);
      await user.click(create);
      expect(screen.getByText('The rate is a whole number from 1 to 100')).toBeInTheDocument();
    }
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.clear(screen.getByLabelText('Rate (% off)'));
    await user.type(screen.getByLabelText('Rate (% off)'), '25');
    await user.click(create);
    const done = await screen.findByTestId('code-saved');
    expect(done).toHaveTextContent('The operation was completed successfully. WINTER is created: 25% off, open, used 0 times. Return.');
    expect(done).toHaveAttribute('role', 'status');
    await waitFor(() => expect(done).toHaveFocus());
    // The list under it is already the new one.
    await waitFor(() => expect(screen.getAllByTestId('discount-code')).toHaveLength(2));
    expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ code: 'WINTER', discount: 25 });
    await user.click(within(done).getByRole('button', { name: 'Return.' }));
    await waitFor(() => expect(screen.getAllByTestId('discount-code')).toHaveLength(2));
  });

  it('updates without sending the code text, and deletes after "do you wnat delete"', async () => {
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValue(true);
    vi.stubGlobal('confirm', confirm);
    const api = codesApi();
    const { user } = renderApp('/new/uk/discount', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'Update SUMMER' }, FIRST_LOAD));
    expect(screen.queryByLabelText('Code')).not.toBeInTheDocument();
    const rate = screen.getByLabelText('Rate (% off)');
    expect(rate).toHaveValue('10');
    await user.clear(rate);
    expect(screen.getByRole('button', { name: 'Update' })).toBeDisabled();
    await user.type(rate, '30');
    const listFetches = () => api.calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/code/').length;
    const beforeUpdate = listFetches();
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByRole('button', { name: 'Return.' });
    // The list refetches at once, before Return.
    await waitFor(() => expect(listFetches()).toBe(beforeUpdate + 1));
    await user.click(await screen.findByRole('button', { name: 'Return.' }));
    expect(await screen.findByText('30%')).toBeInTheDocument();
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(put?.body).not.toHaveProperty('code');
    expect(put?.body).toMatchObject({ discount: 30 });

    await waitFor(() => expect(screen.queryByText('Loading discount codes')).not.toBeInTheDocument());
    const beforeDelete = listFetches();
    await user.click(screen.getByRole('button', { name: 'Delete the discount code SUMMER' }));
    expect(confirm).toHaveBeenCalledWith(
      'do you wnat delete\nDelete the discount code SUMMER (30% off, used 3 times)? It stays in the bin for 30 days, from where you can restore it.',
    );
    expect(await screen.findByTestId('code-saved')).toHaveTextContent('SUMMER is deleted: it stays in the bin for 30 days');
    await screen.findByRole('button', { name: 'Return.' });
    await waitFor(() => expect(listFetches()).toBe(beforeDelete + 1));
    await user.click(await screen.findByRole('button', { name: 'Return.' }));
    expect(await screen.findByText('No discount codes yet.')).toBeInTheDocument();
  });

  it("sends the spec's image field: names typed, or one picture uploaded with POST /api/uploading/", async () => {
    const api = codesApi();
    const uploads = fakeFetch({ 'POST /api/uploading/': json('promo-1.png', 201) });
    const both: typeof globalThis.fetch = (input, init) =>
      String(input instanceof Request ? input.url : input).includes('/api/uploading/') ? uploads.fetch(input, init) : api.fetch(input, init);
    const { user } = renderApp('/new/uk/discount', { preloadedState: admin, deps: { fetch: both } });
    await user.click(await screen.findByRole('button', { name: 'Update SUMMER' }, FIRST_LOAD));
    await user.type(screen.getByLabelText('Image'), 'banner.png');
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'promo.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Upload a picture for the promotion'), png);
    await waitFor(() => expect(screen.getByLabelText('Image')).toHaveValue('banner.png, promo-1.png'));
    const sent = uploads.calls[0]?.body as FormData;
    expect(sent.getAll('image').map((f) => (f as File).name)).toEqual(['promo.png']);
    await user.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByRole('button', { name: 'Return.' });
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ image: ['banner.png', 'promo-1.png'] });
  });

  it("labels a refused picture upload with the spec's 'error'", async () => {
    const api = shopApi({
      'GET /api/code/': [code()],
      'POST /api/uploading/': json({ message: 'image: fake.png is not a PNG, JPEG, WebP or GIF image' }, 415),
    });
    const { user } = renderApp('/new/uk/discount', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'Update SUMMER' }, FIRST_LOAD));
    const png = new File([new Uint8Array([1, 2, 3])], 'fake.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Upload a picture for the promotion'), png);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('error: image: fake.png is not a PNG, JPEG, WebP or GIF image');
    expect(within(alert).getByText('error')).toBeInTheDocument();
  });
});
