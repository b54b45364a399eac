// How a review shows (spec, section 2): the stored Date text when it is longer than 3 characters, else the
// day it was written as day/month/year; the picture only when its name is longer than 4 characters; the
// stars as words for screen readers.
import { uploadUrl } from '../../lib/api';
import { formatDate } from '../../lib/dates';
import type { Review } from './reviewsSlice';

export const DATE_TEXT_MIN = 4;
export const IMAGE_NAME_MIN = 5;

export function reviewDate(review: Pick<Review, 'createdAt'> & Partial<Pick<Review, 'Date'>>): string {
  const text = review.Date?.trim() ?? '';
  return Array.from(text).length >= DATE_TEXT_MIN ? text : formatDate(review.createdAt);
}

/** The picture's address, or null when the review has none worth showing. */
export function reviewImage(review: Partial<Pick<Review, 'image'>>): string | null {
  const name = review.image ?? '';
  return Array.from(name).length >= IMAGE_NAME_MIN ? uploadUrl(name) : null;
}

/** '4 out of 5 stars', '1 out of 5 stars', '4.3 out of 5 stars'. */
export function starsLabel(rating: number): string {
  return `${rating} out of 5 stars`;
}

/** 'Based on 1 review', 'Based on 12 reviews'. */
export function basedOn(count: number): string {
  return `Based on ${count} ${count === 1 ? 'review' : 'reviews'}`;
}
