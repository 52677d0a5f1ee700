import { useState } from 'react';

/**
 * "Reload latest" for an edit form: runs `load` (a fresh read, bypassing the cache's staleness)
 * and hands the answer to `onLoaded`, which resets the form to it. A failed reload keeps the form
 * as it is: a query's failure is reported by the query cache (a toast), not here.
 */
export function useReloadLatest<T>(load: () => Promise<T>, onLoaded: (latest: T) => void) {
  const [isReloading, setIsReloading] = useState(false);
  const reload = () => {
    setIsReloading(true);
    load()
      .then(onLoaded, () => undefined)
      .finally(() => {
        setIsReloading(false);
      });
  };
  return { reload, isReloading };
}
