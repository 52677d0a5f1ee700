import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table wider than a phone, scrolling sideways within the page. The scrolling box takes the
 * focus (a named region), so keyboard users can scroll it with the arrow keys as well: a table of
 * plain text has nothing else to focus (axe's scrollable-region-focusable).
 */
export function TableScroller({
  label,
  minWidth,
  children,
}: {
  /** Names the region; the table's own name ("Import plan") reads well. */
  label: string;
  minWidth: number;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}
    >
      {children}
    </Table.ScrollContainer>
  );
}
