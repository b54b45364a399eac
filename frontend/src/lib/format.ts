// en-GB formatting shared by every screen: money in pounds and the spec's 30-character truncation. (Dates
// are in dates.ts and meta descriptions in meta.ts: only later screens use them, and a module the first page
// imports brings all its used exports into the first page's script.)

const gbp = /* @__PURE__ */ new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

export const TRUNCATE_AT = 30;

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

/** Text longer than 30 characters is cut to 30 and ends with an ellipsis. */
export function truncate(text: string, max: number = TRUNCATE_AT): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

/** "1 item", "2 items": a count with its noun, singular for one. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
