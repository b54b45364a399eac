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
