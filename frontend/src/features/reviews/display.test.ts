import { describe, expect, it } from 'vitest';
import { basedOn, reviewDate, reviewImage, starsLabel } from './display';

describe('how a review shows', () => {
  it('shows the Date text when it is longer than 3 characters, else createdAt as day/month/year', () => {
    expect(reviewDate({ Date: '22 November 2026', createdAt: '2026-11-01T10:00:00Z' })).toBe('22 November 2026');
    expect(reviewDate({ Date: 'Sept', createdAt: '2026-11-01T10:00:00Z' })).toBe('Sept');
    expect(reviewDate({ Date: 'Jan', createdAt: '2026-11-01T10:00:00Z' })).toBe('01/11/2026');
    expect(reviewDate({ Date: '   ', createdAt: '2026-11-01T23:30:00Z' })).toBe('01/11/2026');
    expect(reviewDate({ createdAt: '2026-02-09T00:00:00Z' })).toBe('09/02/2026');
  });

  it('shows the picture only when its name is longer than 4 characters, under /uploads/', () => {
    expect(reviewImage({ image: 'a.png' })).toBe('/uploads/a.png');
    expect(reviewImage({ image: 'a.pn' })).toBeNull();
    expect(reviewImage({ image: '' })).toBeNull();
    expect(reviewImage({})).toBeNull();
  });

  it('says the stars and the count in words', () => {
    expect(starsLabel(4)).toBe('4 out of 5 stars');
    expect(basedOn(1)).toBe('Based on 1 review');
    expect(basedOn(12)).toBe('Based on 12 reviews');
  });
});
