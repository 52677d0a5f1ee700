import { appendPageTrail, parsePageTrail, type PageTrail } from '@/lib/navigation/page-trail';

/**
 * Where the parties list is, as URL search params: whose view (`idp`), the page size and the
 * token trail (`?idp=acme&size=50&page=3&token=A&token=B`, see `@/lib/navigation/page-trail`).
 */

/** Page sizes offered; the API allows up to 10 000, but a page is meant to be read. */
export const PARTIES_PAGE_SIZES = [25, 50, 100, 250, 1000] as const;
export const DEFAULT_PARTIES_PAGE_SIZE = 100;
const pageSizes = { sizes: PARTIES_PAGE_SIZES, defaultSize: DEFAULT_PARTIES_PAGE_SIZE };

export type PartiesPageState = PageTrail & {
  /** Whose view of the parties: `''` is the default IdP. */
  identityProviderId: string;
};

export const firstPartiesPage: PartiesPageState = {
  pageSize: DEFAULT_PARTIES_PAGE_SIZE,
  pageTokens: [],
  identityProviderId: '',
};

export function parsePartiesPageState(params: URLSearchParams): PartiesPageState {
  return { ...parsePageTrail(params, pageSizes), identityProviderId: params.get('idp') ?? '' };
}

/** The search params for a page state; defaults are left out, so page 1 is plain `/parties`. */
export function toPartiesPageSearchParams(state: PartiesPageState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.identityProviderId !== '') params.set('idp', state.identityProviderId);
  return appendPageTrail(params, state, pageSizes);
}

/** Another IdP's view starts again from the first page. */
export function withPartiesIdentityProvider(
  state: PartiesPageState,
  identityProviderId: string,
): PartiesPageState {
  return { ...state, identityProviderId, pageTokens: [] };
}
