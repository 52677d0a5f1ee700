import type { InterfaceImplementation } from './interface-catalog';
import type { LedgerNode } from './transaction';

/** An interface filter's options, with the interface resolved against the package store. */
export type InterfaceSelection = {
  includeInterfaceView: boolean;
  includeCreatedEventBlob: boolean;
  /** How a template (`<package-id>:<Module>:<Entity>`) implements the interface, if it does. */
  implementedBy: (templateId: string) => InterfaceImplementation | undefined;
};

/** One party's (or every party's) part of an event format: what it wants to see and how. */
export type PartyFilter = {
  wildcard: boolean;
  /** Template references as given: `#name:Mod:Ent` or `<package-id>:Mod:Ent`. */
  templates: ReadonlyMap<string, { includeCreatedEventBlob: boolean }>;
  /** Interface references as given; they select the contracts of every implementing template. */
  interfaces: ReadonlyMap<string, InterfaceSelection>;
  wildcardIncludesBlob: boolean;
};

/** A parsed `EventFormat` (or legacy `TransactionFilter`): who asks, and for what. */
export type EventFilter = {
  byParty: ReadonlyMap<string, PartyFilter>;
  anyParty: PartyFilter | null;
  verbose: boolean;
};

export type TransactionShape = 'ACS_DELTA' | 'LEDGER_EFFECTS';

/** A wildcard filter for each party: what the legacy tree endpoints ask for (§7.3). */
export function wildcardFor(parties: Iterable<string>): EventFilter {
  const filter: PartyFilter = {
    wildcard: true,
    templates: new Map(),
    interfaces: new Map(),
    wildcardIncludesBlob: false,
  };
  return {
    byParty: new Map([...parties].map((party) => [party, filter])),
    anyParty: null,
    verbose: true,
  };
}

const qualifiedName = (id: string) => id.slice(id.indexOf(':') + 1);

type Node = Pick<LedgerNode, 'templateId' | 'packageName'>;

/** A filter's entry for an identifier, by package name (`#name:…`) or by package id. */
const entryFor = <T>(entries: ReadonlyMap<string, T>, id: string, packageName: string) =>
  entries.get(`#${packageName}:${qualifiedName(id)}`) ?? entries.get(id);

/**
 * Whether one party's filter selects the node: a wildcard, a template filter on its template, or
 * an interface filter on an interface its template implements (the participant expands those
 * into the implementing templates, whatever their package). `views` are the matched interfaces
 * whose view was asked for; `arguments` is whether a wildcard or template filter matched, which
 * alone renders the create argument and key (EventProjectionProperties).
 */
function filterMatch(filter: PartyFilter, node: Node) {
  let matches = filter.wildcard;
  let blob = filter.wildcard && filter.wildcardIncludesBlob;
  const byTemplate = entryFor(filter.templates, node.templateId, node.packageName);
  if (byTemplate) {
    matches = true;
    blob ||= byTemplate.includeCreatedEventBlob;
  }
  const args = matches;
  const views: InterfaceImplementation[] = [];
  for (const selection of filter.interfaces.values()) {
    const implementation = selection.implementedBy(node.templateId);
    if (!implementation) continue;
    matches = true;
    blob ||= selection.includeCreatedEventBlob;
    if (selection.includeInterfaceView) views.push(implementation);
  }
  return { matches, blob, views, arguments: args };
}

export type Visibility = {
  /** The requesting parties that see the event through a matching filter. */
  parties: string[];
  includeBlob: boolean;
  /**
   * Whether the create argument and key are shown: not when the event matched only interface
   * filters, whose views are then the way to the contract's data.
   */
  includeArguments: boolean;
  /**
   * Interfaces whose view those parties' interface filters ask for, by package-id identifier:
   * a created event carries these views, an archival lists them as implemented interfaces.
   */
  interfaceViews: InterfaceImplementation[];
};

/**
 * Which requesting parties see a node among `candidates` (its witnesses for ledger effects, its
 * stakeholders for ACS deltas), given their template filters. Null when nobody does.
 */
export function visibility(
  filter: EventFilter,
  node: Node,
  candidates: readonly string[],
): Visibility | null {
  const parties = new Set<string>();
  const views = new Map<string, InterfaceImplementation>();
  let includeBlob = false;
  let includeArguments = false;
  const take = (match: ReturnType<typeof filterMatch>, seenBy: readonly string[]) => {
    for (const party of seenBy) parties.add(party);
    for (const view of match.views) views.set(view.interfaceId, view);
    includeBlob ||= match.blob;
    includeArguments ||= match.arguments;
  };
  if (filter.anyParty && candidates.length > 0) {
    const match = filterMatch(filter.anyParty, node);
    if (match.matches) take(match, candidates);
  }
  for (const party of candidates) {
    const partyFilter = filter.byParty.get(party);
    if (!partyFilter) continue;
    const match = filterMatch(partyFilter, node);
    if (match.matches) take(match, [party]);
  }
  if (parties.size === 0) return null;
  return {
    parties: [...parties].sort(),
    includeBlob,
    includeArguments,
    interfaceViews: [...views.values()].sort((a, b) => (a.interfaceId < b.interfaceId ? -1 : 1)),
  };
}
