import { queryOptions } from '@tanstack/react-query';
import { isRecord } from '@/lib/values/is-record';
import { openLedgerStream } from './ledger-stream';
import type { Schemas } from './schema';
import { getLedgerEnd, type ReadScope } from './updates';

/**
 * How much of the active contract set uses a package: its templates' active contracts that the
 * caller can see, counted from the `/v2/state/active-contracts` stream. Only what counting needs
 * is read of each contract (its template id and stakeholders): nothing is kept, so a large set
 * costs the page its parsing alone.
 */

/** Counting stops here; the answer then says "at least". */
export const PACKAGE_USAGE_LIMIT = 100_000;
/** At most this many distinct stakeholders are collected, for the preference check. */
export const MAX_USAGE_PARTIES = 50;

export type PackageUsageQuery = {
  packageId: string;
  /** `Module:Entity` of each of the package's templates. */
  templates: readonly string[];
  scope: ReadScope;
  limit?: number;
};

export type PackageUsage = {
  /** Active contracts of the package's templates (of this package id, not other versions). */
  total: number;
  /** Per `Module:Entity`. */
  byTemplate: Record<string, number>;
  /** False when counting stopped at the limit. */
  isComplete: boolean;
  /** Signatories and observers of those contracts, at most {@link MAX_USAGE_PARTIES}, sorted. */
  stakeholders: string[];
  /** The offset the set was read at. */
  activeAtOffset: number;
  /** The caller may read no party's contracts: nothing could be counted. */
  readsNothing: boolean;
};

/** The stream request: one template filter per template, for every party in the scope. */
export function packageUsageRequest(query: PackageUsageQuery, activeAtOffset: number) {
  const filters = {
    cumulative: query.templates.map((template) => ({
      identifierFilter: {
        TemplateFilter: {
          value: { templateId: `${query.packageId}:${template}`, includeCreatedEventBlob: false },
        },
      },
    })),
  } satisfies Schemas['Filters'];
  const eventFormat: Schemas['EventFormat'] =
    query.scope.kind === 'any-party'
      ? { filtersForAnyParty: filters, verbose: false }
      : {
          filtersByParty: Object.fromEntries(query.scope.parties.map((party) => [party, filters])),
          verbose: false,
        };
  return { activeAtOffset, eventFormat };
}

/** Counts the package's active contracts at the ledger end, up to the limit. */
export async function countPackageContracts(
  query: PackageUsageQuery,
  signal?: AbortSignal,
): Promise<PackageUsage> {
  const limit = query.limit ?? PACKAGE_USAGE_LIMIT;
  const activeAtOffset = await getLedgerEnd(signal);
  const usage: PackageUsage = {
    total: 0,
    byTemplate: Object.fromEntries(query.templates.map((template) => [template, 0])),
    isComplete: true,
    stakeholders: [],
    activeAtOffset,
    readsNothing: query.scope.kind === 'parties' && query.scope.parties.length === 0,
  };
  if (query.templates.length === 0 || usage.readsNothing) return usage;
  const prefix = `${query.packageId}:`;
  const stakeholders = new Set<string>();
  const note = (parties: unknown) => {
    if (!Array.isArray(parties)) return;
    for (const party of parties) {
      if (stakeholders.size >= MAX_USAGE_PARTIES) return;
      if (typeof party === 'string') stakeholders.add(party);
    }
  };
  await new Promise<void>((resolve, reject) => {
    const stream = openLedgerStream({
      path: '/v2/state/active-contracts',
      request: () => packageUsageRequest(query, activeAtOffset),
      onElements: (elements) => {
        if (!usage.isComplete) return;
        for (const element of elements) {
          const event = createdEventOf(element);
          // A participant may match a package-id filter by package name (other versions too).
          if (!event || typeof event.templateId !== 'string') continue;
          if (!event.templateId.startsWith(prefix)) continue;
          if (usage.total >= limit) {
            usage.isComplete = false;
            stream.close();
            return;
          }
          usage.total++;
          const template = event.templateId.slice(prefix.length);
          usage.byTemplate[template] = (usage.byTemplate[template] ?? 0) + 1;
          if (stakeholders.size < MAX_USAGE_PARTIES) {
            note(event.signatories);
            note(event.observers);
          }
        }
      },
      onStatus: (status) => {
        if (status.kind === 'ended' || status.kind === 'closed') resolve();
        if (status.kind === 'failed') reject(status.error);
      },
      batchMs: 20,
    });
    signal?.addEventListener('abort', () => {
      stream.close();
    });
  });
  usage.stakeholders = [...stakeholders].sort();
  return usage;
}

function createdEventOf(element: unknown): Record<string, unknown> | undefined {
  if (!isRecord(element) || !isRecord(element.contractEntry)) return undefined;
  const active = element.contractEntry.JsActiveContract;
  if (!isRecord(active) || !isRecord(active.createdEvent)) return undefined;
  return active.createdEvent;
}

export const packageUsageQueries = {
  all: () => ['package-usage'] as const,
  contracts: (query: PackageUsageQuery) =>
    queryOptions({
      queryKey: [...packageUsageQueries.all(), 'contracts', query],
      queryFn: ({ signal }) => countPackageContracts(query, signal),
      staleTime: 5_000,
      meta: { errorDisplay: 'inline' },
    }),
};
