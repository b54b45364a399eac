import { screen, waitFor, within } from '@testing-library/react';
import { useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/router';
import { json, type FakeCall } from '../../../testing/fakeFetch';
import { cola, drinks, lemon, mango, page } from '../../../testing/fixtures';
import { renderApp, renderWithProviders } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';

/** Shows the address and offers the browser's back, beside the app. */
function AddressBar() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <output data-testid="address">{location.pathname + location.search}</output>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

function renderShop(route: string, api = shopApi()) {
  const view = renderWithProviders(
    <>
      <AppRoutes />
      <AddressBar />
    </>,
    { route, deps: { fetch: api.fetch } },
  );
  return { ...view, api };
}

const drinkCalls = (calls: FakeCall[]) => calls.filter((c) => c.url.pathname === '/api/home/drinks/hom/uk/uk/');
const lastDrinksCall = (calls: FakeCall[]) => drinkCalls(calls).at(-1)?.url.searchParams;

describe('ShopPage', () => {
  it("lists the drinks and 'Load more drinks' appends the next page until there is none", async () => {
    const api = shopApi({
      'GET /api/home/drinks/hom/uk/uk/': ({ url }) =>
        json(url.searchParams.get('pageNumber') === '1' ? page(drinks(12), 1, 2) : page(drinks(2, 13), 2, 2)),
    });
    const { user } = renderApp('/shop/drinks/', { deps: { fetch: api.fetch } });
    const list = await screen.findByTestId('drinks-list');
    expect(within(list).getAllByRole('listitem')).toHaveLength(12);
    expect(document.title).toMatch(/^Shop drinks \|/);
    await user.click(screen.getByRole('button', { name: 'Load more drinks' }));
    expect(await screen.findByRole('link', { name: 'Drink 14' })).toBeInTheDocument();
    expect(within(screen.getByTestId('drinks-list')).getAllByRole('listitem')).toHaveLength(14);
    expect(screen.queryByRole('button', { name: 'Load more drinks' })).not.toBeInTheDocument();
  });

  it('keeps the heading outline whole: no level skipped between the page and the cards', async () => {
    const api = shopApi({ 'GET /api/home/drinks/hom/uk/uk/': page(drinks(3), 1, 1) });
    renderApp('/shop/drinks/', { deps: { fetch: api.fetch } });
    await screen.findByTestId('drinks-list');
    const main = document.querySelector('main') ?? document.body;
    const levels = [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    levels.forEach((level, i) => {
      if (i > 0) expect(level - (levels[i - 1] ?? level)).toBeLessThanOrEqual(1);
    });
    expect(screen.getByRole('list', { name: 'The drinks' })).toBeInTheDocument();
  });

  it('filters by the category in the query string', async () => {
    const api = shopApi();
    renderApp('/shop/drinks/?category=c-soda', { deps: { fetch: api.fetch } });
    await screen.findByTestId('drinks-list');
    const call = api.calls.find((c) => c.url.pathname === '/api/home/drinks/hom/uk/uk/');
    expect(call?.url.searchParams.get('category')).toBe('c-soda');
    expect(screen.getByRole('link', { name: 'Show all drinks' })).toHaveAttribute('href', '/shop/drinks/');
  });

  it("shows an error with 'Try again', and an empty shelf", async () => {
    let answer = json({ message: 'not fund 404' }, 500);
    const api = shopApi({ 'GET /api/home/drinks/hom/uk/uk/': () => answer });
    const { user } = renderApp('/shop/drinks/', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('not fund 404');
    answer = json(page([], 1, 1));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No drinks here yet')).toBeInTheDocument();
  });

  it('sorting and filtering change the address, ask the server, and back restores the previous choice', async () => {
    const { user, api } = renderShop('/shop/drinks/');
    await screen.findByTestId('drinks-list');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Price, low to high');
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/shop/drinks/?sort=price-asc'));
    await waitFor(() => expect(lastDrinksCall(api.calls)?.get('sort')).toBe('price-asc'));

    await user.click(screen.getByRole('checkbox', { name: 'In stock only' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/shop/drinks/?sort=price-asc&inStock=true'));
    await waitFor(() => expect(lastDrinksCall(api.calls)?.get('inStock')).toBe('true'));

    await user.type(screen.getByRole('textbox', { name: 'Lowest price (£)' }), '2');
    await user.type(screen.getByRole('textbox', { name: 'Highest price (£)' }), '10.5');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('?sort=price-asc&inStock=true&minPrice=2&maxPrice=10.5'));
    await waitFor(() => expect(lastDrinksCall(api.calls)?.get('maxPrice')).toBe('10.5'));

    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('/shop/drinks/?sort=price-asc&inStock=true'));
    expect(screen.getByRole('checkbox', { name: 'In stock only' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Lowest price (£)' })).toHaveValue('');
    await waitFor(() => expect(lastDrinksCall(api.calls)?.get('minPrice')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Browser back' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'In stock only' })).not.toBeChecked());
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-asc');
  });

  it('an address with a choice opens with it, and a bad price range is refused in place', async () => {
    const { user, api } = renderShop('/shop/drinks/?sort=rating&minPrice=3');
    await screen.findByTestId('drinks-list');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('rating');
    expect(screen.getByRole('textbox', { name: 'Lowest price (£)' })).toHaveValue('3');
    expect([lastDrinksCall(api.calls)?.get('sort'), lastDrinksCall(api.calls)?.get('minPrice')]).toEqual(['rating', '3']);
    const before = drinkCalls(api.calls).length;
    await user.type(screen.getByRole('textbox', { name: 'Highest price (£)' }), '1');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The lowest price must not be above the highest.');
    await user.clear(screen.getByRole('textbox', { name: 'Highest price (£)' }));
    await user.type(screen.getByRole('textbox', { name: 'Highest price (£)' }), 'ten');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter prices in pounds, like 4 or 4.99.');
    expect(drinkCalls(api.calls)).toHaveLength(before);
    expect(screen.getByTestId('address')).toHaveTextContent('/shop/drinks/?sort=rating&minPrice=3');
  });

  it("a category page names its category in the heading, the crumbs and the title", async () => {
    const { user } = renderShop('/shop/drinks/?category=c-soda');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sodas' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Sodas \| Shop drinks \|/));
    expect(screen.getByRole('navigation', { name: 'Breadcrumb' })).toHaveTextContent('HomeShopSodas');
    expect(screen.getByRole('combobox', { name: 'Category' })).toHaveValue('c-soda');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'All drinks');
    expect(await screen.findByRole('heading', { level: 1, name: 'Our drinks' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toMatch(/^Shop drinks \|/));
  });

  it('filters that keep nothing say so and lead back to every drink', async () => {
    const api = shopApi({ 'GET /api/home/drinks/hom/uk/uk/': page([], 1, 1) });
    renderShop('/shop/drinks/?inStock=true&maxPrice=1', api);
    expect(await screen.findByText('No drinks match these filters')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See every drink' })).toHaveAttribute('href', '/shop/drinks/');
  });

  it('cards show the rating with its words, and a drink without reviews says so', async () => {
    const api = shopApi({
      'GET /api/home/drinks/hom/uk/uk/': page(
        [
          { ...mango, avgRating: 4.5, totalComments: 12 },
          { ...cola, avgRating: 5, totalComments: 1 },
          { ...lemon, avgRating: 0, totalComments: 0 },
        ],
        1,
        1,
      ),
    });
    renderShop('/shop/drinks/', api);
    const cards = within(await screen.findByTestId('drinks-list')).getAllByRole('listitem');
    expect(cards[0]).toHaveTextContent('4.5 out of 5, 12 reviews');
    expect(cards[1]).toHaveTextContent('5 out of 5, 1 review');
    expect(cards[2]).toHaveTextContent('No reviews yet');
    expect(cards[2]).not.toHaveTextContent('out of 5');
  });
});
