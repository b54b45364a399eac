import { describe, expect, it } from 'vitest';
import { ageOn } from './age';

const on = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('ageOn', () => {
  it('counts whole years, a birthday reached on the day itself', () => {
    expect(ageOn('2010-06-15', on('2026-06-15'))).toBe(16);
    expect(ageOn('2010-06-16', on('2026-06-15'))).toBe(15);
    // 29 February: 18 on 1 March of a year without one.
    expect(ageOn('2008-02-29', on('2026-02-28'))).toBe(17);
    expect(ageOn('2008-02-29', on('2026-03-01'))).toBe(18);
  });

  it('knows no age for a date that is not real or still to come', () => {
    for (const bad of ['2001-02-30', '30/04/2001', '2001-4-30', '', '2027-01-01']) expect(ageOn(bad, on('2026-06-15'))).toBeNull();
  });
});
