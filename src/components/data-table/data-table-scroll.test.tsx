import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableColumn } from './data-table';

type Row = { id: string };
const columns: DataTableColumn<Row>[] = [{ key: 'id', header: 'Id', cell: (row) => row.id }];
const rowsUpTo = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `row-${String(i)}` }));

function table(rows: Row[], scrollResetKey?: unknown) {
  return (
    <MantineProvider>
      <DataTable
        label="Rows"
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        {...(scrollResetKey === undefined ? {} : { scrollResetKey })}
      />
    </MantineProvider>
  );
}

const scroller = () => {
  const box = screen.getByRole('table', { name: 'Rows' }).parentElement;
  if (!box) throw new Error('no scroll box');
  return box;
};

describe('DataTable scroll position', () => {
  it('goes back to the top when other rows come, by default', () => {
    const view = render(table(rowsUpTo(300)));
    scroller().scrollTop = 800;
    view.rerender(table(rowsUpTo(400)));
    expect(scroller().scrollTop).toBe(0);
  });

  it('keeps its place while rows are appended under the same scrollResetKey, not after it changes', () => {
    const view = render(table(rowsUpTo(300), 'query-1'));
    scroller().scrollTop = 800;
    view.rerender(table(rowsUpTo(400), 'query-1'));
    expect(scroller().scrollTop).toBe(800);
    view.rerender(table(rowsUpTo(50), 'query-2'));
    expect(scroller().scrollTop).toBe(0);
  });
});
