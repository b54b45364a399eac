import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RootState } from '../../app/store';
import { json } from '../../testing/fakeFetch';
import { cola, lemon, mango, sodas } from '../../testing/fixtures';
import { renderApp } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import { emptyProductForm, productBody } from './adminProductsSlice';
import { productFormErrors } from './ProductsScreen';

const FIRST_LOAD = { timeout: 5000 };
const admin: Partial<RootState> = {
  auth: { userInfo: { email: 'admin@example.com', role: 'admin' }, token: 'admin-token', loading: false, error: null, verification: false, pendingEmail: null, codeSentAt: null },
};

afterEach(() => vi.unstubAllGlobals());

describe('product form rules', () => {
  it('asks for a name, a pack label and a price above 0 before sending', () => {
    expect(Object.keys(productFormErrors(emptyProductForm())).sort()).toEqual(['name', 'price', 'qty']);
    const good = { ...emptyProductForm(), name: 'Cherry Pop', qty: '24 x 330ml', price: '18.50' };
    expect(productFormErrors(good)).toEqual({});
    expect(productFormErrors({ ...good, price: '0' })).toHaveProperty('price');
    expect(productFormErrors({ ...good, price: 'abc' })).toHaveProperty('price');
  });

  it('checks the nutrition sums and the caffeine before sending', () => {
    const good = { ...emptyProductForm(), name: 'Cherry Pop', qty: '24 x 330ml', price: '18.50' };
    const nutrition = { ...good.nutrition, energyKj: '180', energyKcal: '42', fat: '0.2', saturates: '0.1', carbohydrate: '10.6', sugars: '10.6' };
    expect(productFormErrors({ ...good, nutrition })).toEqual({});
    expect(Object.keys(productFormErrors({ ...good, nutrition: { ...nutrition, sugars: '11' } }))).toEqual(['sugars']);
    expect(Object.keys(productFormErrors({ ...good, nutrition: { ...nutrition, saturates: '0.3' } }))).toEqual(['saturates']);
    expect(Object.keys(productFormErrors({ ...good, nutrition: { ...nutrition, salt: '-1' } }))).toEqual(['salt']);
    expect(Object.keys(productFormErrors({ ...good, caffeineMgPerLitre: '1.5' }))).toEqual(['caffeineMgPerLitre']);
  });

  it('sends the food information: a blank declaration as null, allergens as chosen', () => {
    const base = { ...emptyProductForm(), name: 'Cherry Pop', qty: '24 x 330ml', price: '18.50' };
    expect(productBody(base)).toMatchObject({ nutrition: null, caffeineMgPerLitre: null, allergens: [] });
    const body = productBody({
      ...base,
      allergens: ['sulphites'],
      caffeineMgPerLitre: '160',
      nutrition: { ...base.nutrition, energyKj: '190', carbohydrate: '11.2', sugars: '11' },
    });
    expect(body).toMatchObject({
      allergens: ['sulphites'],
      caffeineMgPerLitre: 160,
      nutrition: { energyKj: 190, energyKcal: 0, carbohydrate: 11.2, sugars: 11, salt: 0 },
    });
  });

  it('sends the label statements and the promotion days, blank days as null, and refuses a last day before the first', () => {
    const base = { ...emptyProductForm(), name: 'Cherry Pop', qty: '24 x 330ml', price: '18.50' };
    expect(productBody(base)).toMatchObject({ statements: [], promotionStart: null, promotionEnd: null });
    const body = productBody({ ...base, discount: '10', statements: ['with-sweeteners'], promotionStart: '2026-12-01', promotionEnd: '2026-12-24' });
    expect(body).toMatchObject({ statements: ['with-sweeteners'], promotionStart: '2026-12-01', promotionEnd: '2026-12-24' });
    expect(Object.keys(productFormErrors({ ...base, promotionStart: '2026-12-24', promotionEnd: '2026-12-01' }))).toEqual(['promotionEnd']);
  });

  it('sends numbers as numbers and image names as a list', () => {
    const body = productBody({ ...emptyProductForm(), name: ' Cherry Pop ', qty: '24 x 330ml', price: '18.50', TheNumber: '40', image: ['a.png', 'b.png'] });
    expect(body).toMatchObject({ name: 'Cherry Pop', price: 18.5, TheNumber: 40, discount: 0, sort: 0, image: ['a.png', 'b.png'] });
  });
});

describe('admin products screen', () => {
  const catalogue = (overrides: Parameters<typeof shopApi>[0] = {}) =>
    shopApi({ 'GET /api/product/': [mango, cola, lemon], 'GET /api/category/': [sodas], ...overrides });

  it('shows how many addresses wait for a sold-out drink', async () => {
    const api = catalogue({ 'GET /api/product/alerts/': [{ _id: 'p-lemon', waiting: 3 }] });
    renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByTestId('waiting-count', undefined, FIRST_LOAD)).toHaveTextContent('3 waiting');
  });

  it('lists every drink with its price, stock and actions', async () => {
    renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: catalogue().fetch } });
    const rows = await screen.findAllByTestId('admin-product', undefined, FIRST_LOAD);
    expect(rows).toHaveLength(3);
    expect(within(rows[2]!).getByText('Sold out')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: `Edit ${mango.name}` })).toBeInTheDocument();
  });

  it('adds a drink: checks the essentials first, then posts and reloads the list', async () => {
    let created = false;
    const api = catalogue({
      'GET /api/product/': () => json(created ? [mango, cola, lemon, { ...mango, _id: 'p-cherry', name: 'Cherry Pop' }] : [mango, cola, lemon]),
      'POST /api/product/create/': ({ body }) => {
        created = true;
        return json({ ...mango, ...(body as object), _id: 'p-cherry' }, 201);
      },
    });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'New drink' }, FIRST_LOAD));
    // The form in its sections, with Save (here "Add drink") in a bar that stays in view.
    const form = screen.getByRole('form', { name: 'New drink' });
    expect(within(form).getAllByRole('group').map((g) => g.querySelector('legend')?.textContent)).toEqual(
      expect.arrayContaining(['Basics', 'Price and promotion', 'Stock', 'Food information', 'Pictures']),
    );
    expect(within(screen.getByRole('group', { name: 'Price and promotion' })).getByLabelText('Price (£)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add drink' }).parentElement).toHaveClass('stickyActions');
    await user.click(screen.getByRole('button', { name: 'Add drink' }));
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Name')).toHaveFocus();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(screen.getByLabelText('Name'), 'Cherry Pop');
    await user.type(screen.getByLabelText(/Pack label/), '24 x 330ml');
    await user.type(screen.getByLabelText('Price (£)'), '18.50');
    await user.selectOptions(screen.getByLabelText('Category'), 'Sodas');
    await user.click(screen.getByRole('button', { name: 'Add drink' }));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('Cherry Pop is added to the shop.');
    // The form (and its button) is gone: the notice has the focus.
    await waitFor(() => expect(notice).toHaveFocus());
    const post = api.calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({ name: 'Cherry Pop', qty: '24 x 330ml', price: 18.5, category: sodas._id });
    await waitFor(() => expect(screen.getAllByTestId('admin-product')).toHaveLength(4));
  });

  it('sends the pictures a new drink picks, in the order the arrows give them', async () => {
    const api = catalogue({
      'GET /api/uploading/sh/': ['can.png', 'box.png', 'six.png'],
      'POST /api/product/create/': ({ body }) => json({ ...mango, ...(body as object), _id: 'p-cherry' }, 201),
    });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: 'New drink' }, FIRST_LOAD));
    expect(screen.queryByRole('textbox', { name: /Images/ })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'Cherry Pop');
    await user.type(screen.getByLabelText(/Pack label/), '24 x 330ml');
    await user.type(screen.getByLabelText('Price (£)'), '18.50');
    await user.click(await screen.findByRole('checkbox', { name: 'box.png' }));
    await user.click(screen.getByRole('checkbox', { name: 'six.png' }));
    await user.click(screen.getByRole('checkbox', { name: 'can.png' }));
    await user.click(screen.getByRole('button', { name: 'Move can.png up' }));
    await user.click(screen.getByRole('button', { name: 'Move can.png up' }));
    await user.click(screen.getByRole('button', { name: 'Remove six.png' }));
    await user.click(screen.getByRole('button', { name: 'Add drink' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Cherry Pop', image: ['can.png', 'box.png'] }));
  });

  it('marks the field the server refuses and keeps the form', async () => {
    const api = catalogue({ 'PUT /api/product/update/p-mango': json({ message: 'discount must be from 0 to 100' }, 422) });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: `Edit ${mango.name}` }, FIRST_LOAD));
    const discount = screen.getByLabelText('Discount (% off)');
    await user.clear(discount);
    await user.type(discount, '150');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Discount (% off)')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('discount must be from 0 to 100')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue(mango.name);
  });

  it("shows a drink's price history with the reason a was price shows or not, and marks the statements the server asks for", async () => {
    const api = catalogue({
      'GET /api/product/prices/p-mango': {
        _id: 'p-mango',
        wasPrice: null,
        reason: '£5.99 was charged for 3 days before the reduction on 1 December 2026: a was price needs 28 days at that price.',
        history: [
          { at: '2026-12-01T10:00:00Z', price: 4.99, discount: 0, promotionStart: null, promotionEnd: null },
          { at: '2026-11-28T10:00:00Z', price: 5.99, discount: 0, promotionStart: null, promotionEnd: null },
        ],
      },
      'PUT /api/product/update/p-mango': json(
        { message: 'statements: the ingredients name a sweetener (sucralose), so the label must say "with sweeteners": pick with-sweeteners' },
        422,
      ),
    });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: `Edit ${mango.name}` }, FIRST_LOAD));
    const history = await screen.findByTestId('price-history');
    expect(await within(history).findByTestId('was-price-reason')).toHaveTextContent('No "was" price is shown. £5.99 was charged for 3 days');
    expect(within(history).getAllByRole('row')).toHaveLength(3);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const statements = screen.getByRole('group', { name: 'Label statements' });
    expect(await within(statements).findByRole('alert')).toHaveTextContent('pick with-sweeteners');
    await user.click(within(statements).getByRole('checkbox', { name: 'With sweeteners' }));
    expect(within(statements).getByRole('checkbox', { name: 'With sweeteners' })).toBeChecked();
  });

  it('deletes only after the confirm, then reloads', async () => {
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    const api = catalogue({ 'DELETE /api/product/delete/p-cola': { message: 'deleted' } });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    await user.click(await screen.findByRole('button', { name: `Delete ${cola.name}` }, FIRST_LOAD));
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: `Delete ${cola.name}` }));
    expect(await screen.findByRole('status')).toHaveTextContent(`${cola.name} is deleted.`);
    await waitFor(() => expect(api.calls.filter((c) => c.url.pathname === '/api/product/')).toHaveLength(2));
  });

  it('shows an error with a retry when the list fails', async () => {
    let fail = true;
    const api = catalogue({
      'GET /api/product/': () => (fail ? json({ message: 'Try later' }, 500) : json([mango])),
    });
    const { user } = renderApp('/new/uk/products', { preloadedState: admin, deps: { fetch: api.fetch } });
    expect(await screen.findByText('We could not load the drinks', undefined, FIRST_LOAD)).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: /Try again/ }));
    expect(await screen.findAllByTestId('admin-product')).toHaveLength(1);
  });
});
