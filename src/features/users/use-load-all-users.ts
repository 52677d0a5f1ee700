import { useCallback, useEffect, useRef, useState } from 'react';
import { listUsers, MAX_USERS_PAGE_SIZE, type User } from '@/api/users';

type Progress = { users: readonly User[]; pages: number };

/**
 * Where loading every user stands. `cancelled` and `failed` keep what was loaded and the token to
 * continue from, so neither throws away minutes of paging.
 */
export type LoadAllUsersState =
  | { status: 'idle' }
  | ({ status: 'loading' } & Progress)
  | ({ status: 'done' } & Progress)
  | ({ status: 'cancelled'; nextPageToken: string } & Progress)
  | ({ status: 'failed'; nextPageToken: string; error: unknown } & Progress);

/**
 * Pages through every user the caller may list, at the API's largest page size, reporting
 * progress after each page; `cancel` aborts the request in flight.
 *
 * The result is a snapshot the user asked for, to filter, sort and export; it is deliberately not
 * in the query cache: it is never refetched behind the user's back, and it goes when the user
 * leaves the page.
 */
export function useLoadAllUsers() {
  const [state, setState] = useState<LoadAllUsersState>({ status: 'idle' });
  const controllerRef = useRef<AbortController | undefined>(undefined);
  // What the loop has so far, for `cancel`, which must not wait for the next page to land.
  const progressRef = useRef<Progress & { nextPageToken: string }>({
    users: [],
    pages: 0,
    nextPageToken: '',
  });

  useEffect(
    () => () => {
      controllerRef.current?.abort();
    },
    [],
  );

  const run = useCallback((from: Progress & { nextPageToken: string }) => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    progressRef.current = from;
    setState({ status: 'loading', users: from.users, pages: from.pages });

    void (async () => {
      // One growing array, not a copy per page: the set may hold tens of thousands of users.
      const users = [...from.users];
      let { pages, nextPageToken } = from;
      try {
        do {
          const page = await listUsers(
            { pageSize: MAX_USERS_PAGE_SIZE, pageToken: nextPageToken },
            controller.signal,
          );
          if (controller.signal.aborted) return;
          users.push(...(page.users ?? []));
          pages += 1;
          nextPageToken = page.nextPageToken ?? '';
          progressRef.current = { users, pages, nextPageToken };
          // A fresh array per update, so React sees the change.
          setState({ status: 'loading', users: users.slice(), pages });
        } while (nextPageToken !== '');
        setState({ status: 'done', users, pages });
      } catch (error) {
        // An abort surfaces as a network error from the client; it is the user's cancel, not a failure.
        if (controller.signal.aborted) return;
        setState({ status: 'failed', users: users.slice(), pages, nextPageToken, error });
      }
    })();
  }, []);

  const start = useCallback(() => {
    run({ users: [], pages: 0, nextPageToken: '' });
  }, [run]);

  /** Continues a cancelled or failed load from where it stopped. */
  const resume = useCallback(() => {
    run(progressRef.current);
  }, [run]);

  const cancel = useCallback(() => {
    controllerRef.current?.abort();
    const { users, pages, nextPageToken } = progressRef.current;
    setState({ status: 'cancelled', users: users.slice(), pages, nextPageToken });
  }, []);

  /** Drops the loaded set and goes back to paging. */
  const reset = useCallback(() => {
    controllerRef.current?.abort();
    setState({ status: 'idle' });
  }, []);

  return { state, start, resume, cancel, reset };
}
