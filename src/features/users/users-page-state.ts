/**
 * Where the users list is, as URL search params, so reload, back/forward and shared links land on
 * the same page.
 *
 * The API pages with forward-only tokens and reports no totals, so page N can only be reached
 * with the token that page N-1 returned. The URL therefore carries the whole trail: one `token`
 * param per page after the first, in order (`?size=50&page=3&token=A&token=B`). Going back drops
 * the last token; going forward appends the one the current page returned. `page` is redundant
 * with the trail and kept for people reading the URL; when the two disagree, the trail wins, and
 * a `page` below it cuts the trail short (so editing the number down still works). Tokens are
 * opaque here: nothing decodes them, though the participant's are short (base64 of a user id).
 */

/** Page sizes offered; 1000 is the API's maximum (larger requests are silently capped). */
export const USERS_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;
export const DEFAULT_USERS_PAGE_SIZE = 100;

export type UsersPageState = {
  pageSize: number;
  /** The tokens that open pages 2…current, in order; empty on page 1. */
  pageTokens: readonly string[];
};

export const firstUsersPage: UsersPageState = {
  pageSize: DEFAULT_USERS_PAGE_SIZE,
  pageTokens: [],
};

/** 1-based. */
export function usersPageNumber(state: UsersPageState): number {
  return state.pageTokens.length + 1;
}

/** The token to request the current page with; `''` for the first page. */
export function currentUsersPageToken(state: UsersPageState): string {
  return state.pageTokens.at(-1) ?? '';
}

/** The position of the current page's first user, 1-based, e.g. 101 on page 2 of size 100. */
export function firstUserPosition(state: UsersPageState): number {
  return state.pageTokens.length * state.pageSize + 1;
}

export function parseUsersPageState(params: URLSearchParams): UsersPageState {
  const size = Number(params.get('size'));
  const pageSize = (USERS_PAGE_SIZES as readonly number[]).includes(size)
    ? size
    : DEFAULT_USERS_PAGE_SIZE;
  const tokens = params.getAll('token').filter((token) => token !== '');
  const page = Number(params.get('page'));
  const reachable =
    Number.isInteger(page) && page >= 1 && page <= tokens.length
      ? tokens.slice(0, page - 1)
      : tokens;
  return { pageSize, pageTokens: reachable };
}

/** The search params for a page state; defaults are left out, so page 1 is plain `/users`. */
export function toUsersPageSearchParams(state: UsersPageState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.pageSize !== DEFAULT_USERS_PAGE_SIZE) params.set('size', String(state.pageSize));
  if (state.pageTokens.length > 0) {
    params.set('page', String(usersPageNumber(state)));
    for (const token of state.pageTokens) params.append('token', token);
  }
  return params;
}

export function nextUsersPage(state: UsersPageState, nextPageToken: string): UsersPageState {
  return { ...state, pageTokens: [...state.pageTokens, nextPageToken] };
}

export function previousUsersPage(state: UsersPageState): UsersPageState {
  return { ...state, pageTokens: state.pageTokens.slice(0, -1) };
}

/** A new page size starts again from the first page: the old trail was cut for the old size. */
export function withUsersPageSize(pageSize: number): UsersPageState {
  return { pageSize, pageTokens: [] };
}
