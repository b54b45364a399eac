// en-GB formatting shared by every screen: money in pounds, dates as day/month/year, and the spec's
// text limits (30-character truncation, 165-character meta descriptions).

const gbp = /* @__PURE__ */ new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const dayMonthYear = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

export const TRUNCATE_AT = 30;
export const META_DESCRIPTION_MAX = 165;

/** Pounds as the shop shows them: `£4.99`, `£1,234.50`. */
export function formatMoney(pounds: number): string {
  return gbp.format(Number.isFinite(pounds) ? pounds : 0);
}

/** Pounds to whole pence, rounding half-up so 4.995 becomes 500 (the back end's rule). */
export function toPence(pounds: number): number {
  if (!Number.isFinite(pounds)) return 0;
  // The epsilon absorbs binary noise (1.005 is stored as 1.00499...), which would otherwise round down.
  return Math.sign(pounds) * Math.round(Math.abs(pounds) * 100 + 1e-9);
}

/** An ISO date (or anything Date parses) as `22/11/2026`; text Date cannot read comes back unchanged. */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dayMonthYear.format(date);
}

/** Text longer than 30 characters is cut to 30 and ends with an ellipsis. */
export function truncate(text: string, max: number = TRUNCATE_AT): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

/** A meta description: whitespace collapsed, at most 165 characters. */
export function metaDescription(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return Array.from(clean).slice(0, META_DESCRIPTION_MAX).join('');
}
