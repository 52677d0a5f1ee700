import { useCallback, useEffect, useRef, useState } from 'react';
import {
  listUserRights,
  listUsers,
  MAX_USERS_PAGE_SIZE,
  toUserRights,
  type User,
} from '@/api/users';
import { partyAccess, type PartyAdministratorRow, type PartyAccessRow } from './party-access';

/** Rights requests in flight at once: quick on a big participant, gentle on a small one. */
const RIGHTS_CONCURRENCY = 6;
// Publishing every answer would re-render the tables thousands of times on a large participant.
const PUBLISH_INTERVAL_MS = 150;

type Found = {
  holders: readonly PartyAccessRow[];
  administrators: readonly PartyAdministratorRow[];
};

/**
 * Where the search stands. Users are listed first (a page at a time), then each user's rights are
 * read; `cancelled` and `failed` keep what was found so far.
 */
export type PartyAccessScanState =
  | ({ status: 'listing'; listed: number } & Found)
  | ({ status: 'reading'; listed: number; checked: number } & Found)
  | ({ status: 'done'; listed: number; unreadable: UnreadableUser[] } & Found)
  | ({ status: 'cancelled'; listed: number; checked: number; isListingDone: boolean } & Found)
  | ({ status: 'failed'; listed: number; error: unknown } & Found);

/** A user whose rights could not be read (deleted meanwhile, or refused). */
export type UnreadableUser = { userId: string; error: unknown };

const byUserId = <T extends { userId: string }>(rows: T[]) =>
  rows.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));

/**
 * Finds who can act, read and execute as `party`: lists every user the caller may list, then
 * reads each one's rights, {@link RIGHTS_CONCURRENCY} at a time, and reports progress. Starts on
 * mount; `cancel` stops it (the answers still in flight are dropped), `start` begins again.
 *
 * A snapshot the page asked for, deliberately not cached: it is never refreshed behind the
 * user's back, and it goes when the user leaves the page.
 */
export function usePartyAccessScan(party: string, partyIdentityProviderId: string) {
  const [state, setState] = useState<PartyAccessScanState>({
    status: 'listing',
    listed: 0,
    holders: [],
    administrators: [],
  });
  const controllerRef = useRef<AbortController | undefined>(undefined);
  // What the run has so far, for `cancel`, which must not wait for the next answer.
  const progressRef = useRef({
    listed: 0,
    checked: 0,
    isListingDone: false,
    snapshot: (): Found => ({ holders: [], administrators: [] }),
  });

  // Sets state only once answers arrive, so the mount effect may call it.
  const launch = useCallback(() => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    // A function, so TypeScript does not take the flag for constant across the awaits below.
    const isCancelled = () => controller.signal.aborted;
    const { signal } = controller;
    const holders: PartyAccessRow[] = [];
    const administrators: PartyAdministratorRow[] = [];
    const snapshot = (): Found => ({
      holders: byUserId(holders.slice()),
      administrators: byUserId(administrators.slice()),
    });
    const progress = { listed: 0, checked: 0, isListingDone: false, snapshot };
    progressRef.current = progress;

    void (async () => {
      const users: User[] = [];
      try {
        let pageToken = '';
        do {
          const page = await listUsers({ pageSize: MAX_USERS_PAGE_SIZE, pageToken }, signal);
          if (isCancelled()) return;
          users.push(...(page.users ?? []));
          pageToken = page.nextPageToken ?? '';
          progress.listed = users.length;
          setState({ status: 'listing', listed: users.length, holders: [], administrators: [] });
        } while (pageToken !== '');
      } catch (error) {
        // An abort surfaces as a network error from the client; it is the user's cancel.
        if (isCancelled()) return;
        setState({
          status: 'failed',
          listed: users.length,
          error,
          holders: [],
          administrators: [],
        });
        return;
      }
      progress.isListingDone = true;

      const unreadable: UnreadableUser[] = [];
      let next = 0;
      let lastPublished = 0;
      let trailing: ReturnType<typeof setTimeout> | undefined;
      const publish = () => {
        clearTimeout(trailing);
        trailing = undefined;
        if (isCancelled()) return;
        lastPublished = Date.now();
        setState({
          status: 'reading',
          listed: users.length,
          checked: progress.checked,
          ...snapshot(),
        });
      };
      const worker = async () => {
        while (!isCancelled()) {
          const user = users[next];
          next += 1;
          if (user === undefined) return;
          const identityProviderId = user.identityProviderId ?? '';
          try {
            const rights = toUserRights(
              await listUserRights({ userId: user.id, identityProviderId }, signal),
            );
            if (isCancelled()) return;
            const found = partyAccess(party, partyIdentityProviderId, [
              {
                userId: user.id,
                identityProviderId,
                isDeactivated: user.isDeactivated ?? false,
                rights,
              },
            ]);
            holders.push(...found.holders);
            administrators.push(...found.administrators);
          } catch (error) {
            if (isCancelled()) return;
            unreadable.push({ userId: user.id, error });
          }
          progress.checked += 1;
          const wait = lastPublished + PUBLISH_INTERVAL_MS - Date.now();
          if (wait <= 0) publish();
          // The last answers of a burst still show, even if nothing follows them for a while.
          else trailing ??= setTimeout(publish, wait);
        }
      };
      publish();
      await Promise.all(Array.from({ length: RIGHTS_CONCURRENCY }, worker));
      clearTimeout(trailing);
      if (isCancelled()) return;
      setState({
        status: 'done',
        listed: users.length,
        unreadable: byUserId(unreadable),
        ...snapshot(),
      });
    })();
  }, [party, partyIdentityProviderId]);

  const start = useCallback(() => {
    setState({ status: 'listing', listed: 0, holders: [], administrators: [] });
    launch();
  }, [launch]);

  const cancel = useCallback(() => {
    controllerRef.current?.abort();
    const { listed, checked, isListingDone, snapshot } = progressRef.current;
    setState({ status: 'cancelled', listed, checked, isListingDone, ...snapshot() });
  }, []);

  useEffect(() => {
    launch();
    return () => {
      controllerRef.current?.abort();
    };
  }, [launch]);

  return { state, start, cancel };
}
