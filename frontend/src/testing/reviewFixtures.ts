// Reviews in the shapes docs/api.md fixes (Reviews), for tests.
import type { Review, ReviewSummaryPayload } from '../features/reviews/reviewsSlice';
import { siteInfo } from './fixtures';

export function makeReview(n: number, overrides: Partial<Review> = {}): Review {
  return {
    _id: `r-${n}`,
    rating: 5,
    Date: '',
    createdAt: '2026-11-22T10:00:00Z',
    fullname: `Reviewer ${n}`,
    comment: `review number ${n}: a proper fizzy drink.`,
    image: '',
    products: 'p-cola',
    verified: false,
    ...overrides,
  };
}

/** A page of the public list: `next` is left out on the last page, as the back end does. */
/** A page of the public list: its next page says where this one ended (its last review's place). */
export function reviewPage(reviews: Review[], pageNumber: number, pages: number) {
  const cursor = `place-after-${reviews.at(-1)?._id ?? 'none'}`;
  return { product: reviews, pages, result: pageNumber < pages ? { next: { page: pageNumber + 1, cursor } } : {} };
}

export const layla = makeReview(1, { fullname: 'Layla Haddad', rating: 4, comment: 'crisp and not too sweet.', Date: '22 November 2026', verified: true });
export const sami = makeReview(2, { fullname: 'Sami Khalil', rating: 2, comment: 'too fizzy for me, sorry.', createdAt: '2026-11-03T09:00:00Z', image: 'can.png' });
export const noor = makeReview(3, { fullname: 'Noor Aziz', rating: 5, Date: 'Jan', createdAt: '2026-10-01T09:00:00Z', image: 'a.png' });

/** The summary for `reviews` (one page of them). */
export function reviewSummary(reviews: Review[], pages = 1): ReviewSummaryPayload {
  const counts = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
  for (const r of reviews) counts[String(r.rating) as keyof typeof counts] += 1;
  const total = reviews.length;
  const sum = reviews.reduce((s, r) => s + r.rating, 0);
  return {
    connect: siteInfo,
    ratings: { ...counts, avgRating: total ? Math.round((sum / total) * 10) / 10 : 0, totalComments: total },
    Thecount: total,
    comment: reviewPage(reviews, 1, pages),
  };
}
