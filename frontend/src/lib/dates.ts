// Dates as the shop shows them: day/month/year, en-GB, in UTC so a date never shifts with the visitor's zone.

const dayMonthYear = /* @__PURE__ */ new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
});

/** An ISO date (or anything Date parses) as `22/11/2026`; text Date cannot read comes back unchanged. */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return dayMonthYear.format(date);
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
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${dayMonthYearTime.format(date)} UTC`;
}
