import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { fakeFetch, json } from '../../testing/fakeFetch';
import { cola, mango } from '../../testing/fixtures';
import { layla, makeReview, reviewPage, reviewSummary, sami } from '../../testing/reviewFixtures';
import {
  fetchReviewDrinks,
  fetchReviewsPage,
  fetchReviewSummary,
  selectReviewDrinks,
  selectReviewForm,
  selectReviewList,
  selectReviewSummary,
  sendReview,
} from './reviewsSlice';

describe('reviewsSlice', () => {
  it('takes the ratings, the count and the first page from the summary', async () => {
    const { fetch } = fakeFetch({ 'GET /api/home/uk/review/': reviewSummary([layla, sami], 3) });
    const store = makeStore(undefined, { fetch });
    await store.dispatch(fetchReviewSummary());
    const summary = selectReviewSummary(store.getState());
    expect(summary.status).toBe('loaded');
    expect(summary.count).toBe(2);
    expect(summary.ratings).toMatchObject({ '4': 1, '2': 1, avgRating: 3, totalComments: 2 });
    expect(summary.connect?.name).toBe('Palestine Drinks');
    const list = selectReviewList(store.getState());
    expect(list.products.map((r) => r._id)).toEqual(['r-1', 'r-2']);
    expect([list.pageNumber, list.nextPage, list.status]).toEqual([1, 2, 'loaded']);
  });

  it('appends the next pages, and has no next page after the last', async () => {
    const { fetch, calls } = fakeFetch({
      'GET /api/home/uk/review/': reviewSummary([makeReview(1)], 2),
      'GET /api/home_uk/palestine/comment/reviews': reviewPage([makeReview(2)], 2, 2),
    });
    const store = makeStore(undefined, { fetch });
    await store.dispatch(fetchReviewSummary());
    const { cursor } = selectReviewList(store.getState());
    expect(cursor).toBe('place-after-r-1');
    await store.dispatch(fetchReviewsPage({ page: 2, cursor }));
    const list = selectReviewList(store.getState());
    expect(list.products.map((r) => r._id)).toEqual(['r-1', 'r-2']);
    expect([list.nextPage, list.cursor]).toEqual([null, null]);
    // The next page is read from where the first ended, not by skipping it.
    expect(calls.at(-1)?.url.searchParams.get('pageNumber')).toBe('2');
    expect(calls.at(-1)?.url.searchParams.get('cursor')).toBe('place-after-r-1');
  });

  it('keeps what is shown when a later page fails, with the error', async () => {
    const { fetch } = fakeFetch({
      'GET /api/home/uk/review/': reviewSummary([makeReview(1)], 2),
      'GET /api/home_uk/palestine/comment/reviews': json({ message: 'Try later' }, 500),
    });
    const store = makeStore(undefined, { fetch });
    await store.dispatch(fetchReviewSummary());
    await store.dispatch(fetchReviewsPage({ page: 2, cursor: selectReviewList(store.getState()).cursor }));
    const list = selectReviewList(store.getState());
    expect([list.status, list.error, list.products.length, list.nextPage]).toEqual(['failed', 'Try later', 1, 2]);
  });

  it('keeps only the id and name of each drink for the form', async () => {
    const { fetch, calls } = fakeFetch({ 'GET /api/product/': [mango, cola] });
    const store = makeStore(undefined, { fetch });
    await store.dispatch(fetchReviewDrinks());
    await store.dispatch(fetchReviewDrinks());
    expect(selectReviewDrinks(store.getState()).items).toEqual([
      { _id: 'p-mango', name: 'Mango Fizz' },
      { _id: 'p-cola', name: 'Classic Cola' },
    ]);
    expect(calls).toHaveLength(1);
  });

  it('sends e-mail and comment trimmed and lower-cased, the name trimmed, then sets the reload flags', async () => {
    const { fetch, calls } = fakeFetch({ 'POST /api/reviews/create/': json(layla, 201) });
    const store = makeStore(undefined, { fetch });
    await store.dispatch(
      sendReview({ rating: 4, comment: '  Crisp And FIZZY  ', fullname: '  Layla Haddad ', email: ' Layla@Example.COM ', products: 'p-cola' }),
    );
    expect(calls[0]?.body).toEqual({
      rating: 4,
      comment: 'crisp and fizzy',
      fullname: 'Layla Haddad',
      email: 'layla@example.com',
      products: 'p-cola',
    });
    expect(selectReviewForm(store.getState())).toEqual({ status: 'loaded', error: null, reload: true });
    expect(selectReviewSummary(store.getState()).reload).toBe(true);
  });

  it("sends a delivered e-mail's link token, or the session, instead of an e-mail", async () => {
    const { fetch, calls } = fakeFetch({ 'POST /api/reviews/create/': json(layla, 201) });
    const store = makeStore(undefined, { fetch });
    const form = { rating: 5, comment: 'Just right', fullname: 'Layla Haddad', email: 'typed@example.com', products: 'p-cola' };
    await store.dispatch(sendReview(form, { kind: 'link', token: 'o-1.70.99.sig' }));
    await store.dispatch(sendReview(form, { kind: 'signedIn' }));
    const created = calls.filter((call) => call.url.pathname === '/api/reviews/create/');
    expect(created[0]?.body).toEqual({ rating: 5, comment: 'just right', fullname: 'Layla Haddad', products: 'p-cola', token: 'o-1.70.99.sig' });
    expect(created[1]?.body).toEqual({ rating: 5, comment: 'just right', fullname: 'Layla Haddad', products: 'p-cola' });
  });

  it("stores the server's refusal as the form's error", async () => {
    const { fetch } = fakeFetch({ 'POST /api/reviews/create/': json({ message: 'products: no drink has this id' }, 422) });
    const store = makeStore(undefined, { fetch });
    await store.dispatch(sendReview({ rating: 4, comment: 'crisp and fizzy', fullname: 'Layla Haddad', email: 'l@example.com', products: 'x' }));
    expect(selectReviewForm(store.getState())).toEqual({ status: 'failed', error: 'products: no drink has this id', reload: false });
    expect(selectReviewSummary(store.getState()).reload).toBe(false);
  });
});
