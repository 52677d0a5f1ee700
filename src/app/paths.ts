/** Route patterns and typed link builders, so no component spells a URL by hand. */

/**
 * Marks an id that cannot stand as itself in a route segment. No id the participant issues
 * contains `*` (user ids, IdP ids, party, package and contract ids), so it cannot be confused with
 * one; an id that starts with it anyway is escaped too, which keeps the mapping reversible.
 */
const ESCAPE = '*';

/**
 * An id as one route segment. `.` and `..` are dot segments, which the browser's URL parser
 * removes however they are percent-encoded (`%2E%2E` too) and react-router resolves in links, so
 * `/users/..` lands on the overview; words like `new` name sibling routes. Those get a leading `*`.
 */
function routeSegment(id: string, reserved: readonly string[] = []): string {
  const isSpecial = id === '.' || id === '..' || reserved.includes(id) || id.startsWith(ESCAPE);
  return encodeURIComponent(isSpecial ? `${ESCAPE}${id}` : id);
}

/** The id a route segment (as react-router decodes it) stands for: {@link routeSegment} undone. */
export function idFromRouteSegment(segment: string | undefined): string {
  const value = segment ?? '';
  return value.startsWith(ESCAPE) ? value.slice(ESCAPE.length) : value;
}

/** A user is addressed by id and IdP (`''` = default); the IdP travels as a search param. */
function userPath(userId: string, identityProviderId = ''): string {
  return withIdentityProvider(
    `/users/${routeSegment(userId, ['new', 'import'])}`,
    identityProviderId,
  );
}

/** A party's page; its details differ per IdP (a participant admin sees another IdP's as not local). */
function partyPath(party: string, identityProviderId = ''): string {
  return withIdentityProvider(
    `/parties/${routeSegment(party, ['new', 'new-external'])}`,
    identityProviderId,
  );
}

function withIdentityProvider(base: string, identityProviderId: string): string {
  return identityProviderId ? `${base}?idp=${encodeURIComponent(identityProviderId)}` : base;
}

export const paths = {
  overview: { pattern: '/', to: () => '/' },
  signIn: {
    pattern: '/sign-in',
    /** `from`: where to return after signing in. */
    to: (from?: string) => (from ? `/sign-in?from=${encodeURIComponent(from)}` : '/sign-in'),
  },
  /** Where OpenID providers send the browser back (registered at each provider). */
  signInCallback: { pattern: '/sign-in/callback', to: () => '/sign-in/callback' },
  /** An access request link of a person not onboarded yet, for an admin to review. */
  accessRequest: { pattern: '/access-requests/review', to: () => '/access-requests/review' },
  users: { pattern: '/users', to: () => '/users' },
  newUser: {
    pattern: '/users/new',
    /** Prefilled with a user id and IdP (an access request's); the form checks them. */
    to: (prefill?: { userId: string; identityProviderId: string }) => {
      if (!prefill) return '/users/new';
      const params = new URLSearchParams({ userId: prefill.userId });
      if (prefill.identityProviderId) params.set('idp', prefill.identityProviderId);
      return `/users/new?${params.toString()}`;
    },
  },
  /** Bulk import of people to onboard, from a CSV or JSON file. */
  usersImport: { pattern: '/users/import', to: () => '/users/import' },
  user: { pattern: '/users/:userId', to: userPath },
  onboard: {
    pattern: '/onboard',
    /** Prefilled from an access request; the form checks every value like typed input. */
    to: (prefill?: {
      subject: string;
      identityProviderId: string;
      displayName?: string;
      requestedAccess?: string;
    }) => {
      if (!prefill) return '/onboard';
      const params = new URLSearchParams({ sub: prefill.subject });
      if (prefill.identityProviderId) params.set('idp', prefill.identityProviderId);
      if (prefill.displayName) params.set('name', prefill.displayName);
      if (prefill.requestedAccess) params.set('access', prefill.requestedAccess);
      return `/onboard?${params.toString()}`;
    },
  },
  identityProviders: { pattern: '/identity-providers', to: () => '/identity-providers' },
  newIdentityProvider: {
    pattern: '/identity-providers/new',
    to: () => '/identity-providers/new',
  },
  identityProvider: {
    pattern: '/identity-providers/:identityProviderId',
    to: (identityProviderId: string) =>
      `/identity-providers/${routeSegment(identityProviderId, ['new'])}`,
  },
  parties: { pattern: '/parties', to: () => '/parties' },
  newParty: { pattern: '/parties/new', to: () => '/parties/new' },
  newExternalParty: {
    pattern: '/parties/new-external',
    /** `search`: a prefill's query string (the feature's `externalPartyPrefillSearch`). */
    to: (search = '') =>
      search === '' ? '/parties/new-external' : `/parties/new-external?${search}`,
  },
  party: { pattern: '/parties/:party', to: partyPath },
  packages: { pattern: '/packages', to: () => '/packages' },
  uploadDar: { pattern: '/packages/upload', to: () => '/packages/upload' },
  /** The vetting change planner; `search` is the plan (the feature's `planSearch`). */
  vettingPlan: {
    pattern: '/packages/vetting-plan',
    to: (search = '') => (search ? `/packages/vetting-plan?${search}` : '/packages/vetting-plan'),
  },
  package: {
    pattern: '/packages/:packageId',
    to: (packageId: string) => `/packages/${routeSegment(packageId, ['upload', 'vetting-plan'])}`,
  },
  composer: {
    pattern: '/composer',
    /** With `exercise`, the composer opens an exercise on that contract, its choices offered. */
    to: (prefill?: { exercise: { contractId: string; templateId: string } }) => {
      if (!prefill) return '/composer';
      const params = new URLSearchParams({
        exercise: prefill.exercise.contractId,
        template: prefill.exercise.templateId,
      });
      return `/composer?${params.toString()}`;
    },
  },
  transactions: {
    pattern: '/transactions',
    /** The viewer; with an update id it opens that update, and `node` selects one of its nodes. */
    to: (updateId?: string, nodeId?: number) => {
      const params = new URLSearchParams();
      if (updateId) params.set('update', updateId);
      if (nodeId !== undefined) params.set('node', String(nodeId));
      const query = params.toString();
      return query ? `/transactions?${query}` : '/transactions';
    },
    /** The viewer opening the update at an offset; it then moves to the update id's URL. */
    atOffset: (offset: number, nodeId?: number) => {
      const params = new URLSearchParams({ offset: String(offset) });
      if (nodeId !== undefined) params.set('node', String(nodeId));
      return `/transactions?${params.toString()}`;
    },
  },
  /** The active contracts of the parties the caller picks (issue 17). */
  contracts: {
    pattern: '/contracts',
    /** A shareable view: whose contracts, at which offset (else the ledger end), which ones. */
    to: (view?: {
      parties?: readonly string[];
      offset?: number;
      template?: string;
      interface?: string;
      search?: string;
    }) => {
      const params = new URLSearchParams();
      for (const party of view?.parties ?? []) params.append('party', party);
      if (view?.offset !== undefined) params.set('offset', String(view.offset));
      if (view?.template) params.set('template', view.template);
      if (view?.interface) params.set('interface', view.interface);
      if (view?.search) params.set('q', view.search);
      const query = params.toString();
      return query ? `/contracts?${query}` : '/contracts';
    },
  },
  /** The update stream as it happens, from the ledger end. */
  live: { pattern: '/live', to: () => '/live' },
  contract: {
    pattern: '/contracts/:contractId',
    to: (contractId: string) => `/contracts/${routeSegment(contractId)}`,
  },
  /** Takes no token in the URL: tokens never appear in URLs (history, logs, Referer). */
  tokenDoctor: { pattern: '/token-doctor', to: () => '/token-doctor' },
  /** The admin changes made from this console, kept in the browser. */
  activity: { pattern: '/activity', to: () => '/activity' },
  /** Paid traffic cost of a window's commands, by user, party, template and choice (issue 27). */
  traffic: { pattern: '/traffic', to: () => '/traffic' },
  /** Every participant of the console at a glance (a fleet's; issue 28). */
  fleet: { pattern: '/fleet', to: () => '/fleet' },
} as const;
