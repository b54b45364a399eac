// The buyer's age from a date of birth, as the server counts it (whole years; a 29 February birthday falls
// on 1 March in other years), so the checkout can say at once that a basket is not theirs to buy.

/** The date of birth in `YYYY-MM-DD` as year, month and day, or null when it is not a real date. */
function parts(text: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? [year, month, day] : null;
}

/** Whole years from `dateOfBirth` to `today` (UTC); null for a date that is not real or in the future. */
export function ageOn(dateOfBirth: string, today: Date = new Date()): number | null {
  const born = parts(dateOfBirth);
  if (!born) return null;
  const [year, month, day] = born;
  const [nowYear, nowMonth, nowDay] = [today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate()];
  const beforeBirthday = nowMonth < month || (nowMonth === month && nowDay < day);
  const years = nowYear - year - (beforeBirthday ? 1 : 0);
  return years < 0 || (years === 0 && Date.UTC(year, month - 1, day) > today.getTime()) ? null : years;
}
