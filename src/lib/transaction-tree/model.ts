/**
 * The console's one model of a transaction tree, whatever the wire shape it came from (the
 * deprecated `JsTransactionTree`, or a `JsTransaction` in LEDGER_EFFECTS or ACS_DELTA shape): it
 * knows no wire shapes. `src/api/transaction-tree-adapter.ts` reads those into
 * {@link TransactionEvents}, and `build-tree.ts` builds the tree from them; visibility, search,
 * layout and navigation read it. Immutable: every derived view (what is visible, where it is
 * drawn) is computed from it, never stored in it.
 *
 * The pipeline for the graph: `buildTree` (through the API's adapters) → `defaultCollapsed` (then the user's toggles) → `buildVisibleTree` (+ `searchTree` ancestors) →
 * `layoutTree`. Measured in Node 20 with `tsx` on a 2-core machine under heavy load (load
 * average 7): a 10,000-node transaction parsed from JSON takes 20–40 ms through build, default
 * collapse, visibility and layout once warm, 70–160 ms on the very first call (JIT warm-up);
 * laying out all 10,000 nodes expanded takes 40–90 ms warm.
 */

/** A node id as the participant assigns it: pre-order execution order, from 0, with gaps. */
export type NodeId = number;

/** `<package>:<Module.Name>:<Entity>`; the package is a package id or `#<package-name>`. */
export type ParsedIdentifier = {
  packageRef: string;
  moduleName: string;
  entityName: string;
};

type TreeNodeBase = {
  readonly nodeId: NodeId;
  /** The innermost visible exercise whose range holds this node; null for roots. */
  readonly parentId: NodeId | null;
  /** Direct children in execution order (ascending node id). */
  readonly children: readonly NodeId[];
  /** 0 for roots. */
  readonly depth: number;
  /** Position in `TransactionTree.order`; a subtree is `order[index ..= index + descendantCount]`. */
  readonly index: number;
  /** All nodes below this one, at any depth: the `+N` of a collapsed node. */
  readonly descendantCount: number;
  readonly contractId: string;
  /** As printed by the participant: package-id form for events. */
  readonly templateId: string;
  /** `templateId` split up; null if it is not in `<package>:<module>:<entity>` form. */
  readonly template: ParsedIdentifier | null;
  readonly packageName: string;
  readonly witnessParties: readonly string[];
  /** Null when the source does not say (ACS_DELTA archived events). */
  readonly acsDelta: boolean | null;
};

export type CreatedNode = TreeNodeBase & {
  readonly kind: 'created';
  readonly createArgument: unknown;
  /** Null when the template has no key. */
  readonly contractKey: unknown;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
  readonly createdAt: string | null;
  /**
   * The consuming exercise (or archived event) later in this transaction that archived the
   * contract, so the graph can show transient contracts; null when it outlives the transaction
   * (or the archive is not visible to the requesting parties).
   */
  readonly consumedBy: NodeId | null;
};

export type ExercisedNode = TreeNodeBase & {
  readonly kind: 'exercised';
  readonly choice: string;
  readonly choiceArgument: unknown;
  /** Null when the source omits it. */
  readonly exerciseResult: unknown;
  /** A consuming exercise archives `contractId`. */
  readonly consuming: boolean;
  /** The interface that defines the choice, when inherited. */
  readonly interfaceId: string | null;
  readonly actingParties: readonly string[];
  /** As given; may name a node that is not emitted (a fetch, or one the parties cannot see). */
  readonly lastDescendantNodeId: NodeId;
  /** The create of `contractId` earlier in this transaction, if it is visible here. */
  readonly createdBy: NodeId | null;
};

/** Only from ACS_DELTA sources, which report archives without the exercise that caused them. */
export type ArchivedNode = TreeNodeBase & {
  readonly kind: 'archived';
  readonly createdBy: NodeId | null;
};

export type TreeNode = CreatedNode | ExercisedNode | ArchivedNode;
export type TreeNodeKind = TreeNode['kind'];

export type TransactionTree = {
  readonly updateId: string;
  readonly offset: number;
  /** Absent for everyone but the submitter (the participant then prints `""`). */
  readonly commandId?: string;
  readonly workflowId?: string;
  readonly effectiveAt?: string;
  readonly recordTime?: string;
  readonly synchronizerId?: string;
  /**
   * What this participant paid for ordering the transaction's confirmation request; absent when
   * the participant reports no traffic cost, or the reader is not a submitter.
   */
  readonly paidTrafficCost?: number;
  /** Nodes inside no visible exercise, in execution order. */
  readonly roots: readonly NodeId[];
  readonly nodes: ReadonlyMap<NodeId, TreeNode>;
  /** Every node id in pre-order, which is ascending node-id order. */
  readonly order: readonly NodeId[];
  /** The largest `depth`; -1 for an empty tree. */
  readonly maxDepth: number;
};

/** The header fields a transaction may lack; a tree or event list sets only those present. */
export const OPTIONAL_HEADER_KEYS = [
  'commandId',
  'workflowId',
  'effectiveAt',
  'recordTime',
  'synchronizerId',
] as const satisfies readonly (keyof TransactionTree)[];

/** What the builder derives from node ids and ranges; every other field comes from the event. */
type DerivedKeys =
  | 'parentId'
  | 'children'
  | 'depth'
  | 'index'
  | 'descendantCount'
  | 'template'
  | 'consumedBy'
  | 'createdBy';

/**
 * One event of a transaction as the ledger reports it, before it has a place in the tree: the
 * input of `buildTree`. Whatever the wire shape, absent optionals are already `null` (or `[]`).
 */
export type CreatedEvent = Omit<CreatedNode, DerivedKeys>;
export type ExercisedEvent = Omit<ExercisedNode, DerivedKeys>;
export type ArchivedEvent = Omit<ArchivedNode, DerivedKeys>;
export type TransactionEvent = CreatedEvent | ExercisedEvent | ArchivedEvent;

/** A transaction's header and its events (in node-id order, ideally): what `buildTree` reads. */
export type TransactionEvents = Pick<
  TransactionTree,
  | 'updateId'
  | 'offset'
  | 'commandId'
  | 'workflowId'
  | 'effectiveAt'
  | 'recordTime'
  | 'synchronizerId'
  | 'paidTrafficCost'
> & {
  readonly events: readonly TransactionEvent[];
};

/** The node, or an error naming the id: callers pass ids that came from the same tree. */
export function getNode(tree: TransactionTree, id: NodeId): TreeNode {
  const node = tree.nodes.get(id);
  if (!node) throw new RangeError(`Node ${String(id)} is not in transaction ${tree.updateId}`);
  return node;
}

/**
 * `pkg:Mod.Sub:Entity` → its three parts. Module names hold dots but no colons, so exactly two
 * colons are expected; anything else gives null and the UI shows the raw string.
 */
export function parseIdentifier(identifier: string): ParsedIdentifier | null {
  const parts = identifier.split(':');
  if (parts.length !== 3) return null;
  const [packageRef = '', moduleName = '', entityName = ''] = parts;
  if (packageRef === '' || moduleName === '' || entityName === '') return null;
  return { packageRef, moduleName, entityName };
}

/** The entity name of the node's template (`Iou`), or the raw template id if unparseable. */
export function templateName(node: TreeNode): string {
  return node.template?.entityName ?? node.templateId;
}

/**
 * A one-line description for labels and screen readers: "Create Iou", "Exercise Iou_Split on
 * Iou", "Archive Iou".
 */
export function describeNode(node: TreeNode): string {
  switch (node.kind) {
    case 'created':
      return `Create ${templateName(node)}`;
    case 'exercised':
      return `Exercise ${node.choice} on ${templateName(node)}`;
    case 'archived':
      return `Archive ${templateName(node)}`;
  }
}

/** Ancestors of `id`, nearest first. */
export function ancestorsOf(tree: TransactionTree, id: NodeId): NodeId[] {
  const ancestors: NodeId[] = [];
  for (let parent = getNode(tree, id).parentId; parent !== null;) {
    ancestors.push(parent);
    parent = getNode(tree, parent).parentId;
  }
  return ancestors;
}

/** Whether `ancestor` is a proper ancestor of `id`: O(1) through pre-order positions. */
export function isAncestorOf(tree: TransactionTree, ancestor: NodeId, id: NodeId): boolean {
  const a = getNode(tree, ancestor);
  const index = getNode(tree, id).index;
  return index > a.index && index <= a.index + a.descendantCount;
}

/** The ids of `id`'s subtree (itself included) in pre-order: a slice of `tree.order`. */
export function subtreeIds(tree: TransactionTree, id: NodeId): readonly NodeId[] {
  const node = getNode(tree, id);
  return tree.order.slice(node.index, node.index + node.descendantCount + 1);
}

/**
 * Who acted in the transaction, as far as its events tell: the acting parties of its top-level
 * exercises and the signatories of its top-level creates (the command's submitters had to
 * authorize both), in order of first appearance. The submitters themselves are not reported to
 * readers.
 */
export function actingPartiesOf(tree: TransactionTree): readonly string[] {
  const parties = new Set<string>();
  for (const id of tree.roots) {
    const node = getNode(tree, id);
    const acting =
      node.kind === 'exercised'
        ? node.actingParties
        : node.kind === 'created'
          ? node.signatories
          : [];
    for (const party of acting) parties.add(party);
  }
  return [...parties];
}
