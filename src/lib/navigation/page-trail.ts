/**
 * Where a paged list is, for lists the API pages with forward-only tokens and no totals (users,
 * parties), kept in URL search params so reload, back/forward and shared links land on the same
 * page.
 *
 * Page N can only be reached with the token that page N-1 returned, so the URL carries the whole
 * trail: one `token` param per page after the first, in order (`?size=50&page=3&token=A&token=B`).
 * Going back drops the last token; going forward appends the one the current page returned. `page`
 * is redundant with the trail and kept for people reading the URL; when the two disagree, the
 * trail wins, and a `page` below it cuts the trail short (so editing the number down still works).
 * Tokens are opaque here: nothing decodes them.
 */

import { formatCount } from '@/lib/text/format';

export type PageTrail = {
  pageSize: number;
  /** The tokens that open pages 2…current, in order; empty on page 1. */
  pageTokens: readonly string[];
};

/** The page sizes a list offers, and the one it starts with (left out of the URL). */
export type PageSizeOptions = {
  sizes: readonly number[];
  defaultSize: number;
};

/** 1-based. */
export function pageNumber(trail: PageTrail): number {
  return trail.pageTokens.length + 1;
}

/** The token to request the current page with; `''` for the first page. */
export function currentPageToken(trail: PageTrail): string {
  return trail.pageTokens.at(-1) ?? '';
}

/** The position of the current page's first row, 1-based, e.g. 101 on page 2 of size 100. */
export function firstRowPosition(trail: PageTrail): number {
  return trail.pageTokens.length * trail.pageSize + 1;
}

/**
 * The status line of a page of `rowCount` rows, e.g. "Showing users 101–200"; "No more users" for
 * an empty page after the first; with `matchCount` (a filter is on), "Showing 3 matches among
 * users 101–200". The API gives no totals, so it says only what the page shows.
 */
export function pageStatusText(
  trail: PageTrail,
  rowsNoun: string,
  rowCount: number,
  matchCount?: number,
): string {
  const first = firstRowPosition(trail);
  const range =
    rowCount === 0
      ? `no ${rowsNoun}`
      : `${rowsNoun} ${String(first)}–${String(first + rowCount - 1)}`;
  if (matchCount !== undefined) {
    return `Showing ${formatCount(matchCount, 'match', 'matches')} among ${range}`;
  }
  return rowCount === 0 ? `No more ${rowsNoun}` : `Showing ${range}`;
}

/** Reads `size`, `page` and `token` params; a size not offered falls back to the default. */
export function parsePageTrail(params: URLSearchParams, options: PageSizeOptions): PageTrail {
  const size = Number(params.get('size'));
  const pageSize = options.sizes.includes(size) ? size : options.defaultSize;
  const tokens = params.getAll('token').filter((token) => token !== '');
  const page = Number(params.get('page'));
  const reachable =
    Number.isInteger(page) && page >= 1 && page <= tokens.length
      ? tokens.slice(0, page - 1)
      : tokens;
  return { pageSize, pageTokens: reachable };
}

/**
 * Appends `size` (unless the default), `page` and the tokens (unless on page 1) to `params`, so
 * the first page of the default size adds nothing. Returns `params`.
 */
export function appendPageTrail(
  params: URLSearchParams,
  trail: PageTrail,
  options: PageSizeOptions,
): URLSearchParams {
  if (trail.pageSize !== options.defaultSize) params.set('size', String(trail.pageSize));
  if (trail.pageTokens.length > 0) {
    params.set('page', String(pageNumber(trail)));
    for (const token of trail.pageTokens) params.append('token', token);
  }
  return params;
}

export function nextPage<T extends PageTrail>(state: T, nextPageToken: string): T {
  return { ...state, pageTokens: [...state.pageTokens, nextPageToken] };
}

export function previousPage<T extends PageTrail>(state: T): T {
  return { ...state, pageTokens: state.pageTokens.slice(0, -1) };
}

/** A new page size starts again from the first page: the old trail was cut for the old size. */
export function withPageSize<T extends PageTrail>(state: T, pageSize: number): T {
  return { ...state, pageSize, pageTokens: [] };
}
