import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AdminTable, type Column } from './AdminTable';
import { filterRows, readQuery, sortRows, viewRows, writeQuery, type TableModel } from './tableQuery';

interface Row {
  id: string;
  name: string;
  total: number;
  status: string;
  at: string;
}

const rows: Row[] = Array.from({ length: 45 }, (_, i) => ({
  id: `r${i + 1}`,
  name: i === 0 ? 'Zoë, "the" =boss' : `Customer ${i + 1}`,
  total: ((i * 37) % 100) + 0.5,
  status: i % 3 === 0 ? 'paid' : 'pending',
  at: `2026-11-${String((i % 28) + 1).padStart(2, '0')}T12:00:00Z`,
}));

const model: TableModel<Row> = {
  sortBy: { name: (r) => r.name, total: (r) => r.total, at: (r) => r.at },
  text: (r) => [r.name, r.id],
  status: (r) => r.status,
  date: (r) => r.at,
};

const columns: Column<Row>[] = [
  { key: 'name', label: 'Customer', rowHeader: true, cell: (r) => r.name },
  { key: 'total', label: 'Total', num: true, cell: (r) => r.total.toFixed(2) },
  { key: 'status', label: 'Status', cell: (r) => r.status },
  { key: 'at', label: 'Date', cell: (r) => r.at.slice(0, 10) },
];

const query = (search = '') => readQuery(new URLSearchParams(search));

describe('table query', () => {
  it('reads and writes the URL, leaving defaults out and ignoring nonsense', () => {
    expect(query('sort=total&dir=desc&page=3&q=%20cola%20&status=paid&from=2026-11-01&to=2026-11-30')).toEqual({
      sort: 'total',
      dir: 'desc',
      page: 3,
      q: 'cola',
      status: 'paid',
      from: '2026-11-01',
      to: '2026-11-30',
      archived: false,
    });
    expect(query('archived=1').archived).toBe(true);
    expect(writeQuery({ ...query(''), archived: true }).toString()).toBe('archived=1');
    expect(query('page=-2&from=yesterday&dir=sideways')).toMatchObject({ page: 1, from: '', dir: 'asc', sort: null });
    expect(writeQuery(query('')).toString()).toBe('');
    expect(writeQuery({ ...query(''), sort: 'total', dir: 'desc', page: 2 }).toString()).toBe('sort=total&dir=desc&page=2');
  });

  it('sorts numbers as numbers, text naturally, both ways, and keeps ties in server order', () => {
    const list = [
      { id: 'a', name: 'Drink 10', total: 5, status: '', at: '' },
      { id: 'b', name: 'drink 9', total: 12, status: '', at: '' },
      { id: 'c', name: 'Drink 9', total: 5, status: '', at: '' },
    ];
    expect(sortRows(list, model, query('sort=total')).map((r) => r.id)).toEqual(['a', 'c', 'b']);
    expect(sortRows(list, model, query('sort=total&dir=desc')).map((r) => r.id)).toEqual(['b', 'a', 'c']);
    expect(sortRows(list, model, query('sort=name')).map((r) => r.id)).toEqual(['b', 'c', 'a']);
    expect(sortRows(list, model, query('sort=unknown')).map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });

  it('filters by every word of the text (case and accents ignored), the status and the days, both ends included', () => {
    expect(filterRows(rows, model, query('q=zoe BOSS')).map((r) => r.id)).toEqual(['r1']);
    expect(filterRows(rows, model, query('status=paid'))).toHaveLength(15);
    const days = filterRows(rows, model, query('from=2026-11-02&to=2026-11-03')).map((r) => r.at.slice(0, 10));
    expect(new Set(days)).toEqual(new Set(['2026-11-02', '2026-11-03']));
  });

  it('pages the matching rows 20 at a time and brings a page past the end back in range', () => {
    const view = viewRows(rows, model, query('page=9'));
    expect(view).toMatchObject({ page: 3, pages: 3 });
    expect(view.shown).toHaveLength(5);
    expect(view.matching).toHaveLength(45);
  });

  it('leaves archived rows off the list unless asked for or searched for, and always keeps them for the CSV', () => {
    const archiving: TableModel<Row> = { ...model, archived: (r) => r.status === 'paid' };
    const plain = viewRows(rows, archiving, query(''));
    expect(plain.matching).toHaveLength(30);
    expect(plain.exported).toHaveLength(45);
    expect(viewRows(rows, archiving, query('archived=1')).matching).toHaveLength(45);
    expect(viewRows(rows, archiving, query('q=r1')).matching.map((r) => r.id)).toContain('r1');
    // Filters still apply to what the CSV gets.
    expect(viewRows(rows, archiving, query('status=pending')).exported).toHaveLength(30);
  });
});

function renderTable(path = '/list') {
  const router = createMemoryRouter(
    [
      {
        path: '/list',
        element: (
          <AdminTable
            rows={rows}
            model={model}
            columns={columns}
            rowKey={(r) => r.id}
            filters={{ text: 'Search', status: { label: 'Status', options: [{ value: 'paid', label: 'paid' }, { value: 'pending', label: 'pending' }] }, date: 'Placed' }}
            csv={{ fileName: 'rows.csv', columns: [{ label: 'Customer', value: (r) => r.name }, { label: 'Total', value: (r) => r.total }] }}
            noun="rows"
            caption="Rows"
            rowTestId="row"
          />
        ),
      },
    ],
    { initialEntries: [path] },
  );
  const user = userEvent.setup();
  render(<RouterProvider router={router} />);
  return { router, user };
}

const names = () => screen.getAllByTestId('row').map((row) => within(row).getByRole('rowheader').textContent);

afterEach(() => vi.restoreAllMocks());

describe('AdminTable', () => {
  it('sorts by a header click, then the other way, saying so with aria-sort, and keeps it in the URL', async () => {
    const { router, user } = renderTable();
    const total = screen.getByRole('columnheader', { name: /Total/ });
    expect(total).not.toHaveAttribute('aria-sort');
    await user.click(within(total).getByRole('button'));
    expect(total).toHaveAttribute('aria-sort', 'ascending');
    expect(router.state.location.search).toBe('?sort=total&dir=asc');
    const ascending = screen.getAllByTestId('row').map((row) => Number(within(row).getAllByRole('cell')[0]!.textContent));
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await user.click(within(total).getByRole('button'));
    expect(total).toHaveAttribute('aria-sort', 'descending');
    expect(Number(within(screen.getAllByTestId('row')[0]!).getAllByRole('cell')[0]!.textContent)).toBe(Math.max(...rows.map((r) => r.total)));
    // Only sortable columns have a button.
    expect(within(screen.getByRole('columnheader', { name: 'Status' })).queryByRole('button')).not.toBeInTheDocument();
  });

  it('filters by text on Search and by status at once; pages keep the sort and filter; back goes back', async () => {
    const { router, user } = renderTable('/list?sort=name&dir=desc');
    await user.selectOptions(screen.getByLabelText('Status'), 'pending');
    expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 30 rows (filtered from 45)');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(router.state.location.search).toBe('?sort=name&dir=desc&status=pending&page=2');
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(screen.getByTestId('table-count')).toHaveTextContent('21–30 of 30 rows');
    await user.type(screen.getByLabelText('Search'), 'CUSTOMER 44');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    // A new filter starts again at page 1.
    expect(router.state.location.search).toBe('?sort=name&dir=desc&q=CUSTOMER+44&status=pending');
    expect(names()).toEqual(['Customer 44']);
    await router.navigate(-1);
    await waitFor(() => expect(screen.getByText('Page 2 of 2')).toBeInTheDocument());
    expect(screen.getByLabelText('Search')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(router.state.location.search).toBe('');
    expect(screen.getByTestId('table-count')).toHaveTextContent('1–20 of 45 rows');
  });

  it('filters by a date range and says when nothing matches', async () => {
    const { user } = renderTable();
    await user.type(screen.getByLabelText('From'), '2026-11-27');
    await user.type(screen.getByLabelText('To'), '2026-11-28');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getAllByTestId('row').map((row) => within(row).getAllByRole('cell')[2]!.textContent)).toEqual(
      expect.arrayContaining(['2026-11-27', '2026-11-28']),
    );
    expect(screen.getAllByTestId('row').every((row) => /2026-11-2[78]/.test(row.textContent ?? ''))).toBe(true);
    await user.type(screen.getByLabelText('Search'), 'nobody at all');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByTestId('table-count')).toHaveTextContent('No rows match these filters');
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  });

  it('downloads every filtered row, in the order shown, as escaped CSV', async () => {
    let blob: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((object) => {
      blob = object as Blob;
      return 'blob:rows';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('rows.csv');
    });
    const { user } = renderTable('/list?status=paid&sort=total&dir=desc');
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(click).toHaveBeenCalledTimes(1);
    const text = await blob!.text();
    const lines = text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    const paid = rows.filter((r) => r.status === 'paid').sort((a, b) => b.total - a.total);
    expect(lines).toHaveLength(paid.length + 1); // all 15, not just the page shown
    expect(lines[0]).toBe('Customer,Total');
    expect(lines.slice(1).map((line) => Number(line.split(',').at(-1)))).toEqual(paid.map((r) => r.total));
    expect(lines).toContain(`"Zoë, ""the"" =boss",${rows[0]!.total}`);
  });
});
