import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AdminReview } from './adminReviewsSlice';
import { initialAuthState } from '../../state/session/authSlice';
import { json, type FakeCall } from '../../testing/fakeFetch';
import { makeReview } from '../../testing/reviewFixtures';
import { renderWithProviders } from '../../testing/renderWithProviders';
import { shopApi } from '../../testing/shopApi';
import ReviewsScreen from './ReviewsScreen';

const admin = { auth: { ...initialAuthState, token: 'jwt', userInfo: { email: 'admin@example.com', role: 'admin' } } };

const adminReview = (n: number): AdminReview => ({
  ...makeReview(n, { rating: (n % 5) + 1, verified: n % 2 === 0 }),
  email: `reviewer${n}@example.com`,
  productName: 'Classic Cola',
  hidden: false,
});

function reviewsApi(overrides: Parameters<typeof shopApi>[0] = {}) {
  let deleted = false;
  let hidden = false;
  return shopApi({
    'GET /api/reviews': ({ url }: FakeCall) => {
      if (url.searchParams.get('hidden') === 'true') {
        return json({ product: hidden ? [{ ...adminReview(1), hidden: true }] : [], pages: 1, result: {} });
      }
      const first = Array.from({ length: 20 }, (_, i) => adminReview(i + 1)).filter((r) => !((deleted || hidden) && r._id === 'r-1'));
      return json(
        url.searchParams.get('pageNumber') === '1'
          ? { product: first, pages: 2, result: { next: { page: 2, cursor: 'after-r-20' } } }
          : { product: [adminReview(21)], pages: 2, result: {} },
      );
    },
    'GET /api/reviews/reported/': () =>
      json(hidden ? [] : [{ review: adminReview(1), reports: 2, reasons: ['2026-11-27T10:00:00Z Advertises another shop'], lastReportedAt: '2026-11-27T10:00:00Z' }]),
    'POST /api/reviews/hide/r-1': () => {
      hidden = true;
      return json({ message: 'The review is hidden' });
    },
    'POST /api/reviews/unhide/r-1': () => {
      hidden = false;
      return json({ message: 'The review is shown again' });
    },
    'DELETE /api/reviews/delete/r-1': () => {
      deleted = true;
      return json({ message: 'The review was deleted' });
    },
    ...overrides,
  });
}

describe('ReviewsScreen', () => {
  it('lists rating, name, e-mail, drink, date and comment: every page loaded, 20 shown at a time', async () => {
    const api = reviewsApi();
    const { user } = renderWithProviders(<ReviewsScreen />, { deps: { fetch: api.fetch }, preloadedState: admin });
    expect(screen.getByRole('heading', { level: 2, name: 'Reviews' })).toBeInTheDocument();
    const table = await screen.findByTestId('admin-reviews');
    const rows = within(table).getAllByTestId('admin-review');
    expect(rows).toHaveLength(20);
    const first = rows[0] as HTMLElement;
    expect(first).toHaveTextContent('2 out of 5 stars');
    expect(first).toHaveTextContent('Reviewer 1');
    expect(first).toHaveTextContent('reviewer1@example.com');
    expect(first).toHaveTextContent('Classic Cola');
    expect(first).toHaveTextContent('Not proven');
    expect(rows[1]).toHaveTextContent('Verified buyer');
    expect(first).toHaveTextContent('22/11/2026');
    expect(first).toHaveTextContent('review number 1: a proper fizzy drink.');
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 21 reviews'));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('reviewer21@example.com')).toBeInTheDocument();
    expect(within(table).getAllByTestId('admin-review')).toHaveLength(1);
    // Filtered to verified buyers: the even reviews, 10 of 21.
    await user.selectOptions(screen.getByLabelText('Stars or purchase'), 'verified');
    expect(screen.getByTestId('table-count')).toHaveTextContent('1–10 of 10 reviews (filtered from 21)');
    expect(api.calls.every((c) => c.url.pathname !== '/api/reviews' || c.headers.get('Authorization') === 'Bearer jwt')).toBe(true);
  });

  it('deletes only after the confirm, then lists again', async () => {
    const api = reviewsApi();
    const questions: string[] = [];
    let answer = false;
    const confirm = (question: string) => {
      questions.push(question);
      return answer;
    };
    const { user } = renderWithProviders(<ReviewsScreen confirm={confirm} />, { deps: { fetch: api.fetch }, preloadedState: admin });
    const remove = await screen.findByRole('button', { name: 'Delete the review by Reviewer 1' });
    await user.click(remove);
    // The question names the review: who, how many stars, which drink, how it starts.
    expect(questions).toEqual([
      'do you wnat delete\nDelete the review by Reviewer 1 (2 stars for Classic Cola: “review number 1: a proper fizzy drink.”)? It stays in the bin for 30 days, from where you can restore it.',
    ]);
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    answer = true;
    await user.click(remove);
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 20 reviews'));
    expect(screen.getByText('reviewer2@example.com')).toBeInTheDocument();
    expect(screen.queryByText('reviewer1@example.com')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.url.pathname === '/api/reviews' && !c.url.searchParams.has('hidden'))).toHaveLength(4);
  });

  it('reads the next page from where the first ended', async () => {
    const api = reviewsApi();
    renderWithProviders(<ReviewsScreen />, { deps: { fetch: api.fetch }, preloadedState: admin });
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 21 reviews'));
    const second = api.calls.find((c) => c.url.pathname === '/api/reviews' && c.url.searchParams.get('pageNumber') === '2');
    expect(second?.url.searchParams.get('cursor')).toBe('after-r-20');
  });

  it('shows the reported reviews with their reasons; hiding one moves it to the hidden, and it can be shown again', async () => {
    const api = reviewsApi();
    const { user } = renderWithProviders(<ReviewsScreen />, { deps: { fetch: api.fetch }, preloadedState: admin });
    const reported = await screen.findByTestId('reported-review');
    expect(reported).toHaveTextContent('2 reports');
    expect(reported).toHaveTextContent('Advertises another shop');
    await user.click(within(reported).getByRole('button', { name: 'Hide: the review by Reviewer 1' }));
    const hidden = await screen.findByTestId('hidden-review');
    expect(hidden).toHaveTextContent('Reviewer 1');
    expect(screen.queryByTestId('reported-review')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 20 reviews'));
    await user.click(within(hidden).getByRole('button', { name: 'Show again: the review by Reviewer 1' }));
    await waitFor(() => expect(screen.queryByTestId('hidden-review')).not.toBeInTheDocument());
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual(['/api/reviews/hide/r-1', '/api/reviews/unhide/r-1']);
  });

  it("shows the server's refusal of a delete", async () => {
    const api = reviewsApi({ 'DELETE /api/reviews/delete/r-1': json({ message: 'No review has this id' }, 404) });
    const { user } = renderWithProviders(<ReviewsScreen confirm={() => true} />, { deps: { fetch: api.fetch }, preloadedState: admin });
    await user.click(await screen.findByRole('button', { name: 'Delete the review by Reviewer 1' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No review has this id');
  });

  it('shows an error with a retry, and an empty state', async () => {
    let fail = true;
    const api = reviewsApi({
      'GET /api/reviews': () => (fail ? json({ message: 'Try later' }, 500) : json({ product: [], pages: 1, result: {} })),
    });
    const { user } = renderWithProviders(<ReviewsScreen />, { deps: { fetch: api.fetch }, preloadedState: admin });
    expect(await screen.findByRole('heading', { name: 'We could not load the reviews' })).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No reviews yet' })).toBeInTheDocument();
  });
});
