// Dates as the shop shows them: day/month/year, en-GB, in UTC so a date never shifts with the visitor's zone.

const dayMonthYear = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `value` in `format`, then `suffix`; text Date cannot read comes back unchanged. */
function formatWith(format: Intl.DateTimeFormat, value: string | number | Date, suffix = ''): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : `${format.format(date)}${suffix}`;
}

/** An ISO date (or anything Date parses) as `22/11/2026`; text Date cannot read comes back unchanged. */
export function formatDate(value: string | number | Date): string {
  return formatWith(dayMonthYear, value);
}

const dayMonthYearTime = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** An ISO time as `22/11/2026, 10:05 UTC` (a hold that ends within minutes needs its time); text Date cannot read comes back unchanged. */
export function formatDateTime(value: string | number | Date): string {
  return formatWith(dayMonthYearTime, value, ' UTC');
}
