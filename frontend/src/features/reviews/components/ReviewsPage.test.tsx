import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, type FakeCall } from '../../../testing/fakeFetch';
import { layla, makeReview, noor, reviewPage, reviewSummary, sami } from '../../../testing/reviewFixtures';
import { renderWithProviders } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { CONFIRM_NOTE, ERROR_SCROLL_MS, invalidFields, SUCCESS_SCROLL_MS, THANK_YOU, THANK_YOU_MIXED, THANK_YOU_UNHAPPY, thanksFor } from './ReviewForm';
import ReviewsPage from './ReviewsPage';

const SUMMARY = 'GET /api/home/uk/review/';
const PAGES = 'GET /api/home_uk/palestine/comment/reviews';
const CREATE = 'POST /api/reviews/create/';
const CHECK = 'POST /api/reviews/x/';

function renderPage(overrides: Parameters<typeof shopApi>[0] = {}, route = '/drinks/review') {
  const api = shopApi(overrides);
  return { api, ...renderWithProviders(<ReviewsPage />, { deps: { fetch: api.fetch }, route }) };
}

function jsonLd(): Array<Record<string, unknown>> {
  const text = document.querySelector('script[type="application/ld+json"]')?.textContent ?? '{}';
  return JSON.parse(text)['@graph'];
}

async function openForm(user: ReturnType<typeof renderPage>['user']) {
  const write = await screen.findByRole('button', { name: 'Write a review' });
  expect(write).toHaveAttribute('aria-expanded', 'false');
  await user.click(write);
  expect(write).toHaveAttribute('aria-expanded', 'true');
  return screen.findByTestId('review-form');
}

async function fillValid(user: ReturnType<typeof renderPage>['user'], form: HTMLElement) {
  await screen.findByRole('option', { name: 'Mango Fizz' });
  await user.click(screen.getByRole('radio', { name: '5 stars' }));
  await user.type(within(form).getByLabelText('Your review'), 'Lovely and fizzy drink');
  await user.type(within(form).getByLabelText('Full name'), 'Omar Saleh');
  await user.type(within(form).getByLabelText(/E-mail/), 'omar@example.com');
  await user.selectOptions(within(form).getByLabelText('Drink'), 'p-mango');
}

describe('ReviewsPage', () => {
  it('shows the average, the count, a bar per star and the reviews as the spec lays them out', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Customer Reviews' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(await screen.findByTestId('average-rating')).toHaveTextContent('3.7');
    expect(screen.getByText('out of 5')).toBeInTheDocument();
    expect(screen.getByText('Based on 3 reviews')).toBeInTheDocument();
    const bars = screen.getAllByTestId('rating-bar');
    expect(bars.map((bar) => bar.textContent)).toEqual(['5 ★ stars1 review', '4 ★ stars1 review', '3 ★ stars0 reviews', '2 ★ stars1 review', '1 ★ star0 reviews']);
    expect(screen.getByTestId('upload-note')).toHaveTextContent('Photo uploads are temporarily disabled');

    const reviews = screen.getAllByTestId('review');
    expect(reviews).toHaveLength(3);
    const [first, second, third] = reviews as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByRole('img', { name: '4 out of 5 stars' })).toBeInTheDocument();
    expect(first).toHaveTextContent('Layla Haddad');
    // The badge only where the reviewer bought the drink.
    expect(within(first).getByText('Verified')).toBeInTheDocument();
    expect(within(second).queryByText('Verified')).not.toBeInTheDocument();
    expect(first).toHaveTextContent('crisp and not too sweet.');
    // The Date text (longer than 3 characters) wins over createdAt.
    expect(within(first).getByText('22 November 2026')).toHaveAttribute('dateTime', layla.createdAt);
    expect(within(first).queryByRole('img', { name: /Photo/ })).not.toBeInTheDocument();
    // No usable Date text: createdAt as day/month/year; an image name over 4 characters shows.
    expect(within(second).getByText('03/11/2026')).toBeInTheDocument();
    expect(within(second).getByRole('img', { name: 'Photo from Sami Khalil' })).toHaveAttribute('src', '/uploads/can.png');
    // 'Jan' is 3 characters: createdAt shows; 'a.png' is 5 characters: the picture shows.
    expect(within(third).getByText('01/10/2026')).toBeInTheDocument();
    expect(within(third).getByRole('img', { name: 'Photo from Noor Aziz' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'View more comments' })).not.toBeInTheDocument();
    expect(document.title).toBe('Customer Reviews | Palestine Drinks');
  });

  it('gives search engines the organisation, the business with its hours and rating, breadcrumbs, the FAQ and the reviews', async () => {
    renderPage();
    await screen.findByTestId('average-rating');
    const things = jsonLd();
    expect(things.map((t) => t['@type'])).toEqual(['Organization', 'Store', 'BreadcrumbList', 'FAQPage', 'Review', 'Review', 'Review']);
    const store = things[1] as { openingHoursSpecification: Array<{ dayOfWeek: string[]; opens: string; closes: string }>; aggregateRating: unknown };
    expect(store.openingHoursSpecification.map((h) => `${h.dayOfWeek.length} ${h.opens}-${h.closes}`)).toEqual(['5 09:00-18:00', '1 10:00-18:00']);
    expect(store.aggregateRating).toEqual({ '@type': 'AggregateRating', ratingValue: 3.7, reviewCount: 3, bestRating: 5, worstRating: 1 });
    expect(things[4]).toMatchObject({ author: { name: 'Layla Haddad' }, reviewRating: { ratingValue: 4 } });
    const crumbs = things[2] as { itemListElement: Array<{ name: string }> };
    expect(crumbs.itemListElement.map((c) => c.name)).toEqual(['Home', 'Customer Reviews']);
    // The FAQ given to search engines is the one on the page.
    const faq = things[3] as { mainEntity: Array<{ name: string }> };
    for (const { name } of faq.mainEntity) expect(screen.getByText(name)).toBeInTheDocument();
  });

  it("'View more comments' loads the next page, and goes once there is none", async () => {
    const { user, api } = renderPage({
      [SUMMARY]: reviewSummary([makeReview(1), makeReview(2)], 2),
      [PAGES]: reviewPage([makeReview(3)], 2, 2),
    });
    expect(await screen.findAllByTestId('review')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'View more comments' }));
    expect(await screen.findByText('Reviewer 3')).toBeInTheDocument();
    expect(screen.getAllByTestId('review')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'View more comments' })).not.toBeInTheDocument();
    expect(api.calls.find((c) => c.url.pathname === '/api/home_uk/palestine/comment/reviews')?.url.searchParams.get('pageNumber')).toBe('2');
  });

  it('offers a retry when the reviews fail to load, and shows them after it', async () => {
    let fail = true;
    const { user } = renderPage({
      [SUMMARY]: () => (fail ? json({ message: 'Try later' }, 500) : json(reviewSummary([layla]))),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load the reviews');
    expect(alert).toHaveTextContent('Try later');
    // The form is still there to write the first review.
    expect(screen.getByRole('button', { name: 'Write a review' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Based on 1 review')).toBeInTheDocument();
    expect(screen.getAllByTestId('review')).toHaveLength(1);
  });

  it('says when there are no reviews yet', async () => {
    renderPage({ [SUMMARY]: reviewSummary([]) });
    expect(await screen.findByRole('heading', { name: 'No reviews yet' })).toBeInTheDocument();
    expect(screen.getByText('Based on 0 reviews')).toBeInTheDocument();
    expect(screen.getByTestId('average-rating')).toHaveTextContent('0.0');
  });

  it('checks every field before sending: the rating first, with the spec message', async () => {
    const { user, api } = renderPage();
    const form = await openForm(user);
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(within(form).getByText('This field is required.')).toBeInTheDocument();
    expect(within(form).getByText('Write a comment of more than 7 characters.')).toBeInTheDocument();
    expect(within(form).getByText('Enter your full name (more than 5 characters).')).toBeInTheDocument();
    expect(within(form).getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(within(form).getByText('Choose the drink you are reviewing.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '1 star' })).toHaveFocus();
    expect(within(form).getByLabelText('Full name')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    // Fixing the rating moves the focus to the next field that fails.
    await user.click(screen.getByRole('radio', { name: '4 stars' }));
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(within(form).queryByText('This field is required.')).not.toBeInTheDocument();
    expect(within(form).getByLabelText('Your review')).toHaveFocus();
  });

  it('thanks an unhappy reviewer without saying we are glad they are satisfied, and keeps the focus on it', async () => {
    const { user } = renderPage({
      [CREATE]: ({ body }: FakeCall) => json({ ...layla, ...(body as object), _id: 'r-low' }, 201),
    });
    const form = await openForm(user);
    await screen.findByRole('option', { name: 'Mango Fizz' });
    await user.click(screen.getByRole('radio', { name: '2 stars' }));
    await user.type(within(form).getByLabelText('Your review'), 'Too sweet for me, sorry');
    await user.type(within(form).getByLabelText('Full name'), 'Omar Saleh');
    await user.type(within(form).getByLabelText(/E-mail/), 'omar@example.com');
    await user.selectOptions(within(form).getByLabelText('Drink'), 'p-mango');
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    const thanks = await screen.findByTestId('review-thanks');
    expect(thanks.querySelector('p')?.textContent).toBe(THANK_YOU_UNHAPPY);
    expect(thanks).not.toHaveTextContent(/satisfied/);
    await waitFor(() => expect(thanks).toHaveFocus());
    expect(thanksFor(3)).toBe(THANK_YOU_MIXED);
    expect(thanksFor(5)).toBe(THANK_YOU);
  });

  it('rates with the keyboard, sends the review, thanks the writer and reloads the summary and list', async () => {
    let stored = false;
    const { user, api } = renderPage(
      {
        [CREATE]: ({ body }: FakeCall) => {
          stored = true;
          return json({ ...layla, ...(body as object), _id: 'r-new' }, 201);
        },
        [SUMMARY]: () => json(stored ? reviewSummary([makeReview(9, { fullname: 'Omar Saleh' }), layla, sami, noor]) : reviewSummary([layla, sami, noor])),
      },
      '/drinks/review?product=p-cola',
    );
    const form = await openForm(user);
    // The drink named in the address is chosen once the drinks are in.
    const drink = within(form).getByLabelText('Drink');
    await screen.findByRole('option', { name: 'Classic Cola' });
    expect(drink).toHaveValue('p-cola');

    // Tab into the stars, then arrow keys move the choice.
    screen.getByRole('radio', { name: '1 star' }).focus();
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(screen.getByRole('radio', { name: '5 stars' })).toBeChecked();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: '4 stars' })).toBeChecked();

    await user.type(within(form).getByLabelText('Your review'), '  Lovely And FIZZY, will buy again  ');
    await user.type(within(form).getByLabelText('Full name'), ' Omar Saleh ');
    await user.type(within(form).getByLabelText(/E-mail/), ' Omar@Example.COM ');
    await user.click(within(form).getByRole('button', { name: 'Send review' }));

    const thanks = await screen.findByTestId('review-thanks');
    expect(thanks.querySelector('p')?.textContent).toBe(THANK_YOU);
    expect(THANK_YOU).toBe(
      "We sincerely appreciate your review of our product. Your feedback means a lot to us, and we're very glad to know you're satisfied.",
    );
    expect(screen.queryByTestId('review-form')).not.toBeInTheDocument();
    const sent = {
      rating: 4,
      comment: 'lovely and fizzy, will buy again',
      fullname: 'Omar Saleh',
      email: 'omar@example.com',
      products: 'p-cola',
    };
    expect(api.calls.find((c) => c.url.pathname === '/api/reviews/create/')?.body).toEqual(sent);
    // The spec's flow also sends the payload to /api/reviews/x/ (its answer unused).
    expect(api.calls.filter((c) => c.url.pathname === '/api/reviews/x/').map((c) => c.body)).toEqual([sent]);
    expect(await screen.findByText('Omar Saleh')).toBeInTheDocument();
    expect(screen.getByText('Based on 4 reviews')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.url.pathname === '/api/home/uk/review/')).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Write another review' }));
    expect(within(await screen.findByTestId('review-form')).getByLabelText('Full name')).toHaveValue('');
  });

  it("shows the server's refusal above the form and marks the field it names", async () => {
    const { user } = renderPage({ [CREATE]: json({ message: 'products: no drink has this id' }, 422) });
    const form = await openForm(user);
    await screen.findByRole('option', { name: 'Mango Fizz' });
    await user.click(screen.getByRole('radio', { name: '3 stars' }));
    await user.type(within(form).getByLabelText('Your review'), 'Nice enough, a bit sweet.');
    await user.type(within(form).getByLabelText('Full name'), 'Layla Haddad');
    await user.type(within(form).getByLabelText(/E-mail/), 'layla@example.com');
    await user.selectOptions(within(form).getByLabelText('Drink'), 'p-mango');
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('products: no drink has this id');
    expect(within(form).getByLabelText('Drink')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByLabelText('Full name')).toHaveValue('Layla Haddad');
  });

  it('applies the shared rules: 1 to 5 stars, comment over 7, name over 5, a valid e-mail, a drink', () => {
    const ok = { rating: 5, comment: '12345678', fullname: 'Laylaa', email: 'a@b.co', products: 'p-cola' };
    expect(invalidFields(ok)).toEqual([]);
    expect(invalidFields({ ...ok, rating: 0 })).toEqual(['rating']);
    expect(invalidFields({ ...ok, comment: ' 1234567 ' })).toEqual(['comment']);
    expect(invalidFields({ ...ok, fullname: ' Layla ' })).toEqual(['fullname']);
    expect(invalidFields({ ...ok, email: 'a@b' })).toEqual(['email']);
    expect(invalidFields({ ...ok, products: '' })).toEqual(['products']);
  });

  it('stores the review even when /api/reviews/x/ fails: its answer is unused', async () => {
    const { user, api } = renderPage({
      [CHECK]: json({ message: 'Try later' }, 500),
      [CREATE]: ({ body }: FakeCall) => json({ ...layla, ...(body as object), _id: 'r-new' }, 201),
    });
    const form = await openForm(user);
    await screen.findByRole('option', { name: 'Mango Fizz' });
    await user.click(screen.getByRole('radio', { name: '5 stars' }));
    await user.type(within(form).getByLabelText('Your review'), 'Lovely and fizzy drink');
    await user.type(within(form).getByLabelText('Full name'), 'Omar Saleh');
    await user.type(within(form).getByLabelText(/E-mail/), 'omar@example.com');
    await user.selectOptions(within(form).getByLabelText('Drink'), 'p-mango');
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(await screen.findByTestId('review-thanks')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname).sort()).toEqual([
      '/api/reviews/create/',
      '/api/reviews/x/',
    ]);
  });
});

describe("the review form's scroll timings (section 9)", () => {
  interface Scroll {
    at: number;
    target: Element;
    options: ScrollIntoViewOptions | undefined;
  }
  let scrolls: Scroll[] = [];

  function watchScrolls(reducedMotion = false) {
    scrolls = [];
    Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', {
      configurable: true,
      writable: true,
      value(this: Element, options?: ScrollIntoViewOptions) {
        scrolls.push({ at: performance.now(), target: this, options });
      },
    });
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: reducedMotion && query === '(prefers-reduced-motion: reduce)',
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
  }

  afterEach(() => {
    delete (HTMLElement.prototype as { scrollIntoView?: unknown }).scrollIntoView;
  });

  it('scrolls to the thanks 1100 ms after a stored review, smoothly', async () => {
    watchScrolls();
    const { user } = renderPage({ [CREATE]: ({ body }: FakeCall) => json({ ...layla, ...(body as object), _id: 'r-new' }, 201) });
    const form = await openForm(user);
    await fillValid(user, form);
    const sentAt = performance.now();
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    const thanks = await screen.findByTestId('review-thanks');
    expect(scrolls).toEqual([]);
    await vi.waitFor(() => expect(scrolls).toHaveLength(1), { timeout: 3000 });
    const [scroll] = scrolls as [Scroll];
    expect(scroll.target).toBe(thanks);
    expect(scroll.at - sentAt).toBeGreaterThanOrEqual(SUCCESS_SCROLL_MS);
    expect(scroll.options).toMatchObject({ behavior: 'smooth' });
    expect(SUCCESS_SCROLL_MS).toBe(1100);
  });

  it('scrolls to the top of the form 1000 ms after a failed check, without animation for reduced motion', async () => {
    watchScrolls(true);
    const { user } = renderPage();
    const form = await openForm(user);
    const sentAt = performance.now();
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(within(form).getByText('This field is required.')).toBeInTheDocument();
    expect(scrolls).toEqual([]);
    await vi.waitFor(() => expect(scrolls).toHaveLength(1), { timeout: 3000 });
    const [scroll] = scrolls as [Scroll];
    // (happy-dom hands a form's methods a proxy of it: compare by what it is, not by identity.)
    expect(scroll.target).toHaveAttribute('data-testid', 'review-form');
    expect(scroll.at - sentAt).toBeGreaterThanOrEqual(ERROR_SCROLL_MS);
    expect(scroll.at - sentAt).toBeLessThan(SUCCESS_SCROLL_MS + 500);
    expect(scroll.options).toMatchObject({ behavior: 'auto', block: 'start' });
    expect(ERROR_SCROLL_MS).toBe(1000);
  });

  it('scrolls to the top of the form 1000 ms after the server refuses the review', async () => {
    watchScrolls();
    const { user } = renderPage({ [CREATE]: json({ message: 'fullname must be at most 80 characters' }, 422) });
    const form = await openForm(user);
    await fillValid(user, form);
    const sentAt = performance.now();
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('fullname must be at most 80 characters');
    expect(scrolls).toEqual([]);
    await vi.waitFor(() => expect(scrolls).toHaveLength(1), { timeout: 3000 });
    expect(scrolls[0]?.target).toHaveAttribute('data-testid', 'review-form');
    expect((scrolls[0]?.at ?? 0) - sentAt).toBeGreaterThanOrEqual(ERROR_SCROLL_MS);
  });
});

describe('proof and reports on the reviews page', () => {
  it("opens a delivered e-mail's link filled in for its drink, without an address, and sends its token", async () => {
    const { api, user } = renderPage(
      {
        'GET /api/reviews/invitation/': json({ fullname: 'Amira Haddad', products: 'p-cola', productName: 'Classic Cola' }),
        [CREATE]: json(layla, 201),
      },
      '/drinks/review?write=order-1.70.99.sig',
    );
    const form = await screen.findByTestId('review-form');
    expect(within(form).getByLabelText('Full name')).toHaveValue('Amira Haddad');
    expect(within(form).getByTestId('review-drink')).toHaveTextContent('Classic Cola');
    expect(within(form).queryByLabelText('E-mail')).not.toBeInTheDocument();
    expect(within(form).getByTestId('review-proof')).toHaveTextContent('verified buyer');
    await user.click(within(form).getByRole('radio', { name: '5 stars' }));
    await user.type(within(form).getByLabelText('Your review'), 'Just what the delivery promised.');
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    await screen.findByTestId('review-thanks');
    const created = api.calls.find((call: FakeCall) => call.url.pathname === '/api/reviews/create/');
    expect(created?.body).toEqual({
      rating: 5,
      comment: 'just what the delivery promised.',
      fullname: 'Amira Haddad',
      products: 'p-cola',
      token: 'order-1.70.99.sig',
    });
    expect(api.calls.find((call: FakeCall) => call.url.pathname === '/api/reviews/invitation/')?.url.searchParams.get('token')).toBe(
      'order-1.70.99.sig',
    );
  });

  it('says in two lines how reviews are checked, and after a typed address that only its mailbox can verify it', async () => {
    const { user } = renderPage({ [CREATE]: json(layla, 201) });
    const lines = await screen.findByTestId('how-checked');
    expect(lines.querySelectorAll('p')).toHaveLength(2);
    expect(lines).toHaveTextContent('“Verified” marks a review proven to come from a buyer of the drink');
    const form = await openForm(user);
    await fillValid(user, form);
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(await screen.findByTestId('review-thanks')).toHaveTextContent(CONFIRM_NOTE);
  });

  it('reports a review with a reason, and refuses a reason that says nothing', async () => {
    const { api, user } = renderPage({ 'POST /api/reviews/report/r-2': json({ message: 'Thank you: the shop will look at this review.' }, 201) });
    await screen.findAllByTestId('review');
    await user.click(screen.getByRole('button', { name: 'Report the review by Sami Khalil' }));
    const report = screen.getByRole('form', { name: 'Report the review by Sami Khalil' });
    await user.click(within(report).getByRole('button', { name: 'Send report' }));
    expect(within(report).getByText('Say in a few words what is wrong with this review.')).toBeInTheDocument();
    await user.type(within(report).getByLabelText('What is wrong with this review?'), '  Not about the drink  ');
    await user.click(within(report).getByRole('button', { name: 'Send report' }));
    expect(await screen.findByRole('status')).toHaveTextContent('the shop will look at this review');
    const sent = api.calls.find((call: FakeCall) => call.url.pathname === '/api/reviews/report/r-2');
    expect(sent?.body).toEqual({ reason: 'Not about the drink' });
  });
});
