import { splitUniqueIdentifier } from '@ledger-console/participant/unique-identifier';
import { formatCount, shortenIdentifier } from '@/lib/text/format';
import { formatKeyValues, keyValues, type KeyValue } from './key-values';
import { hostingEventText, type HostingEvent } from './party-hosting';
import { parseIdentifier, type TransactionEvent, type TransactionEvents } from './model';

/**
 * One line per update, for the live stream and the transactions history: what was created and
 * exercised, by whom, what was archived; a reassignment's move; a topology transaction's party
 * changes; and what a row shows beside the line (who acted, a few key values, the contracts).
 * Built from the console's own event model (the API layer reads the wire into it), so it knows no
 * wire shape. Computed once per update as it is read, never per render: a live list redraws its
 * rows many times a second.
 */

/** Contract ids a summary keeps at most (a row shows the first, its hover the rest). */
export const MAX_CONTRACT_IDS = 3;

/** A reassignment's events as the API layer reads them. */
export type ReassignmentFacts = {
  readonly updateId: string;
  readonly offset: number;
  readonly recordTime?: string;
  readonly commandId?: string;
  readonly workflowId?: string;
  readonly events: readonly {
    readonly kind: 'assigned' | 'unassigned';
    readonly source: string;
    readonly target: string;
    readonly templateId: string;
    /** Empty when the participant did not say (an older wire shape). */
    readonly contractId: string;
    /** Empty when the reassignment ran offline (repair service). */
    readonly submitter: string;
    readonly witnessParties: readonly string[];
  }[];
};

/** A topology transaction's participant authorization events. */
export type TopologyFacts = {
  readonly updateId: string;
  readonly offset: number;
  readonly recordTime?: string;
  readonly synchronizerId?: string;
  readonly events: readonly HostingEvent[];
};

/** A template and how many of its contracts were created. */
export type CreatedCount = { readonly templateId: string; readonly count: number };

/** A choice and how often it was exercised. */
export type ExercisedCount = {
  readonly templateId: string;
  readonly choice: string;
  readonly consuming: boolean;
  readonly count: number;
};

type SummaryBase = {
  readonly updateId: string;
  readonly offset: number;
  readonly recordTime: string | undefined;
  /** Empty for anyone but the submitter. */
  readonly commandId: string | undefined;
  readonly workflowId: string | undefined;
  /** The line itself: plain text, ids shortened to their readable hints. */
  readonly text: string;
  /** The same line with full template, party and contract ids: the line's hover. */
  readonly fullText: string;
  /**
   * Who acted: a transaction's top-level exercisers and the signatories of its top-level creates
   * (the submitters had to authorize both); a reassignment's submitters; none for topology.
   */
  readonly actingParties: readonly string[];
  /** The contracts the update touches, first seen first, at most {@link MAX_CONTRACT_IDS}. */
  readonly contractIds: readonly string[];
  /** How many distinct contracts the update touches in all. */
  readonly contractCount: number;
  /** A few scalar argument fields of its first event (or first create): amount, currency, owner. */
  readonly keyValues: readonly KeyValue[];
  /** `keyValues` as one line (`amount 100 · currency USD`); empty when there are none. */
  readonly keyValuesText: string;
  /** Every party the update names (witnesses, actors, submitters, topology parties): the party filter reads it. */
  readonly parties: readonly string[];
  /** Every template the update touches: the template filter reads it. */
  readonly templateIds: readonly string[];
};

export type TransactionSummary = SummaryBase & {
  readonly kind: 'transaction';
  readonly effectiveAt: string | undefined;
  readonly eventCount: number;
  readonly created: readonly CreatedCount[];
  readonly exercised: readonly ExercisedCount[];
  /** Contracts archived: consuming exercises (LEDGER_EFFECTS) and archived events (ACS_DELTA). */
  readonly archivedCount: number;
};

export type ReassignmentSummary = SummaryBase & {
  readonly kind: 'reassignment';
  readonly eventCount: number;
};

export type TopologySummary = SummaryBase & {
  readonly kind: 'topology';
  readonly eventCount: number;
  /** Empty when the participant did not say. */
  readonly synchronizerId: string;
  /** The participant authorization events, for views that show each (the hosting timeline). */
  readonly events: readonly HostingEvent[];
};

export type UpdateSummary = TransactionSummary | ReassignmentSummary | TopologySummary;
export type UpdateKind = UpdateSummary['kind'];

/** The entity name of a template id (package and module are noise in a one-line summary). */
export function templateLabel(templateId: string): string {
  return parseIdentifier(templateId)?.entityName ?? templateId;
}

/** The readable hint of a party, participant or synchronizer id (`alice::1220…` → `alice`). */
export function idHint(id: string): string {
  return splitUniqueIdentifier(id)?.identifier ?? id;
}

const times = (count: number) => (count > 1 ? ` ×${String(count)}` : '');

/** How a line names things: by short readable names on screen, in full on hover. */
type Naming = {
  template: (templateId: string) => string;
  party: (partyId: string) => string;
  contract: (contractId: string) => string;
};

const SHORT: Naming = { template: templateLabel, party: idHint, contract: shortenIdentifier };
const FULL: Naming = { template: (id) => id, party: (id) => id, contract: (id) => id };

function partiesText(parties: readonly string[], name: Naming['party'] = idHint): string {
  const MAX_NAMED = 3;
  const named = parties.slice(0, MAX_NAMED).map(name).join(', ');
  const more = parties.length - MAX_NAMED;
  return more > 0 ? `${named} and ${String(more)} more` : named;
}

/** The first `max` distinct non-empty ids, and how many distinct ones there are. */
function distinctIds(ids: Iterable<string>, max: number = MAX_CONTRACT_IDS) {
  const seen = new Set<string>();
  for (const id of ids) if (id !== '') seen.add(id);
  return { first: [...seen].slice(0, max), count: seen.size };
}

/**
 * The values a transaction's row shows: those of its first event's argument (the command's own
 * choice or create), or, when that has none worth showing (`Archive {}`), of its first create.
 * Parties other than the row's acting parties count as values (an Iou's owner).
 */
function transactionKeyValues(
  events: readonly TransactionEvent[],
  actingParties: readonly string[],
): readonly KeyValue[] {
  const [first] = events;
  if (!first) return [];
  const options = { partiesShown: actingParties };
  const own = keyValues(first, options);
  if (own.length > 0 || first.kind === 'created') return own;
  const create = events.find((event) => event.kind === 'created');
  return create ? keyValues(create, options) : [];
}

/** Counts keyed in first-seen order, so a summary reads in execution order. */
function countBy<T>(items: Iterable<T>, keyOf: (item: T) => string) {
  const counts = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const key = keyOf(item);
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { item, count: 1 });
  }
  return [...counts.values()];
}

export function summarizeTransaction(transaction: TransactionEvents): TransactionSummary {
  const parties = new Set<string>();
  const acting = new Set<string>();
  const templates = new Set<string>();
  const createdEvents = [];
  const exercisedEvents = [];
  let archivedCount = 0;
  // Events come in node-id order; one past every visible exercise's range is a top-level event.
  let insideUpTo = -1;
  for (const event of transaction.events) {
    templates.add(event.templateId);
    for (const party of event.witnessParties) parties.add(party);
    const isTopLevel = event.nodeId > insideUpTo;
    if (event.kind === 'created') {
      createdEvents.push(event);
      for (const party of event.signatories) {
        parties.add(party);
        if (isTopLevel) acting.add(party);
      }
    } else if (event.kind === 'exercised') {
      exercisedEvents.push(event);
      for (const party of event.actingParties) {
        if (isTopLevel) acting.add(party);
        parties.add(party);
      }
      if (event.consuming) archivedCount += 1;
      insideUpTo = Math.max(insideUpTo, event.lastDescendantNodeId);
    } else {
      archivedCount += 1;
    }
  }
  const created = countBy(createdEvents, (event) => event.templateId).map(
    ({ item, count }): CreatedCount => ({ templateId: item.templateId, count }),
  );
  const exercised = countBy(
    exercisedEvents,
    (event) => `${event.templateId}\n${event.choice}\n${String(event.consuming)}`,
  ).map(({ item, count }): ExercisedCount => ({
    templateId: item.templateId,
    choice: item.choice,
    consuming: item.consuming,
    count,
  }));
  const actingParties = [...acting];
  const contracts = distinctIds(transaction.events.map((event) => event.contractId));
  const values = transactionKeyValues(transaction.events, actingParties);
  return {
    kind: 'transaction',
    updateId: transaction.updateId,
    offset: transaction.offset,
    recordTime: transaction.recordTime,
    effectiveAt: transaction.effectiveAt,
    commandId: transaction.commandId,
    workflowId: transaction.workflowId,
    eventCount: transaction.events.length,
    created,
    exercised,
    archivedCount,
    actingParties,
    contractIds: contracts.first,
    contractCount: contracts.count,
    keyValues: values,
    keyValuesText: formatKeyValues(values),
    parties: [...parties],
    templateIds: [...templates],
    text: transactionText(created, exercised, archivedCount, actingParties, SHORT),
    fullText: transactionText(created, exercised, archivedCount, actingParties, FULL),
  };
}

function transactionText(
  created: readonly CreatedCount[],
  exercised: readonly ExercisedCount[],
  archivedCount: number,
  actingParties: readonly string[],
  name: Naming,
): string {
  const parts: string[] = [];
  if (exercised.length > 0) {
    const choices = exercised.map(
      (entry) =>
        `${name.template(entry.templateId)}:${entry.choice}${entry.consuming ? '' : ' (non-consuming)'}${times(entry.count)}`,
    );
    parts.push(`Exercised ${choices.join(', ')}`);
  }
  if (created.length > 0) {
    const templates = created.map(
      (entry) => `${name.template(entry.templateId)}${times(entry.count)}`,
    );
    parts.push(`${parts.length > 0 ? 'created' : 'Created'} ${templates.join(', ')}`);
  }
  if (archivedCount > 0) {
    parts.push(
      `${parts.length > 0 ? 'archived' : 'Archived'} ${formatCount(archivedCount, 'contract', 'contracts')}`,
    );
  }
  if (parts.length === 0) return 'No events visible to you';
  const by = actingParties.length > 0 ? ` by ${partiesText(actingParties, name.party)}` : '';
  return `${parts.join('; ')}${by}`;
}

export function summarizeReassignment(reassignment: ReassignmentFacts): ReassignmentSummary {
  const parties = new Set<string>();
  const templates = new Set<string>();
  for (const event of reassignment.events) {
    templates.add(event.templateId);
    for (const party of event.witnessParties) parties.add(party);
    if (event.submitter) parties.add(event.submitter);
  }
  const submitters = [...new Set(reassignment.events.map((event) => event.submitter))].filter(
    (submitter) => submitter !== '',
  );
  const contracts = distinctIds(reassignment.events.map((event) => event.contractId));
  return {
    kind: 'reassignment',
    updateId: reassignment.updateId,
    offset: reassignment.offset,
    recordTime: reassignment.recordTime,
    commandId: reassignment.commandId,
    workflowId: reassignment.workflowId,
    eventCount: reassignment.events.length,
    actingParties: submitters,
    contractIds: contracts.first,
    contractCount: contracts.count,
    keyValues: [],
    keyValuesText: '',
    parties: [...parties],
    templateIds: [...templates],
    text: reassignmentText(reassignment, [...templates], submitters, SHORT),
    fullText: reassignmentText(reassignment, [...templates], submitters, FULL),
  };
}

function reassignmentText(
  reassignment: ReassignmentFacts,
  templates: readonly string[],
  submitters: readonly string[],
  name: Naming,
): string {
  // One contract moved (the usual case) is named, with its template; several are counted.
  const moves = countBy(
    reassignment.events,
    (event) => `${event.kind}\n${event.source}\n${event.target}`,
  ).map(({ item, count }) => {
    const verb = item.kind === 'assigned' ? 'Assigned' : 'Unassigned';
    const what =
      count === 1
        ? [name.template(item.templateId), name.contract(item.contractId)]
            .filter((part) => part !== '')
            .join(' ')
        : formatCount(count, 'contract', 'contracts');
    return `${verb} ${what} from ${name.party(item.source)} → ${name.party(item.target)}`;
  });
  if (moves.length === 0) return 'Reassignment with no events visible to you';
  const isSingle = reassignment.events.length === 1;
  const templateList = templates.map(name.template).join(', ');
  const by = submitters.length > 0 ? ` by ${partiesText(submitters, name.party)}` : '';
  return `${moves.join('; ')}${templateList && !isSingle ? ` (${templateList})` : ''}${by}`;
}

function topologyText(topology: TopologyFacts, name: Naming): string {
  const naming = { participant: name.party, party: name.party };
  const lines = topology.events.map((event) => hostingEventText(event, naming));
  return lines.length === 0 ? 'Topology transaction with no events' : lines.join('; ');
}

export function summarizeTopology(topology: TopologyFacts): TopologySummary {
  return {
    kind: 'topology',
    updateId: topology.updateId,
    offset: topology.offset,
    recordTime: topology.recordTime,
    commandId: undefined,
    workflowId: undefined,
    eventCount: topology.events.length,
    synchronizerId: topology.synchronizerId ?? '',
    events: topology.events,
    actingParties: [],
    contractIds: [],
    contractCount: 0,
    keyValues: [],
    keyValuesText: '',
    parties: [...new Set(topology.events.map((event) => event.partyId))],
    templateIds: [],
    text: topologyText(topology, SHORT),
    fullText: topologyText(topology, FULL),
  };
}

/** What the live view and the history filter by; every field optional (absent = no filter). */
export type UpdateFilter = {
  /** Case-insensitive part of a party id (`alice`, or the whole id). */
  readonly party?: string;
  /** Case-insensitive part of a template id (`Iou`, `Main:Iou`, a package id). */
  readonly template?: string;
  /** The kinds shown; absent = every kind. */
  readonly kinds?: readonly UpdateKind[];
};

export function matchesFilter(summary: UpdateSummary, filter: UpdateFilter): boolean {
  if (filter.kinds && !filter.kinds.includes(summary.kind)) return false;
  if (filter.party) {
    const needle = filter.party.toLowerCase();
    if (!summary.parties.some((id) => id.toLowerCase().includes(needle))) return false;
  }
  if (filter.template) {
    const needle = filter.template.toLowerCase();
    if (!summary.templateIds.some((id) => id.toLowerCase().includes(needle))) return false;
  }
  return true;
}
