import {
  ACTIVE_CONTRACT_COUNTS_PATH,
  type ActiveContractCounts,
  type ActiveContractCountsRequest,
} from '@ledger-console/edge/console-api';
import { queryOptions } from '@tanstack/react-query';
import { env } from '@/env';
import { networkError, toApiError } from '@/lib/errors/api-error';
import { isRecord } from '@/lib/values/is-record';
import { readAccessToken } from './access-token';
import { openLedgerStream } from './ledger-stream';
import type { PackageContents } from './daml-lf-worker';
import type { Schemas } from './schema';
import { getLedgerEnd, type ReadScope } from './updates';

/**
 * How much of the active contract set uses a package: its templates' active contracts that the
 * caller can see, counted from the `/v2/state/active-contracts` stream. The console server counts
 * them when it can (`POST /__console/active-contract-counts`, ADR 021): the participant sends one
 * websocket message per contract, which the server reads several times faster than a busy
 * browser, with the caller's own token. Served without it (a 404), the page reads the stream
 * itself. Only what counting needs is read of each contract (its template id and stakeholders):
 * nothing is kept, so a large set costs the page its parsing alone.
 */

/** `Module:Entity` of each template a decoded package defines: what its usage counts. */
export function templateNamesOf(contents: PackageContents): string[] {
  return contents.modules.flatMap((module) =>
    module.templates.map((template) => `${module.name}:${template.name}`),
  );
}

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
  const counted = await countOnConsoleServer(query, activeAtOffset, limit, signal);
  if (counted === 'not-offered') return countInPage(query, usage, limit, signal);
  const prefix = `${query.packageId}:`;
  for (const [templateId, count] of Object.entries(counted.byTemplateId)) {
    if (!templateId.startsWith(prefix)) continue;
    const template = templateId.slice(prefix.length);
    usage.byTemplate[template] = (usage.byTemplate[template] ?? 0) + count;
  }
  return {
    ...usage,
    total: counted.total,
    isComplete: counted.isComplete,
    stakeholders: counted.stakeholders,
  };
}

// The console server bounds its answer; these bound what the page takes whatever sits between.
const MAX_TEMPLATE_IDS = 10_000;
const MAX_TEXT = 4096;

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function toCounts(value: unknown): ActiveContractCounts | undefined {
  if (!isRecord(value) || !isRecord(value.byTemplateId) || !Array.isArray(value.stakeholders)) {
    return undefined;
  }
  const { total, isComplete } = value;
  if (!isCount(total) || typeof isComplete !== 'boolean') return undefined;
  const entries = Object.entries(value.byTemplateId).slice(0, MAX_TEMPLATE_IDS);
  if (!entries.every(([key, count]) => key.length <= MAX_TEXT && isCount(count))) return undefined;
  const stakeholders = value.stakeholders.slice(0, MAX_USAGE_PARTIES);
  if (!stakeholders.every((party) => typeof party === 'string' && party.length <= MAX_TEXT)) {
    return undefined;
  }
  return {
    total,
    isComplete,
    byTemplateId: Object.fromEntries(entries) as Record<string, number>,
    stakeholders: stakeholders as string[],
  };
}

/**
 * The console server's count, or that the page is served without it: the Vite dev server and any
 * static host answer 404 (or 405) with no error of the participant's, which is no error but a
 * console that reads the stream itself.
 */
async function countOnConsoleServer(
  query: PackageUsageQuery,
  activeAtOffset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<ActiveContractCounts | 'not-offered'> {
  const token = readAccessToken();
  const body: ActiveContractCountsRequest = {
    ...packageUsageRequest(query, activeAtOffset),
    packageId: query.packageId,
    limit,
  };
  let response: Response;
  try {
    response = await globalThis.fetch(`${env.API_BASE_URL}${ACTIVE_CONTRACT_COUNTS_PATH}`, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw networkError(error);
  }
  const answer: unknown = await response.json().catch(() => undefined);
  const isParticipantError = isRecord(answer) && typeof answer.code === 'string';
  if ((response.status === 404 || response.status === 405) && !isParticipantError) {
    return 'not-offered';
  }
  if (!response.ok) throw toApiError(response.status, answer);
  const counts = toCounts(answer);
  if (!counts) throw toApiError(502, 'The console server sent an unreadable count');
  return counts;
}

/** Reads the stream in the page: the console is served without its server's count. */
async function countInPage(
  query: PackageUsageQuery,
  usage: PackageUsage,
  limit: number,
  signal?: AbortSignal,
): Promise<PackageUsage> {
  const { activeAtOffset } = usage;
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
