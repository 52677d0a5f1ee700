import type { LedgerNode } from './transaction';

/** One party's (or every party's) part of an event format: what it wants to see and how. */
export type PartyFilter = {
  wildcard: boolean;
  /** Template references as given: `#name:Mod:Ent` or `<package-id>:Mod:Ent`. */
  templates: ReadonlyMap<string, { includeCreatedEventBlob: boolean }>;
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
  const filter: PartyFilter = { wildcard: true, templates: new Map(), wildcardIncludesBlob: false };
  return {
    byParty: new Map([...parties].map((party) => [party, filter])),
    anyParty: null,
    verbose: true,
  };
}

const qualifiedName = (templateId: string) => templateId.slice(templateId.indexOf(':') + 1);

function templateMatch(filter: PartyFilter, node: Pick<LedgerNode, 'templateId' | 'packageName'>) {
  if (filter.wildcard) return { matches: true, blob: filter.wildcardIncludesBlob };
  const byName = filter.templates.get(`#${node.packageName}:${qualifiedName(node.templateId)}`);
  const byId = filter.templates.get(node.templateId);
  const hit = byName ?? byId;
  return { matches: hit !== undefined, blob: hit?.includeCreatedEventBlob ?? false };
}

export type Visibility = {
  /** The requesting parties that see the event through a matching filter. */
  parties: string[];
  includeBlob: boolean;
};

/**
 * Which requesting parties see a node among `candidates` (its witnesses for ledger effects, its
 * stakeholders for ACS deltas), given their template filters. Null when nobody does.
 */
export function visibility(
  filter: EventFilter,
  node: Pick<LedgerNode, 'templateId' | 'packageName'>,
  candidates: readonly string[],
): Visibility | null {
  const parties = new Set<string>();
  let includeBlob = false;
  if (filter.anyParty) {
    const { matches, blob } = templateMatch(filter.anyParty, node);
    if (matches && candidates.length > 0) {
      for (const party of candidates) parties.add(party);
      includeBlob ||= blob;
    }
  }
  for (const party of candidates) {
    const partyFilter = filter.byParty.get(party);
    if (!partyFilter) continue;
    const { matches, blob } = templateMatch(partyFilter, node);
    if (matches) {
      parties.add(party);
      includeBlob ||= blob;
    }
  }
  if (parties.size === 0) return null;
  return { parties: [...parties].sort(), includeBlob };
}
