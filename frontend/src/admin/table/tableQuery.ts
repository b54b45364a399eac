// What an admin table shows, kept in the URL's query string so a reload, a shared link and back/forward keep
// it: `sort` (a column key) with `dir` (asc or desc), `page` (from 1), `q` (free text), `status` (the table's
// one choice filter), `from`/`to` (a date range, YYYY-MM-DD, both days included) and `archived=1` (show the
// rows a table archives: the orders). Defaults are left out.
// The rows themselves are all in the browser (admin/table/wholeList.ts), so sorting, filtering and paging
// are pure functions of the rows and this query.
import type { CsvValue } from './csv';

export type SortDirection = 'asc' | 'desc';

export interface TableQuery {
  sort: string | null;
  dir: SortDirection;
  page: number;
  q: string;
  status: string;
  from: string;
  to: string;
  /** Show archived rows too (a text search always finds them). */
  archived: boolean;
}

export const PAGE_SIZE = 20;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readQuery(params: URLSearchParams): TableQuery {
  const page = Number(params.get('page'));
  const day = (key: string) => {
    const value = params.get(key) ?? '';
    return DAY.test(value) ? value : '';
  };
  return {
    sort: params.get('sort') || null,
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    q: params.get('q')?.trim() ?? '',
    status: params.get('status') ?? '',
    from: day('from'),
    to: day('to'),
    archived: params.get('archived') === '1',
  };
}

export function writeQuery(query: TableQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.sort) {
    params.set('sort', query.sort);
    params.set('dir', query.dir);
  }
  if (query.q) params.set('q', query.q);
  if (query.status) params.set('status', query.status);
  if (query.from) params.set('from', query.from);
  if (query.to) params.set('to', query.to);
  if (query.archived) params.set('archived', '1');
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

export type SortValue = string | number | null | undefined;

/** What a table knows about its rows, besides how to draw them. */
export interface TableModel<T> {
  /** Sort keys: the value a column sorts by. A column without one does not sort. */
  sortBy: Record<string, (row: T) => SortValue>;
  /** The texts the free-text filter looks in (case and accents ignored). */
  text?: (row: T) => readonly (string | null | undefined)[];
  /** The choice filter's value(s) of a row: it passes when one equals the chosen value. */
  status?: (row: T) => string | readonly string[];
  /** The row's date (ISO 8601) for the date range, compared by its UTC day. */
  date?: (row: T) => string | null | undefined;
  /** An archived row: off the list unless asked for or searched for, always in the CSV. */
  archived?: (row: T) => boolean;
}

/** Lower case without accents, so "cafe" finds "Café". */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** The calendar day of an ISO time as YYYY-MM-DD, in UTC like every date the shop shows (lib/dates.ts). */
export function dayOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

export function filterRows<T>(rows: readonly T[], model: TableModel<T>, query: TableQuery): T[] {
  const words = fold(query.q).split(/\s+/).filter(Boolean);
  return rows.filter((row) => {
    if (words.length && model.text) {
      const hay = fold(model.text(row).filter(Boolean).join(' \n '));
      if (!words.every((word) => hay.includes(word))) return false;
    }
    if (query.status && model.status) {
      const values = model.status(row);
      if (!(typeof values === 'string' ? values === query.status : values.includes(query.status))) return false;
    }
    if ((query.from || query.to) && model.date) {
      const iso = model.date(row);
      const day = iso ? dayOf(iso) : '';
      if (!day || (query.from && day < query.from) || (query.to && day > query.to)) return false;
    }
    return true;
  });
}

const collator = new Intl.Collator('en-GB', { numeric: true, sensitivity: 'base' });

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return collator.compare(String(a), String(b));
}

/** Sorted by the query's column (stable: equal rows keep the server's order); empty values go last. */
export function sortRows<T>(rows: readonly T[], model: TableModel<T>, query: TableQuery): T[] {
  const key = query.sort && model.sortBy[query.sort];
  if (!key) return [...rows];
  const sign = query.dir === 'desc' ? -1 : 1;
  return rows
    .map((row, index) => ({ row, index, value: key(row) }))
    .sort((a, b) => {
      const emptyA = a.value === null || a.value === undefined || a.value === '';
      const emptyB = b.value === null || b.value === undefined || b.value === '';
      if (emptyA || emptyB) return emptyA === emptyB ? a.index - b.index : emptyA ? 1 : -1;
      return sign * compare(a.value, b.value) || a.index - b.index;
    })
    .map(({ row }) => row);
}

export interface TableView<T> {
  /** Every row that passes the filters, in the chosen order, as the list shows them. */
  matching: T[];
  /** The same with the archived rows the list leaves out: what the CSV holds (the accounts want them all). */
  exported: T[];
  /** The page shown. */
  shown: T[];
  /** The page shown (the query's, brought within range) and how many there are (at least 1). */
  page: number;
  pages: number;
}

export function viewRows<T>(rows: readonly T[], model: TableModel<T>, query: TableQuery, pageSize = PAGE_SIZE): TableView<T> {
  const exported = sortRows(filterRows(rows, model, query), model, query);
  const { archived } = model;
  // Archived rows leave the default list; a search (text) finds them, and "Show archived" lists them.
  const matching = archived && !query.archived && !query.q ? exported.filter((row) => !archived(row)) : exported;
  const pages = Math.max(1, Math.ceil(matching.length / pageSize));
  const page = Math.min(query.page, pages);
  return { matching, exported, shown: matching.slice((page - 1) * pageSize, page * pageSize), page, pages };
}

/** One CSV column: its header and the cell of a row. */
export interface CsvColumn<T> {
  label: string;
  value: (row: T) => CsvValue;
}
