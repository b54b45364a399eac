import { describe, expect, it } from 'vitest';
import { nextHidden } from './useHideOnScroll';

describe('navbar on scroll', () => {
  it('shows near the top of the page', () => {
    expect(nextHidden(300, 50, 96)).toBe(false);
  });

  it('hides going down and shows going up', () => {
    expect(nextHidden(200, 400, 96)).toBe(true);
    expect(nextHidden(400, 300, 96)).toBe(false);
  });

  it('ignores tiny moves', () => {
    expect(nextHidden(400, 403, 96)).toBeNull();
  });
});
