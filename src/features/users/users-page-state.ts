import { appendPageTrail, parsePageTrail, type PageTrail } from '@/lib/navigation/page-trail';

/**
 * Where the users list is, as URL search params: the page size and the token trail
 * (`?size=50&page=3&token=A&token=B`, see `@/lib/navigation/page-trail`). The participant's tokens are short
 * (base64 of a user id), so the trail stays readable.
 */

/** Page sizes offered; 1000 is the API's maximum (larger requests are silently capped). */
export const USERS_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;
export const DEFAULT_USERS_PAGE_SIZE = 100;
const pageSizes = { sizes: USERS_PAGE_SIZES, defaultSize: DEFAULT_USERS_PAGE_SIZE };

export type UsersPageState = PageTrail;

export const firstUsersPage: UsersPageState = {
  pageSize: DEFAULT_USERS_PAGE_SIZE,
  pageTokens: [],
};

export function parseUsersPageState(params: URLSearchParams): UsersPageState {
  return parsePageTrail(params, pageSizes);
}

/** The search params for a page state; defaults are left out, so page 1 is plain `/users`. */
export function toUsersPageSearchParams(state: UsersPageState): URLSearchParams {
  return appendPageTrail(new URLSearchParams(), state, pageSizes);
}
