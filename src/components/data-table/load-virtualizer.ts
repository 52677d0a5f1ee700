import { useEffect, useState } from 'react';
import type VirtualizedRowsComponent from './virtualized-rows';

type VirtualizedRowsLoad =
  | { status: 'loading' }
  | { status: 'loaded'; component: typeof VirtualizedRowsComponent }
  | { status: 'failed' };

// The virtualizer's module, fetched when a table first grows past its threshold. Not `lazy` and
// Suspense: a table that grows in a transition (a page size chosen, a route change) would then
// keep the old rows until the module is in, where it can show the first rows at once.
let virtualizedRows: Promise<typeof VirtualizedRowsComponent> | undefined;
let loadedVirtualizedRows: typeof VirtualizedRowsComponent | undefined;

function loadVirtualizedRows(): Promise<typeof VirtualizedRowsComponent> {
  virtualizedRows ??= import('./virtualized-rows').then(
    (module) => (loadedVirtualizedRows = module.default),
    (error: unknown) => {
      // The next long table tries again.
      virtualizedRows = undefined;
      throw error;
    },
  );
  return virtualizedRows;
}

/**
 * Fetches the virtualizer's code ahead of a table that will need it. A list that grows while it is
 * watched (the live tail) is virtual from its first row instead: switching a full table over to
 * virtual rows re-creates every row and scrolls the box into place in one task (84 ms traced
 * under load), which a list the user is watching should not pay mid-stream.
 */
export function preloadVirtualizer(): void {
  loadVirtualizedRows().catch(() => {
    // The table falls back to every row, and tries again when it needs the virtualizer.
  });
}

/** The virtualizer's component once loaded (loading it when wanted), or why there is none yet. */
export function useVirtualizedRows(isWanted: boolean): VirtualizedRowsLoad {
  const [load, setLoad] = useState<VirtualizedRowsLoad>(() =>
    loadedVirtualizedRows
      ? { status: 'loaded', component: loadedVirtualizedRows }
      : { status: 'loading' },
  );
  useEffect(() => {
    if (!isWanted || load.status !== 'loading') return;
    let isCurrent = true;
    loadVirtualizedRows().then(
      (component) => {
        if (isCurrent) setLoad({ status: 'loaded', component });
      },
      () => {
        if (isCurrent) setLoad({ status: 'failed' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [isWanted, load.status]);
  // Another table may have loaded it since this one mounted.
  if (load.status === 'loading' && loadedVirtualizedRows) {
    return { status: 'loaded', component: loadedVirtualizedRows };
  }
  return load;
}
