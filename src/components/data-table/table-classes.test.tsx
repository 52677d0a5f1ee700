import { MantineProvider, Table } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable } from './data-table';
import classes from './data-table.module.css';

// Data attributes of DataTable's own (its CSS module, the virtualizer), not Mantine's.
const OURS = new Set(['data-sortable', 'data-index', 'data-label', 'data-card']);

/** An element's class names, data attributes and inline style, as Mantine's stylesheet sees them. */
function styling(element: Element | null) {
  if (!element) throw new Error('no element');
  const classNames = [...element.classList]
    // Mantine's static class names (mantine-Table-*) are for user CSS; its stylesheet uses the others.
    .filter((name) => name.startsWith('m_'))
    .sort();
  const data = element
    .getAttributeNames()
    .filter((name) => name.startsWith('data-') && !OURS.has(name))
    .sort();
  return { classNames, data, style: element.getAttribute('style') };
}

describe("DataTable's markup", () => {
  it("is styled as Mantine's Table with the props DataTable stands for", () => {
    render(
      <MantineProvider>
        <Table aria-label="Mantine" layout="fixed" stickyHeader highlightOnHover striped={false}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Id</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>one</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <DataTable
          label="Ours"
          columns={[{ key: 'id', header: 'Id', cell: (row: string) => row }]}
          rows={['one']}
          rowKey={(row) => row}
        />
      </MantineProvider>,
    );
    const mantine = screen.getByRole('table', { name: 'Mantine' });
    const ours = screen.getByRole('table', { name: 'Ours' });
    for (const selector of [':scope', 'thead', 'thead tr', 'th', 'tbody', 'tbody tr', 'td']) {
      const expected = styling(
        mantine.matches(selector) ? mantine : mantine.querySelector(selector),
      );
      // Our body rows draw their border with a class of ours (data-table.module.css, bodyRow):
      // Mantine's comes with a :last-of-type rule that restyles every row when one comes or goes.
      if (selector === 'tbody tr') {
        expected.data = expected.data.filter((name) => name !== 'data-with-row-border');
      }
      const actual = styling(ours.matches(selector) ? ours : ours.querySelector(selector));
      // Ours adds its own module classes (card layout, row height) beside Mantine's; widths aside,
      // only the table has a style of Mantine's.
      expect({ ...actual, style: selector === ':scope' ? actual.style : null }).toEqual({
        ...expected,
        style: selector === ':scope' ? expected.style : null,
      });
    }
    expect(classes.bodyRow).toBeTruthy();
    expect(ours.querySelector('tbody tr')).toHaveClass(classes.bodyRow ?? '');
  });
});
