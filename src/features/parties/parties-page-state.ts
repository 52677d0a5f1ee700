/**
 * Where the parties list is, as URL search params, so reload, back/forward and shared links land on
 * the same page. As for users, the API pages with forward-only tokens and gives no totals, so the
 * URL carries the whole token trail: one `token` param per page after the first, in order
 * (`?idp=acme&size=50&page=3&token=A&token=B`). `page` is redundant with the trail and kept for
 * people reading the URL; a `page` below the trail cuts it short.
 */

/** Page sizes offered; the API allows up to 10 000, but a page is meant to be read. */
export const PARTIES_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;
export const DEFAULT_PARTIES_PAGE_SIZE = 100;

export type PartiesPageState = {
  pageSize: number;
  /** The tokens that open pages 2…current, in order; empty on page 1. */
  pageTokens: readonly string[];
  /** Whose view of the parties: `''` is the default IdP. */
  identityProviderId: string;
};

export const firstPartiesPage: PartiesPageState = {
  pageSize: DEFAULT_PARTIES_PAGE_SIZE,
  pageTokens: [],
  identityProviderId: '',
};

/** 1-based. */
export function partiesPageNumber(state: PartiesPageState): number {
  return state.pageTokens.length + 1;
}

/** The token to request the current page with; `''` for the first page. */
export function currentPartiesPageToken(state: PartiesPageState): string {
  return state.pageTokens.at(-1) ?? '';
}

/** The position of the current page's first party, 1-based, e.g. 101 on page 2 of size 100. */
export function firstPartyPosition(state: PartiesPageState): number {
  return state.pageTokens.length * state.pageSize + 1;
}

export function parsePartiesPageState(params: URLSearchParams): PartiesPageState {
  const size = Number(params.get('size'));
  const pageSize = (PARTIES_PAGE_SIZES as readonly number[]).includes(size)
    ? size
    : DEFAULT_PARTIES_PAGE_SIZE;
  const tokens = params.getAll('token').filter((token) => token !== '');
  const page = Number(params.get('page'));
  const reachable =
    Number.isInteger(page) && page >= 1 && page <= tokens.length
      ? tokens.slice(0, page - 1)
      : tokens;
  return { pageSize, pageTokens: reachable, identityProviderId: params.get('idp') ?? '' };
}

/** The search params for a page state; defaults are left out, so page 1 is plain `/parties`. */
export function toPartiesPageSearchParams(state: PartiesPageState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.identityProviderId !== '') params.set('idp', state.identityProviderId);
  if (state.pageSize !== DEFAULT_PARTIES_PAGE_SIZE) params.set('size', String(state.pageSize));
  if (state.pageTokens.length > 0) {
    params.set('page', String(partiesPageNumber(state)));
    for (const token of state.pageTokens) params.append('token', token);
  }
  return params;
}

export function nextPartiesPage(state: PartiesPageState, nextPageToken: string): PartiesPageState {
  return { ...state, pageTokens: [...state.pageTokens, nextPageToken] };
}

export function previousPartiesPage(state: PartiesPageState): PartiesPageState {
  return { ...state, pageTokens: state.pageTokens.slice(0, -1) };
}

/** A new page size starts again from the first page: the old trail was cut for the old size. */
export function withPartiesPageSize(state: PartiesPageState, pageSize: number): PartiesPageState {
  return { ...state, pageSize, pageTokens: [] };
}

/** Another IdP's view starts again from the first page. */
export function withPartiesIdentityProvider(
  state: PartiesPageState,
  identityProviderId: string,
): PartiesPageState {
  return { ...state, identityProviderId, pageTokens: [] };
}
