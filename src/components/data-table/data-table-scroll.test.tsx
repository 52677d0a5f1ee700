import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table';

type Row = { id: string };
const columns: DataTableColumn<Row>[] = [{ key: 'id', header: 'Id', cell: (row) => row.id }];
const rowsUpTo = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `row-${String(i)}` }));

function table(rows: Row[], scrollResetKey?: unknown, overscan?: number) {
  return (
    <MantineProvider>
      <DataTable
        label="Rows"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        {...(scrollResetKey === undefined ? {} : { scrollResetKey })}
        {...(overscan === undefined ? {} : { overscan })}
      />
    </MantineProvider>
  );
}

const scroller = () => {
  const box = screen.getByRole('table', { name: 'Rows' }).parentElement;
  if (!box) throw new Error('no scroll box');
  return box;
};

/** As a browser does: the offset moves, then a scroll event says so. */
function scrollTo(top: number) {
  scroller().scrollTop = top;
  fireEvent.scroll(scroller());
}

describe('DataTable scroll position', () => {
  it('goes back to the top when other rows come, by default', () => {
    const view = render(table(rowsUpTo(300)));
    scrollTo(800);
    view.rerender(table(rowsUpTo(400)));
    expect(scroller().scrollTop).toBe(0);
  });

  it('does not write the offset of a box that is at the top (a write lays the page out)', () => {
    const view = render(table(rowsUpTo(300)));
    const box = scroller();
    let writes = 0;
    Object.defineProperty(box, 'scrollTop', {
      configurable: true,
      get: () => 0,
      set: () => {
        writes += 1;
      },
    });
    view.rerender(table(rowsUpTo(400)));
    view.rerender(table(rowsUpTo(50)));
    expect(writes).toBe(0);
  });

  it('keeps its place while rows are appended under the same scrollResetKey, not after it changes', () => {
    const view = render(table(rowsUpTo(300), 'query-1'));
    scrollTo(800);
    view.rerender(table(rowsUpTo(400), 'query-1'));
    expect(scroller().scrollTop).toBe(800);
    view.rerender(table(rowsUpTo(50), 'query-2'));
    expect(scroller().scrollTop).toBe(0);
  });
});

describe('DataTable above its virtualization threshold', () => {
  it('renders the first screenful at once, and only the rows in view once scrolled', async () => {
    render(table(rowsUpTo(1000)));
    const rows = () => screen.getAllByRole('row').slice(1);
    // Before and after the virtualizer's code is in: the same first rows, none of the others.
    expect(rows()).toHaveLength(27);
    expect(rows()[0]).toHaveAttribute('aria-rowindex', '2');
    expect(screen.getByRole('table', { name: 'Rows' })).toHaveAttribute('aria-rowcount', '1001');

    // At 40 px a row, 20,000 px down is row 500; the view (600 px) and 12 more on each side.
    await waitFor(() => {
      scroller().scrollTop = 20_000;
      fireEvent.scroll(scroller());
      expect(screen.getByText('row-500')).toBeInTheDocument();
    });
    expect(screen.queryByText('row-0')).toBeNull();
    expect(rows().length).toBeLessThan(45);
    expect(rows()[0]).toHaveAttribute('aria-rowindex', String(500 - 12 + 2));
  });

  it('renders only as many rows beyond the screen as it is told to', async () => {
    render(table(rowsUpTo(1000), undefined, 2));
    const rows = () => screen.getAllByRole('row').slice(1);
    // The view (600 px: 15 rows) and 2 more, before and after the virtualizer's code is in.
    expect(rows()).toHaveLength(17);
    await waitFor(() => {
      scroller().scrollTop = 20_000;
      fireEvent.scroll(scroller());
      expect(screen.getByText('row-500')).toBeInTheDocument();
    });
    expect(rows()[0]).toHaveAttribute('aria-rowindex', String(500 - 2 + 2));
    expect(rows()).toHaveLength(2 + 15 + 2);
  });
});
