import { buildTree } from './build-tree';
import { layoutTree, type LayoutOptions, type TreeLayout } from './layout';
import {
  describeNode,
  getNode,
  type NodeId,
  type TransactionEvent,
  type TransactionTree,
  type TreeNode,
} from './model';
import { buildVisibleTree, type CollapsedSet } from './visibility';
import { shortenIdentifier } from '@/lib/text/format';

/**
 * One transaction as two participants see it (issue 28, "Compare projections"). Canton gives each
 * participant only its projection: the nodes one of its parties witnesses, a witness of a node
 * being an informee of it or of any node above it (Daml's disclosure). Node ids are the full
 * transaction's in every projection, so the two trees are merged by node id into one union tree,
 * laid out once, and each side drawn on that layout with what it lacks ghosted. Whether a side
 * sees a node is what its projection holds (the fact); why is told from the node's informees and
 * where each is hosted (the explanation), so a disagreement between the two (a party hosted there
 * that the reader may not read there) is said rather than hidden.
 *
 * Informees as the ledger model defines them (and the sandbox's interpreter follows): a create's
 * signatories and observers; a consuming exercise's contract stakeholders and acting parties; a
 * non-consuming exercise's contract signatories and acting parties. Choice observers are informees
 * too but no event reports them; an exercised contract created outside this transaction has
 * stakeholders the events do not list, so they are inferred from the witnesses no ancestor explains.
 */

/** `here`: the participant whose page this is; `there`: the one compared with. */
export type ProjectionSide = 'here' | 'there';

export type SeenBy = 'both' | 'here-only' | 'there-only';

/**
 * Whether each participant hosts a party, as its `/v2/parties` says (`isLocal`); undefined where
 * that participant could not be asked, or the party was not looked up (see `partiesToLookUp`).
 */
export type PartyHosting = ReadonlyMap<
  string,
  { readonly here: boolean | undefined; readonly there: boolean | undefined }
>;

export type ParticipantNames = { readonly here: string; readonly there: string };

export type InformeeRole = 'signatory' | 'observer' | 'stakeholder' | 'acting party';

export type Informee = { readonly party: string; readonly roles: readonly InformeeRole[] };

/** A party through which a participant sees a node. */
export type Witness = {
  readonly party: string;
  /** Null: an informee of the node itself; else the nearest node above it that has the party as informee. */
  readonly via: NodeId | null;
};

export type SideProjection = {
  /** The node is in this participant's projection. */
  readonly sees: boolean;
  /** Its hosted witnesses (hosting as looked up, and the event's own witness parties). */
  readonly through: readonly Witness[];
};

export type ComparedNode = {
  readonly nodeId: NodeId;
  /** "Create Iou", of the union's event (here's when both have it). */
  readonly description: string;
  readonly seenBy: SeenBy;
  readonly informees: readonly Informee[];
  readonly here: SideProjection;
  readonly there: SideProjection;
  /** Why, in a sentence or two, naming participants and parties. */
  readonly reason: string;
};

export type ProjectionComparison = {
  readonly names: ParticipantNames;
  /** Both projections merged by node id: the one tree both sides are drawn on. */
  readonly union: TransactionTree;
  /** By node id, for every node of the union. */
  readonly nodes: ReadonlyMap<NodeId, ComparedNode>;
  readonly counts: { readonly both: number; readonly hereOnly: number; readonly thereOnly: number };
};

/** How many parties' hosting is looked up for one comparison; the rest stay unknown. */
export const MAX_HOSTING_LOOKUPS = 50;

/** A node back as the event it was built from: the fields the builder does not derive. */
function eventOf(node: TreeNode): TransactionEvent {
  const common = {
    nodeId: node.nodeId,
    contractId: node.contractId,
    templateId: node.templateId,
    packageName: node.packageName,
    witnessParties: node.witnessParties,
    acsDelta: node.acsDelta,
  };
  switch (node.kind) {
    case 'created':
      return {
        ...common,
        kind: 'created',
        createArgument: node.createArgument,
        contractKey: node.contractKey,
        signatories: node.signatories,
        observers: node.observers,
        createdAt: node.createdAt,
      };
    case 'exercised':
      return {
        ...common,
        kind: 'exercised',
        choice: node.choice,
        choiceArgument: node.choiceArgument,
        exerciseResult: node.exerciseResult,
        consuming: node.consuming,
        interfaceId: node.interfaceId,
        actingParties: node.actingParties,
        lastDescendantNodeId: node.lastDescendantNodeId,
      };
    case 'archived':
      return { ...common, kind: 'archived' };
  }
}

/**
 * Both projections merged by node id, `here`'s event where both have the node (`there`'s witness
 * parties differ; the rest is the same transaction's). The structure comes from node ids and
 * exercise ranges, which are the full transaction's on both sides, so a node keeps its place.
 */
export function unionTree(here: TransactionTree, there: TransactionTree): TransactionTree {
  const events: TransactionEvent[] = [];
  for (const node of here.nodes.values()) events.push(eventOf(node));
  for (const node of there.nodes.values()) {
    if (!here.nodes.has(node.nodeId)) events.push(eventOf(node));
  }
  // The header is this side's: offsets are per participant. buildTree reads only the header.
  return buildTree({ ...here, events });
}

const ROLE_ORDER: readonly InformeeRole[] = [
  'signatory',
  'observer',
  'stakeholder',
  'acting party',
];

function addRole(roles: Map<string, Set<InformeeRole>>, party: string, role: InformeeRole) {
  let set = roles.get(party);
  if (!set) {
    set = new Set();
    roles.set(party, set);
  }
  set.add(role);
}

/**
 * The informees of each node of the union, as far as the events tell (see the module comment).
 * `witnessesOf` gives each side's witness parties of a node, for the stakeholders of contracts
 * created elsewhere.
 */
function informeesOf(
  union: TransactionTree,
  witnessesOf: (id: NodeId) => readonly string[],
): Map<NodeId, Informee[]> {
  const result = new Map<NodeId, Informee[]>();
  const parties = new Map<NodeId, Set<string>>();
  for (const id of union.order) {
    const node = getNode(union, id);
    const roles = new Map<string, Set<InformeeRole>>();
    if (node.kind === 'created') {
      for (const party of node.signatories) addRole(roles, party, 'signatory');
      for (const party of node.observers) addRole(roles, party, 'observer');
    } else {
      const create = node.createdBy === null ? undefined : union.nodes.get(node.createdBy);
      const consuming = node.kind === 'archived' || node.consuming;
      if (create?.kind === 'created') {
        for (const party of create.signatories) addRole(roles, party, 'signatory');
        if (consuming) for (const party of create.observers) addRole(roles, party, 'observer');
      } else {
        // A contract from an earlier transaction: a witness no ancestor explains is a stakeholder.
        const inherited = node.parentId === null ? undefined : parties.get(node.parentId);
        for (const party of witnessesOf(id)) {
          if (!inherited?.has(party)) addRole(roles, party, 'stakeholder');
        }
      }
      if (node.kind === 'exercised') {
        for (const party of node.actingParties) addRole(roles, party, 'acting party');
      }
    }
    const informees = [...roles].map(([party, set]) => ({
      party,
      roles: ROLE_ORDER.filter((role) => set.has(role)),
    }));
    result.set(id, informees);
    // Witnesses: this node's informees and those of every node above it.
    const seen = new Set(node.parentId === null ? [] : (parties.get(node.parentId) ?? []));
    for (const informee of informees) seen.add(informee.party);
    parties.set(id, seen);
  }
  return result;
}

/** The nearest node at or above `id` that has `party` as informee; undefined if none. */
function informeeSource(
  union: TransactionTree,
  informees: ReadonlyMap<NodeId, readonly Informee[]>,
  id: NodeId,
  party: string,
): NodeId | null | undefined {
  const isInformee = (at: NodeId) =>
    (informees.get(at) ?? []).some((informee) => informee.party === party);
  if (isInformee(id)) return null;
  for (let at = getNode(union, id).parentId; at !== null; at = getNode(union, at).parentId) {
    if (isInformee(at)) return at;
  }
  return undefined;
}

const partyName = (party: string) => shortenIdentifier(party);

/** "a", "a and b", "a, b and c". */
function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function witnessText(union: TransactionTree, informee: readonly Informee[], witness: Witness) {
  if (witness.via === null) {
    const roles = informee.find((entry) => entry.party === witness.party)?.roles ?? [];
    return roles.length > 0
      ? `${partyName(witness.party)} (${roles.join(', ')})`
      : partyName(witness.party);
  }
  const above = getNode(union, witness.via);
  return `${partyName(witness.party)} (a witness of ${describeNode(above)}, node ${String(above.nodeId)})`;
}

/** Where a party is hosted, in words: "hosted on participant1", "hosted on neither", "hosting unknown". */
function hostingText(hosting: PartyHosting, party: string, names: ParticipantNames): string {
  const entry = hosting.get(party);
  if (!entry || (entry.here === undefined && entry.there === undefined)) return 'hosting unknown';
  const on = [...(entry.here ? [names.here] : []), ...(entry.there ? [names.there] : [])];
  if (on.length > 0) return `hosted on ${listText(on)}`;
  if (entry.here === undefined || entry.there === undefined) {
    return `not hosted on ${entry.here === false ? names.here : names.there}`;
  }
  return `hosted on neither`;
}

function missingText(
  side: ProjectionSide,
  informees: readonly Informee[],
  hosting: PartyHosting,
  names: ParticipantNames,
): string {
  const name = names[side];
  if (informees.length === 0) {
    return `${name} does not see it; the events name none of its informees (choice observers are not reported).`;
  }
  const hostedThere = informees.filter((informee) => hosting.get(informee.party)?.[side] === true);
  const listed = informees.map(
    (informee) =>
      `${partyName(informee.party)} (${informee.roles.join(', ')}, ${hostingText(hosting, informee.party, names)})`,
  );
  if (hostedThere.length > 0) {
    // The projection lacks the node though an informee is hosted there: the reader's scope there
    // leaves that party out (or hosting changed since).
    return `${name} does not show it to you, though it hosts ${listText(hostedThere.map((informee) => partyName(informee.party)))}: you may not read as ${hostedThere.length === 1 ? 'that party' : 'those parties'} there. Informees: ${listText(listed)}.`;
  }
  return `${name} hosts none of its informees: ${listText(listed)}.`;
}

/**
 * Compares two projections of one transaction: `here` as this page's participant shows it,
 * `there` as the other one does. `hosting` says where the informees are hosted (look up
 * `partiesToLookUp`); names are the participants' fleet names.
 */
export function compareProjections(
  here: TransactionTree,
  there: TransactionTree,
  hosting: PartyHosting,
  names: ParticipantNames,
): ProjectionComparison {
  const union = unionTree(here, there);
  const witnessesOf = (id: NodeId) => [
    ...(here.nodes.get(id)?.witnessParties ?? []),
    ...(there.nodes.get(id)?.witnessParties ?? []),
  ];
  const informees = informeesOf(union, witnessesOf);
  const nodes = new Map<NodeId, ComparedNode>();
  const counts = { both: 0, hereOnly: 0, thereOnly: 0 };

  const hostedOn = (side: ProjectionSide) =>
    new Set([...hosting].filter(([, entry]) => entry[side] === true).map(([party]) => party));
  const hosted = { here: hostedOn('here'), there: hostedOn('there') };

  const projectionOf = (side: ProjectionSide, tree: TransactionTree, id: NodeId) => {
    const sees = tree.nodes.has(id);
    const parties = hosted[side];
    const candidates = new Set<string>();
    // The event's witness parties on that side, unless hosting says they are not hosted there
    // (a reader of several participants' parties may be told of witnesses hosted elsewhere).
    for (const party of tree.nodes.get(id)?.witnessParties ?? []) {
      if (hosting.get(party)?.[side] !== false) candidates.add(party);
    }
    for (let at: NodeId | null = id; at !== null; at = getNode(union, at).parentId) {
      for (const informee of informees.get(at) ?? []) {
        if (parties.has(informee.party)) candidates.add(informee.party);
      }
    }
    const through = [...candidates].map((party) => ({
      party,
      via: informeeSource(union, informees, id, party) ?? null,
    }));
    return { sees, through };
  };

  for (const id of union.order) {
    const node = getNode(union, id);
    const nodeInformees = informees.get(id) ?? [];
    const hereSide = projectionOf('here', here, id);
    const thereSide = projectionOf('there', there, id);
    const seenBy: SeenBy =
      hereSide.sees && thereSide.sees ? 'both' : hereSide.sees ? 'here-only' : 'there-only';
    const seenText = (side: ProjectionSide, projection: SideProjection) =>
      projection.through.length > 0
        ? `${names[side]} through ${listText(projection.through.map((witness) => witnessText(union, nodeInformees, witness)))}`
        : names[side];
    let reason: string;
    if (seenBy === 'both') {
      counts.both++;
      reason = `Seen by both: ${seenText('here', hereSide)}; ${seenText('there', thereSide)}.`;
    } else {
      const [seeing, missing, projection] =
        seenBy === 'here-only'
          ? (['here', 'there', hereSide] as const)
          : (['there', 'here', thereSide] as const);
      if (seenBy === 'here-only') counts.hereOnly++;
      else counts.thereOnly++;
      reason = `Only ${seenText(seeing, projection)}. ${missingText(missing, nodeInformees, hosting, names)}`;
    }
    nodes.set(id, {
      nodeId: id,
      description: describeNode(node),
      seenBy,
      informees: nodeInformees,
      here: hereSide,
      there: thereSide,
      reason,
    });
  }
  return { names, union, nodes, counts };
}

/**
 * The parties whose hosting explains a comparison: every informee and witness the events of both
 * trees name, in order of first appearance, at most `MAX_HOSTING_LOOKUPS`.
 */
export function partiesToLookUp(
  trees: readonly TransactionTree[],
  limit: number = MAX_HOSTING_LOOKUPS,
): string[] {
  const parties = new Set<string>();
  const add = (list: readonly string[]) => {
    for (const party of list) if (parties.size < limit) parties.add(party);
  };
  for (const tree of trees) {
    for (const id of tree.order) {
      const node = getNode(tree, id);
      if (node.kind === 'created') {
        add(node.signatories);
        add(node.observers);
      }
      if (node.kind === 'exercised') add(node.actingParties);
      add(node.witnessParties);
      if (parties.size >= limit) return [...parties];
    }
  }
  return [...parties];
}

/**
 * The one layout both sides are drawn on: the union tree, with the given nodes collapsed (none by
 * default), laid out as the transaction graph lays out a tree.
 */
export function layoutComparison(
  comparison: ProjectionComparison,
  collapsed: CollapsedSet = new Set(),
  options: LayoutOptions = {},
): TreeLayout {
  return layoutTree(buildVisibleTree(comparison.union, collapsed), options);
}

/**
 * Why the other participant has no such update at all, from this side's tree: "participant2 hosts
 * none of this transaction’s informees: alice::1220… (hosted on participant1), …". With no hosting
 * known there, the sentence says that its parties could not be checked.
 */
export function absentExplanation(
  here: TransactionTree,
  hosting: PartyHosting,
  names: ParticipantNames,
): string {
  const parties = new Set<string>();
  const union = unionTree(here, here);
  const informees = informeesOf(union, (id) => here.nodes.get(id)?.witnessParties ?? []);
  for (const list of informees.values()) for (const informee of list) parties.add(informee.party);
  const listed = [...parties].map(
    (party) => `${partyName(party)} (${hostingText(hosting, party, names)})`,
  );
  const hostedThere = [...parties].filter((party) => hosting.get(party)?.there === true);
  if (hostedThere.length > 0) {
    return `${names.there} has no update with this id for you, though it hosts ${listText(hostedThere.map(partyName))}: you may not read as ${hostedThere.length === 1 ? 'that party' : 'those parties'} there, or it has not seen the transaction yet.`;
  }
  if (listed.length === 0) return `${names.there} has no update with this id.`;
  return `${names.there} hosts none of this transaction’s informees: ${listText(listed)}.`;
}
