import { openLedgerStream, type LedgerStreamStatus } from './ledger-stream';
import type { Schemas } from './schema';
import { isRecord } from '@/lib/values/is-record';

/**
 * The active contract set (ACS) at an offset, read through the websocket stream
 * `/v2/state/active-contracts`: the plain endpoint stops at 200 contracts, and the paged one takes
 * its request as the body of a GET, which a browser cannot send. The stream is finite: it ends
 * after the last contract.
 */

/** Which contracts: of which parties, at which offset, of which template or interface. */
export type ActiveContractsQuery = {
  /** `'any'`: every party on the participant (needs Read as any party). */
  parties: readonly string[] | 'any';
  activeAtOffset: number;
  filter?: { kind: 'template'; templateId: string } | { kind: 'interface'; interfaceId: string };
};

/** One active contract: the part of its created event a list shows, exports and links. */
export type ActiveContract = {
  contractId: string;
  /** Package-id form, as the participant reports it. */
  templateId: string;
  packageName: string;
  createArgument: unknown;
  contractKey?: unknown;
  signatories: readonly string[];
  observers: readonly string[];
  createdAt: string;
  /** The offset of the update that created (or last assigned) it. */
  offset: number;
  synchronizerId: string;
  /** The picked interface's view of the contract, when the query names an interface. */
  interfaceView?: { value: unknown } | { error: string };
};

/**
 * At most this many contracts are kept; the stream is closed after them. A listed Iou costs the
 * page about 0.5 KiB (bench/contracts-bench.ts: 44 MiB of heap for 100,000, repeated strings
 * shared), so the cap bounds the page near 150 MiB however large the ledger; a narrower filter
 * lists the rest.
 */
export const MAX_ACTIVE_CONTRACTS = 250_000;

const WILDCARD_FILTER = {
  identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: false } } },
} satisfies Schemas['CumulativeFilter'];

function cumulativeFilter(filter: ActiveContractsQuery['filter']): Schemas['CumulativeFilter'] {
  if (!filter) return WILDCARD_FILTER;
  if (filter.kind === 'template') {
    return {
      identifierFilter: {
        TemplateFilter: {
          value: { templateId: filter.templateId, includeCreatedEventBlob: false },
        },
      },
    };
  }
  return {
    identifierFilter: {
      InterfaceFilter: {
        value: {
          interfaceId: filter.interfaceId,
          includeInterfaceView: true,
          includeCreatedEventBlob: false,
        },
      },
    },
  };
}

/**
 * The stream's request message (asyncapi.yaml `GetActiveContractsRequest`); with the continuation
 * token of the last element seen, the snapshot resumes after it (a dropped connection).
 */
export function activeContractsRequest(query: ActiveContractsQuery, continuationToken?: string) {
  const filters = { cumulative: [cumulativeFilter(query.filter)] } satisfies Schemas['Filters'];
  const eventFormat: Schemas['EventFormat'] =
    query.parties === 'any'
      ? { filtersForAnyParty: filters, verbose: true }
      : {
          filtersByParty: Object.fromEntries(query.parties.map((party) => [party, filters])),
          verbose: true,
        };
  return {
    activeAtOffset: query.activeAtOffset,
    eventFormat,
    ...(continuationToken ? { streamContinuationToken: continuationToken } : {}),
  };
}

/** How often the streamed contracts are handed over; the first screenful goes at once. */
export const ACTIVE_CONTRACTS_BATCH_MS = 250;

/**
 * Shares equal short strings (party ids, template ids, currencies): 100,000 contracts of a few
 * parties then hold a few copies of each id instead of hundreds of thousands. Bounded, so that a
 * ledger of unique strings does not grow the table without end.
 */
export class StringPool {
  private readonly pool = new Map<string, string>();
  constructor(
    private readonly maxEntries = 100_000,
    private readonly maxLength = 256,
  ) {}

  /** How many distinct strings are shared. */
  get size(): number {
    return this.pool.size;
  }

  intern(text: string): string {
    if (text.length > this.maxLength) return text;
    const known = this.pool.get(text);
    if (known !== undefined) return known;
    if (this.pool.size < this.maxEntries) this.pool.set(text, text);
    return text;
  }

  /**
   * A JSON value with its string values shared, in place: `value` must be the caller's own (fresh
   * from JSON.parse). Keys are not looked up: JSON.parse already gives equal keys one string.
   * In place, so 100,000 contracts do not each allocate their arguments a second time.
   */
  internValue(value: unknown): unknown {
    if (typeof value === 'string') return this.intern(value);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        value[index] = this.internValue(value[index]);
      }
      return value;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'string') record[key] = this.intern(item);
      else if (typeof item === 'object' && item !== null) this.internValue(item);
    }
    return record;
  }
}

type WireCreatedEvent = Schemas['CreatedEvent'];
type WireInterfaceView = Schemas['JsInterfaceView'];

function viewOf(
  views: readonly WireInterfaceView[] | undefined,
  interfaceId: string | undefined,
): ActiveContract['interfaceView'] {
  if (interfaceId === undefined || !views || views.length === 0) return undefined;
  // The filter may name the interface by package name; the view names it by package id.
  const entity = interfaceId.split(':').slice(1).join(':');
  const view = views.find((candidate) => candidate.interfaceId.endsWith(`:${entity}`)) ?? views[0];
  if (!view) return undefined;
  if (view.viewValue !== undefined && view.viewValue !== null) return { value: view.viewValue };
  const status = view.viewStatus as { message?: unknown } | undefined;
  return {
    error: typeof status?.message === 'string' ? status.message : 'The view was not computed.',
  };
}

/**
 * The active contract an element of the stream carries, or undefined for the other entries
 * (incomplete reassignments, an empty entry): they are not active on a synchronizer at the offset.
 */
export function activeContractOf(
  element: unknown,
  pool: StringPool,
  interfaceId?: string,
): ActiveContract | undefined {
  if (!isRecord(element) || !isRecord(element.contractEntry)) return undefined;
  const active = element.contractEntry.JsActiveContract;
  if (!isRecord(active) || !isRecord(active.createdEvent)) return undefined;
  const event = active.createdEvent as unknown as WireCreatedEvent;
  const view = viewOf(event.interfaceViews, interfaceId);
  return {
    contractId: event.contractId,
    templateId: pool.intern(event.templateId),
    packageName: pool.intern(event.packageName),
    createArgument: pool.internValue(event.createArgument),
    ...(event.contractKey === undefined || event.contractKey === null
      ? {}
      : { contractKey: pool.internValue(event.contractKey) }),
    signatories: event.signatories.map((party) => pool.intern(party)),
    observers: (event.observers ?? []).map((party) => pool.intern(party)),
    createdAt: event.createdAt,
    offset: event.offset,
    synchronizerId: pool.intern(String(active.synchronizerId)),
    ...(view ? { interfaceView: view } : {}),
  };
}

export type ActiveContractsStreamOptions = {
  /** The contracts of each batch of elements, in the participant's order. */
  onContracts: (contracts: ActiveContract[]) => void;
  onStatus: (status: LedgerStreamStatus) => void;
  /** The cap was reached and the stream closed before its end. */
  onCapped?: () => void;
  maxContracts?: number;
};

/** Streams the query's active contracts; `close()` stops it. */
export function streamActiveContracts(
  query: ActiveContractsQuery,
  {
    onContracts,
    onStatus,
    onCapped,
    maxContracts = MAX_ACTIVE_CONTRACTS,
  }: ActiveContractsStreamOptions,
): { close(): void } {
  const pool = new StringPool();
  const interfaceId = query.filter?.kind === 'interface' ? query.filter.interfaceId : undefined;
  let count = 0;
  let isCapped = false;
  let continuationToken: string | undefined;
  const stream = openLedgerStream({
    path: '/v2/state/active-contracts',
    // A finite stream read to its end: each batch re-renders a list as long as all so far, so
    // fewer of them (4 a second) leave the page more of the machine for reading (issue 29).
    batchMs: ACTIVE_CONTRACTS_BATCH_MS,
    // A dropped connection resumes where it stopped: same offset and format, after the last
    // element seen, so no contract is listed twice or missed.
    request: () => activeContractsRequest(query, continuationToken),
    reconnect: true,
    onElements: (elements) => {
      if (isCapped) return;
      const contracts: ActiveContract[] = [];
      for (const element of elements) {
        const token = isRecord(element) ? element.streamContinuationToken : undefined;
        if (typeof token === 'string' && token !== '') continuationToken = token;
        const contract = activeContractOf(element, pool, interfaceId);
        if (!contract) continue;
        if (count >= maxContracts) {
          isCapped = true;
          break;
        }
        contracts.push(contract);
        count++;
      }
      if (contracts.length > 0) onContracts(contracts);
      if (isCapped) {
        stream.close();
        onCapped?.();
      }
    },
    onStatus,
  });
  return stream;
}
