import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, type RefObject } from 'react';
import { observeRectAfterLayout } from '@/components/observe-rect-after-layout';
import { DataTableBody, type DataTableBodyProps } from './data-table-body';
import { FALLBACK_RECT, estimatedRowHeight } from './row-geometry';

const observeAfterLayout = observeRectAfterLayout(FALLBACK_RECT);

type VirtualizedRowsProps<T, K extends string> = Omit<
  DataTableBodyProps<T, K>,
  'items' | 'totalSize' | 'measureElement'
> & {
  scrollRef: RefObject<HTMLDivElement | null>;
  isCards: boolean;
  overscan: number;
};

/**
 * The rows on screen of a long table (TanStack Virtual), with spacers for the rest. A module of
 * its own, loaded when a table first grows past its threshold: a list page of 50 rows does not
 * carry the virtualizer in its first load.
 */
export default function VirtualizedRows<T, K extends string>({
  scrollRef,
  isCards,
  overscan,
  rows,
  columns,
  rowKey,
  isKeyedByPlace,
}: VirtualizedRowsProps<T, K>) {
  // The compiler cannot memoize around the virtualizer's mutable instance; it re-renders on scroll.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimatedRowHeight(isCards, columns.length),
    overscan,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeAfterLayout,
  });

  // Sizes guessed for the other layout are wrong once the screen crosses the breakpoint.
  useEffect(() => {
    virtualizer.measure();
  }, [isCards, virtualizer]);

  return (
    <DataTableBody
      rows={rows}
      // Stable while the rendered range is (TanStack memoizes it), so DataTableBody may skip.
      items={virtualizer.getVirtualItems()}
      totalSize={virtualizer.getTotalSize()}
      columns={columns}
      rowKey={rowKey}
      isKeyedByPlace={isKeyedByPlace}
      measureElement={isCards ? virtualizer.measureElement : undefined}
    />
  );
}
