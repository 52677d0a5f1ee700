/** One page of a token-paged list (users, parties): its items and the token of the next page. */
export type ListPage<T> = { items: readonly T[]; nextPageToken: string | undefined };

/** How long a count is fresh: long enough for a page's loader and its sections to share it. */
export const COUNT_STALE_MS = 5_000;

/** How many there are, or, when not `isComplete`, how many were read before the bound. */
export type BoundedCount = { count: number; isComplete: boolean };

/** The items of a list up to a bound, and whether they are all there are. */
export type BoundedItems<T> = { items: T[]; isComplete: boolean };

/**
 * The first `limit` items of a token-paged list, and whether there are more: one page of `limit`,
 * then, when it came with a token, one page of a single item to tell "exactly full" from "more".
 * The participant gives a full page a token even when nothing follows (ledger-api-behaviour.md
 * §2.6, §5.2), so the token alone cannot say. At most two requests and `limit + 1` items, however
 * large the list: a dashboard counts, it does not read everything.
 */
export async function readBounded<T>(
  readPage: (pageSize: number, pageToken: string) => Promise<ListPage<T>>,
  limit: number,
): Promise<BoundedItems<T>> {
  const first = await readPage(limit, '');
  const items = first.items.slice(0, limit);
  // A participant that ignored the page size has answered the question already.
  if (first.items.length > limit) return { items, isComplete: false };
  if (!first.nextPageToken) return { items, isComplete: true };
  const next = await readPage(1, first.nextPageToken);
  return { items, isComplete: next.items.length === 0 };
}
