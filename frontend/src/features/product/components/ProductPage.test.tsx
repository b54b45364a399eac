import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, type FakeCall } from '../../../testing/fakeFetch';
import { makeReview, reviewPage, reviewSummary } from '../../../testing/reviewFixtures';
import { cola } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { ageAsked } from './AgeRestriction';
import { qtyFromQuery } from './ProductPage';

describe('ProductPage', () => {
  it('shows the drink: images, description, pack label, the price with its genuine was price, the unit price and the delivery terms', async () => {
    const drink = { ...cola, wasPrice: 12.5 };
    renderApp('/drinks/p-cola', { deps: { fetch: shopApi({ 'GET /api/product/p-cola': drink }).fetch } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Classic Cola' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Classic Cola' })).toHaveAttribute('src', '/uploads/cola.png');
    expect(screen.getByText('12 x 500ml')).toBeInTheDocument();
    expect(screen.getByText('The original.')).toBeInTheDocument();
    expect(screen.getByText('£11.25')).toBeInTheDocument();
    expect(screen.getByText('£12.50')).toBeInTheDocument();
    expect(screen.getByText('10% off')).toBeInTheDocument();
    expect(screen.getByText('£1.88 per litre')).toBeInTheDocument();
    // The delivery terms the checkout charges (GET /api/order/payment-settings/), fetched by the frame.
    expect(await screen.findByTestId('delivery-line')).toHaveTextContent('+ £4.99 delivery, free from £40');
    expect(document.title).toBe('Classic Cola | Palestine Drinks');
    expect(document.querySelector('meta[name="description"]')?.getAttribute('content')).toMatch(/^Classic Cola \(12 x 500ml\)/);
  });

  it('shows the food information: allergens in bold, the nutrition per 100 ml and per can, the producer', async () => {
    const drink = {
      ...cola,
      ingredients: 'Carbonated water, sugar, preservative (*potassium metabisulphite*).',
      allergens: ['sulphites'],
      caffeineMgPerLitre: 100,
    };
    renderApp('/drinks/p-cola', { deps: { fetch: shopApi({ 'GET /api/product/p-cola': drink }).fetch } });
    const section = await screen.findByRole('region', { name: 'Ingredients and nutrition' });
    expect(within(section).getByText('potassium metabisulphite').tagName).toBe('STRONG');
    expect(within(section).getByText(/Sulphur dioxide and sulphites/)).toBeInTheDocument();
    const table = within(section).getByRole('table', { name: 'Nutrition' });
    expect(within(table).getByRole('columnheader', { name: 'Per can (500 ml)' })).toBeInTheDocument();
    const sugars = within(table).getByRole('row', { name: /of which sugars/ });
    expect(within(sugars).getAllByRole('cell').map((c) => c.textContent)).toEqual(['9.2 g', '46.0 g']);
    expect(within(section).queryByText(/High caffeine content/)).not.toBeInTheDocument();
    expect((await within(section).findByText(/Made by:/)).parentElement).toHaveTextContent(/Made by: Palestine Drinks/);
    const ld = JSON.parse(document.querySelector('script[type="application/ld+json"]')?.textContent ?? '{}');
    expect(ld['@graph'][0]).toMatchObject({ '@type': 'Product', nutrition: { '@type': 'NutritionInformation', sugarContent: '9.2 g' } });
  });

  it('shows a discounted price without a was price or a badge when the server found no genuine earlier price', async () => {
    renderApp('/drinks/p-cola', { deps: { fetch: shopApi().fetch } });
    expect(await screen.findByText('£11.25')).toBeInTheDocument();
    expect(screen.queryByText('£12.50')).not.toBeInTheDocument();
    expect(screen.queryByText(/% off/)).not.toBeInTheDocument();
  });

  it('prints the sweetener statements beside the name and the liquorice one after the ingredients', async () => {
    const drink = { ...cola, statements: ['with-sweeteners', 'phenylalanine', 'liquorice'] as typeof cola.statements };
    renderApp('/drinks/p-cola', { deps: { fetch: shopApi({ 'GET /api/product/p-cola': drink }).fetch } });
    expect(await screen.findByTestId('name-statements')).toHaveTextContent('With sweeteners. Contains a source of phenylalanine.');
    const section = screen.getByRole('region', { name: 'Ingredients and nutrition' });
    expect(within(section).getByText('Contains liquorice.')).toBeInTheDocument();
  });

  it('warns of high caffeine above 150 mg per litre', async () => {
    const drink = { ...cola, caffeineMgPerLitre: 320 };
    renderApp('/drinks/p-cola', { deps: { fetch: shopApi({ 'GET /api/product/p-cola': drink }).fetch } });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('High caffeine content. Not recommended for children or pregnant or breast-feeding women (32 mg/100 ml).');
    // By the price, not below the fold in the food information.
    expect(within(screen.getByRole('region', { name: 'Ingredients and nutrition' })).queryByRole('note')).toBeNull();
    expect(note.previousElementSibling?.textContent).toContain('£11.25');
  });

  it('says an age-restricted drink is sold from the shop’s age, and nothing when the shop checks none', async () => {
    const drink = { ...cola, caffeineMgPerLitre: 320, minimumAge: 16 };
    renderApp('/drinks/p-cola', { deps: { fetch: shopApi({ 'GET /api/product/p-cola': drink }).fetch } });
    expect(await screen.findByTestId('age-restriction')).toHaveTextContent('16+ Sold only to buyers aged 16 or over');
  });

  it('switches pictures', async () => {
    const { user } = renderApp('/drinks/p-cola', { deps: { fetch: shopApi().fetch } });
    await user.click(await screen.findByRole('button', { name: 'Picture 2 of 2' }));
    expect(screen.getByRole('img', { name: 'Classic Cola' })).toHaveAttribute('src', '/uploads/cola-side.png');
  });

  it('adds to the basket with the quantity from the query string, at the discounted price', async () => {
    const { user, store } = renderApp('/drinks/p-cola?qty=3', { deps: { fetch: shopApi().fetch } });
    await screen.findByRole('heading', { level: 1, name: 'Classic Cola' });
    expect(screen.getByLabelText('Quantity of Classic Cola', { selector: 'output' })).toHaveTextContent('3');
    await user.click(screen.getByRole('button', { name: 'Increase quantity of Classic Cola' }));
    await user.click(screen.getByRole('button', { name: 'Add to basket' }));
    expect(store.getState().cart.cartItems).toEqual([
      { product: 'p-cola', name: 'Classic Cola', image: 'cola.png', quantity: '12 x 500ml', price: 11.25, des: 'The original.', qty: 4 },
    ]);
    expect(screen.getByTestId('basket-badge')).toHaveTextContent('4');
    // "View basket" opens the basket panel.
    await user.click(screen.getByRole('button', { name: 'View basket' }));
    expect(store.getState().header.cartOpen).toBe(true);
    // No remove control on the compact stepper.
    expect(screen.queryByRole('button', { name: 'Remove Classic Cola' })).not.toBeInTheDocument();
  });

  it('takes an address for a sold-out drink and says what will happen', async () => {
    const api = shopApi({
      'POST /api/product/notify/p-lemon': ({ body }) =>
        (body as { email: string }).email === 'layla@example.com'
          ? json({ message: 'Check your inbox: confirm with the link we have e-mailed you, and we will e-mail you once when the drink is back in stock.' }, 201)
          : json({ message: 'email must be a valid e-mail address' }, 422),
    });
    const { user } = renderApp('/drinks/p-lemon', { deps: { fetch: api.fetch } });
    const field = await screen.findByLabelText('E-mail me when it is back', { selector: 'input' });
    await user.type(field, 'nope');
    await user.click(screen.getByRole('button', { name: 'Notify me' }));
    expect(await screen.findByText('Enter a valid e-mail address')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.clear(field);
    await user.type(field, ' layla@example.com ');
    await user.click(screen.getByRole('button', { name: 'Notify me' }));
    const done = await screen.findByTestId('back-in-stock-done');
    expect(done).toHaveTextContent('confirm with the link we have e-mailed you');
    // The form (and its focused button) is gone: the answer has the focus.
    expect(done).toHaveFocus();
  });

  it('cannot add a sold-out drink, and offers no quantity to choose for it', async () => {
    renderApp('/drinks/p-lemon', { deps: { fetch: shopApi().fetch } });
    expect(await screen.findByRole('button', { name: 'Sold out' })).toBeDisabled();
    expect(screen.queryByRole('group', { name: 'Quantity of Lemon Sparkle' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Increase quantity of Lemon Sparkle' })).not.toBeInTheDocument();
  });

  it('says an unknown drink is not there: a link to the shop, noindex, no Try again', async () => {
    const api = shopApi({ 'GET /api/product/p-gone': () => json({ message: 'Product not found' }, 404) });
    const { unmount } = renderApp('/drinks/p-gone', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Drink not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse all drinks' })).toHaveAttribute('href', '/shop/drinks/');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe('noindex');
    expect(document.title).toBe('Drink not found | Palestine Drinks');
    unmount();
    expect(document.querySelector('meta[name="robots"]')).toBeNull();
  });

  it("shows the server's message when the drink could not be loaded, and 'Try again' asks again", async () => {
    let answer = json({ message: 'Service unavailable' }, 503);
    const api = shopApi({ 'GET /api/product/p-new': () => answer });
    const { user } = renderApp('/drinks/p-new', { deps: { fetch: api.fetch } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Service unavailable');
    expect(document.querySelector('meta[name="robots"]')).toBeNull();
    answer = json({ ...cola, _id: 'p-new', name: 'New Drink' });
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'New Drink' })).toBeInTheDocument();
  });

  it('reads ?qty= as a whole number from 1', () => {
    expect(qtyFromQuery('3')).toBe(3);
    expect(qtyFromQuery('0')).toBe(1);
    expect(qtyFromQuery('2.5')).toBe(1);
    expect(qtyFromQuery(null)).toBe(1);
  });

  describe("the drink's reviews, below the fold", () => {
    const colaReviews = [makeReview(1, { fullname: 'Layla Haddad', rating: 4 }), makeReview(2, { fullname: 'Sami Khalil', rating: 5 })];
    const mangoReview = makeReview(7, { fullname: 'Mango Only', products: 'p-mango' });

    /** Answers per drink, as the back end does with `ProductsId`; the whole shop's otherwise. */
    function perDrink() {
      let stored: unknown = null;
      const api = shopApi({
        'GET /api/home/uk/review/': ({ url }: FakeCall) => {
          const id = url.searchParams.get('ProductsId');
          const mine = id === 'p-cola' ? [...(stored ? [makeReview(9, { fullname: 'Omar Saleh' })] : []), ...colaReviews] : id ? [] : [mangoReview, ...colaReviews];
          return json(reviewSummary(mine, 2));
        },
        'GET /api/home_uk/palestine/comment/reviews': ({ url }: FakeCall) => {
          if (url.searchParams.get('ProductsId') !== 'p-cola') return json(reviewPage([mangoReview], 1, 1));
          const page = Number(url.searchParams.get('pageNumber'));
          const first = [...(stored ? [makeReview(9, { fullname: 'Omar Saleh' })] : []), ...colaReviews];
          return json(page === 1 ? reviewPage(first, 1, 2) : reviewPage([makeReview(3, { fullname: 'Noor Aziz' })], 2, 2));
        },
        'POST /api/reviews/x/': { message: 'ok' },
        'POST /api/reviews/create/': ({ body }: FakeCall) => {
          stored = body;
          return json({ ...makeReview(9), ...(body as object) }, 201);
        },
      });
      return { api, stored: () => stored };
    }

    it("shows that drink's average, count and reviews, asking with its ProductsId", async () => {
      const { api } = perDrink();
      renderApp('/drinks/p-cola', { deps: { fetch: api.fetch } });
      const section = await screen.findByTestId('drink-reviews');
      expect(within(section).getByRole('heading', { name: 'Reviews of Classic Cola' })).toBeInTheDocument();
      expect(await within(section).findByTestId('average-rating')).toHaveTextContent('4.5');
      expect(within(section).getByText('Based on 2 reviews')).toBeInTheDocument();
      expect(await within(section).findAllByTestId('review')).toHaveLength(2);
      expect(within(section).queryByText('Mango Only')).not.toBeInTheDocument();
      const pages = api.calls.filter((c) => c.url.pathname === '/api/home_uk/palestine/comment/reviews');
      expect(pages.map((c) => [c.url.searchParams.get('pageNumber'), c.url.searchParams.get('ProductsId')])).toEqual([['1', 'p-cola']]);
      expect(api.calls.find((c) => c.url.pathname === '/api/home/uk/review/')?.url.searchParams.get('ProductsId')).toBe('p-cola');
    });

    it("'View more comments' appends the drink's next page", async () => {
      const { api } = perDrink();
      const { user } = renderApp('/drinks/p-cola', { deps: { fetch: api.fetch } });
      const section = await screen.findByTestId('drink-reviews');
      await within(section).findAllByTestId('review');
      await user.click(within(section).getByRole('button', { name: 'View more comments' }));
      expect(await within(section).findByText('Noor Aziz')).toBeInTheDocument();
      expect(within(section).getAllByTestId('review')).toHaveLength(3);
      const last = api.calls.filter((c) => c.url.pathname === '/api/home_uk/palestine/comment/reviews').at(-1);
      expect([last?.url.searchParams.get('pageNumber'), last?.url.searchParams.get('ProductsId')]).toEqual(['2', 'p-cola']);
      expect(within(section).queryByRole('button', { name: 'View more comments' })).not.toBeInTheDocument();
    });

    it('the form there reviews that drink, then the list shows the new review', async () => {
      const { api, stored } = perDrink();
      const { user } = renderApp('/drinks/p-cola', { deps: { fetch: api.fetch } });
      const section = await screen.findByTestId('drink-reviews');
      await user.click(within(section).getByRole('button', { name: 'Write a review' }));
      const form = await within(section).findByTestId('review-form');
      expect(within(form).getByTestId('review-drink')).toHaveTextContent('Reviewing Classic Cola');
      expect(within(form).queryByLabelText('Drink')).not.toBeInTheDocument();
      await user.click(within(form).getByRole('radio', { name: '5 stars' }));
      await user.type(within(form).getByLabelText('Your review'), 'Proper cola, very fizzy');
      await user.type(within(form).getByLabelText('Full name'), 'Omar Saleh');
      await user.type(within(form).getByLabelText(/E-mail/), 'omar@example.com');
      await user.click(within(form).getByRole('button', { name: 'Send review' }));
      expect(await within(section).findByTestId('review-thanks')).toBeInTheDocument();
      expect(stored()).toMatchObject({ products: 'p-cola', rating: 5, fullname: 'Omar Saleh' });
      expect(await within(section).findByText('Omar Saleh')).toBeInTheDocument();
      expect(within(section).getByText('Based on 3 reviews')).toBeInTheDocument();
      // The form for a fixed drink never needs the drinks list.
      expect(api.calls.some((c) => c.url.pathname === '/api/product/')).toBe(false);
    });
  });
});

describe('ageAsked', () => {
  it('is the shop’s age for a restricted drink, none for another drink or a shop that checks none', () => {
    expect(ageAsked(16, 18)).toBe(18);
    expect(ageAsked(16, undefined)).toBe(16);
    expect(ageAsked(16, null)).toBeNull();
    expect(ageAsked(null, 16)).toBeNull();
  });
});
