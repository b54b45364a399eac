// CSV for the admin tables' exports (RFC 4180: commas between cells, CRLF between rows, a cell holding a
// quote, comma or line break is quoted with its quotes doubled). A text cell starting with = + - @ (or a
// tab or carriage return) is prefixed with ' so a spreadsheet shows it as text and never runs it as a
// formula. Numbers are written as they are: a number is not a formula, and a spreadsheet should sum them.

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: a byte-order mark (spreadsheets then read £ and accents as UTF-8), a header, the rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [header, ...rows].map((cells) => cells.map(csvCell).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Hands the file to the browser as a download named `fileName`. */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the address can go once the browser has read it.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
