// The one table every admin list draws with (orders, drinks, users, reviews, codes, subscribers): headers
// that sort (a click sorts by the column, a second click reverses; aria-sort says which), a filter bar (free
// text, the table's status choice, a date range), a pager, and a CSV export of every row that passes the
// filters, in the order shown. What is shown lives in the URL's query string (tableQuery.ts), so reload and
// back/forward keep it. Rows are all in the browser: see wholeList.ts for why.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import ui from '../../components/ui.module.css';
import { downloadCsv, toCsv } from './csv';
import { readQuery, viewRows, writeQuery, type CsvColumn, type TableModel, type TableQuery } from './tableQuery';
import styles from './AdminTable.module.css';
import { TableScroll } from './TableScroll';

export interface Column<T> {
  /** The sort key (the model's `sortBy`) and the React key. */
  key: string;
  label: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned figures. */
  num?: boolean;
  /** This column's cell is the row's header (th scope=row). */
  rowHeader?: boolean;
  /** The header is read by screen readers only (an actions column). */
  hiddenLabel?: boolean;
}

export interface TableFilterBar {
  /** The label of the free-text field ('Search by name, e-mail or order id'). */
  text?: string;
  status?: { label: string; options: readonly { value: string; label: string }[] };
  /** What the date range is over ('Placed', 'Joined'). */
  date?: string;
  /** The label of the "show archived rows" box, for a table whose model archives rows. */
  archived?: string;
}

export interface AdminTableProps<T> {
  rows: readonly T[];
  model: TableModel<T>;
  columns: readonly Column<T>[];
  rowKey: (row: T) => string;
  filters: TableFilterBar;
  csv: { fileName: string; columns: readonly CsvColumn<T>[] };
  /** The rows' name in the plural ('orders'). */
  noun: string;
  caption: string;
  testId?: string;
  rowTestId?: string;
  /** More pages are still on their way from the server. */
  loadingMore?: boolean;
  pageSize?: number;
}

function FilterBar({ filters, query, onApply, onClear }: { filters: TableFilterBar; query: TableQuery; onApply: (q: Partial<TableQuery>) => void; onClear: () => void }) {
  const id = useId();
  const [text, setText] = useState(query.q);
  const [from, setFrom] = useState(query.from);
  const [to, setTo] = useState(query.to);
  // Back/forward or a link changes the query: the fields follow it in the same render (an effect would
  // paint one frame with the old text in the box first).
  const [shown, setShown] = useState({ q: query.q, from: query.from, to: query.to });
  if (shown.q !== query.q || shown.from !== query.from || shown.to !== query.to) {
    setShown({ q: query.q, from: query.from, to: query.to });
    setText(query.q);
    setFrom(query.from);
    setTo(query.to);
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ q: text.trim(), from, to });
  };
  return (
    <form className={styles.filters} role="search" aria-label="Filter the list" onSubmit={submit}>
      {filters.text && (
        <div className={styles.field}>
          <label htmlFor={`${id}-q`}>{filters.text}</label>
          <input id={`${id}-q`} type="search" value={text} maxLength={200} onChange={(e) => setText(e.target.value)} />
        </div>
      )}
      {filters.status && (
        <div className={styles.field}>
          <label htmlFor={`${id}-status`}>{filters.status.label}</label>
          <select id={`${id}-status`} value={query.status} onChange={(e) => onApply({ q: text.trim(), from, to, status: e.target.value })}>
            <option value="">All</option>
            {filters.status.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {filters.archived && (
        <div className={styles.check}>
          <input
            id={`${id}-archived`}
            type="checkbox"
            checked={query.archived}
            onChange={(e) => onApply({ q: text.trim(), from, to, archived: e.target.checked })}
          />
          <label htmlFor={`${id}-archived`}>{filters.archived}</label>
        </div>
      )}
      {filters.date && (
        <fieldset className={styles.dates}>
          <legend>{filters.date}</legend>
          <div className={styles.field}>
            <label htmlFor={`${id}-from`}>From</label>
            <input id={`${id}-from`} type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${id}-to`}>To</label>
            <input id={`${id}-to`} type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
          </div>
        </fieldset>
      )}
      <div className={styles.buttons}>
        <button type="submit" className={ui.primary}>
          Search
        </button>
        <button type="button" className={ui.secondary} onClick={onClear}>
          Clear
        </button>
      </div>
    </form>
  );
}

function SortHeader<T>({ column, query, sortable, onSort }: { column: Column<T>; query: TableQuery; sortable: boolean; onSort: () => void }) {
  const active = query.sort === column.key;
  const className = column.num ? styles.num : undefined;
  // A header that cannot sort says nothing a card's own labels do not: on a phone it is for screen readers.
  const plain = [className, styles.plainHead].filter(Boolean).join(' ');
  if (column.hiddenLabel)
    return (
      <th scope="col" role="columnheader" className={plain}>
        <span className="visually-hidden">{column.label}</span>
      </th>
    );
  if (!sortable)
    return (
      <th scope="col" role="columnheader" className={plain}>
        {column.label}
      </th>
    );
  const sort = active ? (query.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  return (
    <th scope="col" role="columnheader" className={className} aria-sort={sort}>
      <button type="button" className={styles.sort} onClick={onSort}>
        {column.label}
        <span aria-hidden="true" className={styles.arrow}>
          {sort === 'ascending' ? '▲' : sort === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

export function AdminTable<T>({ rows, model, columns, rowKey, filters, csv, noun, caption, testId, rowTestId, loadingMore = false, pageSize }: AdminTableProps<T>) {
  const [params, setParams] = useSearchParams();
  const query = readQuery(params);
  const view = viewRows(rows, model, query, pageSize);
  const go = (next: Partial<TableQuery>) => setParams(writeQuery({ ...query, page: 1, ...next }));
  const filtered = Boolean(query.q || query.status || query.from || query.to);
  const archivedLeftOut = view.exported.length - view.matching.length;
  const first = view.matching.length ? (view.page - 1) * (pageSize ?? 20) + 1 : 0;
  const last = first ? first + view.shown.length - 1 : 0;

  return (
    <div className={styles.table}>
      <FilterBar filters={filters} query={query} onApply={go} onClear={() => setParams(new URLSearchParams())} />
      <div className={styles.summary}>
        <p aria-live="polite" data-testid="table-count">
          {view.matching.length === 0
            ? `No ${noun}${filtered ? ' match these filters' : ''}`
            : `${first}–${last} of ${view.matching.length} ${noun}${filtered ? ` (filtered from ${rows.length})` : ''}`}
          {archivedLeftOut > 0 && ` · ${archivedLeftOut} archived not listed (the CSV has them)`}
          {loadingMore && ' · loading more…'}
        </p>
        <button
          type="button"
          className={ui.secondary}
          disabled={view.exported.length === 0}
          onClick={() => downloadCsv(csv.fileName, toCsv(csv.columns.map((c) => c.label), view.exported.map((row) => csv.columns.map((c) => c.value(row)))))}
        >
          Download CSV
        </button>
      </div>
      <TableScroll label={caption}>
        {/* On a phone the rows become cards (CSS): the roles are spelt out, so the table stays a table to
            screen readers whatever display the CSS gives its parts, and each cell shows its column's name. */}
        <table role="table" className={styles.grid} data-testid={testId}>
          <caption className="visually-hidden">{caption}</caption>
          {/* eslint-disable-next-line jsx-a11y/no-redundant-roles -- spelt out on purpose: the phone layout's CSS display would drop the implicit role */}
          <thead role="rowgroup">
            <tr role="row">
              {columns.map((column) => (
                <SortHeader
                  key={column.key}
                  column={column}
                  query={query}
                  sortable={Boolean(model.sortBy[column.key])}
                  onSort={() => go({ sort: column.key, dir: query.sort === column.key && query.dir === 'asc' ? 'desc' : 'asc', page: 1 })}
                />
              ))}
            </tr>
          </thead>
          {/* eslint-disable-next-line jsx-a11y/no-redundant-roles -- spelt out on purpose: the phone layout's CSS display would drop the implicit role */}
          <tbody role="rowgroup">
            {view.shown.map((row) => (
              <tr key={rowKey(row)} role="row" data-testid={rowTestId}>
                {columns.map((column) => {
                  const label = column.hiddenLabel ? '' : column.label;
                  return column.rowHeader ? (
                    <th key={column.key} scope="row" role="rowheader" data-label={label} className={column.num ? styles.num : undefined}>
                      <div className={styles.value}>{column.cell(row)}</div>
                    </th>
                  ) : (
                    // eslint-disable-next-line jsx-a11y/no-interactive-element-to-noninteractive-role -- a cell's own role, spelt out for the phone layout as above (the rule takes td for a grid's interactive cell)
                    <td key={column.key} role="cell" data-label={label} className={column.num ? styles.num : undefined}>
                      <div className={styles.value}>{column.cell(row)}</div>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {view.pages > 1 && (
        <nav className={styles.pager} aria-label={`Pages of ${noun}`}>
          <button type="button" className={ui.secondary} disabled={view.page <= 1} onClick={() => go({ ...query, page: view.page - 1 })}>
            Previous page
          </button>
          <span>
            Page {view.page} of {view.pages}
          </span>
          <button type="button" className={ui.secondary} disabled={view.page >= view.pages} onClick={() => go({ ...query, page: view.page + 1 })}>
            Next page
          </button>
        </nav>
      )}
    </div>
  );
}
