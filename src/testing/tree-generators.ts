import {
  eventsOfTransaction,
  type WireCreatedEvent,
  type WireEvent,
  type WireExercisedEvent,
  type WireTransaction,
  type WireTransactionTree,
  type WireTreeEvent,
} from '@/api/transaction-tree-adapter';
import type { NodeId, TransactionEvents } from '@/lib/transaction-tree/model';

/**
 * Synthetic transactions for property tests and the benchmark: the same transaction in both wire
 * shapes, as the participant would print it, and as the tree model's input; plus the parent of
 * every emitted node so tests can check the builders against the truth rather than against each
 * other only.
 */
export type GeneratedTransaction = {
  transactionTree: WireTransactionTree & { eventsById: Record<string, WireTreeEvent> };
  transaction: WireTransaction & { events: WireEvent[] };
  /** What `buildTree` reads, as the API's adapter gives it from `transaction`. */
  events: TransactionEvents;
  /** Parent of each emitted node (null for roots), as generated. */
  parentOf: ReadonlyMap<NodeId, NodeId | null>;
};

const PACKAGE_ID = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const FANOUT_TEMPLATE = `${PACKAGE_ID}:Demo.Fanout:Fanout`;
const PARTIES = ['alice', 'bob', 'bank', 'carol'].map((hint) => `${hint}::1220${'ab'.repeat(32)}`);

/** mulberry32: small, fast and good enough to vary shapes reproducibly from a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (value: number, length: number) =>
  (value >>> 0)
    .toString(16)
    .padStart(8, '0')
    .repeat(Math.ceil(length / 8))
    .slice(0, length);

const contractIdFor = (salt: number, n: number) =>
  `00${hex(salt, 32)}${hex(n, 32)}ca111220${hex(n, 64)}`;
const updateIdFor = (salt: number) => `1220${hex(salt, 64)}`;

/** Collects events in execution order and renders both shapes. */
class TransactionWriter {
  readonly events: { nodeId: NodeId; event: WireEvent; treeEvent: WireTreeEvent }[] = [];
  readonly parentOf = new Map<NodeId, NodeId | null>();
  private nextId = 0;

  constructor(readonly offset: number) {}

  /** Takes a node id that is never emitted, as a fetch or an invisible node does. */
  skipId(): void {
    this.nextId += 1;
  }

  get lastId(): NodeId {
    return this.nextId - 1;
  }

  create(
    parent: NodeId | null,
    fields: Omit<WireCreatedEvent, 'nodeId' | 'offset' | 'packageName'>,
  ): WireCreatedEvent {
    const event: WireCreatedEvent = {
      offset: this.offset,
      nodeId: this.nextId++,
      packageName: 'sandbox-demo',
      ...fields,
    };
    this.events.push({
      nodeId: event.nodeId,
      event: { CreatedEvent: event },
      treeEvent: { CreatedTreeEvent: { value: event } },
    });
    this.parentOf.set(event.nodeId, parent);
    return event;
  }

  /** Emits the exercise; its `lastDescendantNodeId` is fixed by `close` once the body has run. */
  exercise(
    parent: NodeId | null,
    fields: Omit<WireExercisedEvent, 'nodeId' | 'offset' | 'packageName' | 'lastDescendantNodeId'>,
  ): { -readonly [K in keyof WireExercisedEvent]: WireExercisedEvent[K] } {
    const event = {
      offset: this.offset,
      nodeId: this.nextId++,
      packageName: 'sandbox-demo',
      lastDescendantNodeId: -1,
      ...fields,
    };
    this.events.push({
      nodeId: event.nodeId,
      event: { ExercisedEvent: event },
      treeEvent: { ExercisedTreeEvent: { value: event } },
    });
    this.parentOf.set(event.nodeId, parent);
    return event;
  }

  render(salt: number): GeneratedTransaction {
    const header = {
      updateId: updateIdFor(salt),
      commandId: `command-${String(salt)}`,
      workflowId: '',
      effectiveAt: '2025-01-01T00:00:00Z',
      offset: this.offset,
      synchronizerId: `sync::1220${'cd'.repeat(32)}`,
      recordTime: '2025-01-01T00:00:00Z',
    };
    // JavaScript iterates integer-like keys in ascending order, whatever the insertion order,
    // so eventsById (a Scala Map on the participant, key order unspecified) reads in node order.
    const eventsById: Record<string, WireTreeEvent> = {};
    for (const { nodeId, treeEvent } of this.events) eventsById[String(nodeId)] = treeEvent;
    const transaction = { ...header, events: this.events.map(({ event }) => event) };
    return {
      transactionTree: { ...header, eventsById },
      transaction,
      events: eventsOfTransaction(transaction),
      parentOf: this.parentOf,
    };
  }
}

/**
 * Nodes of a `fanoutTree`: the root create, then the Fanout_Run subtree, as the sandbox's
 * `fanoutNodes(width, depth) + 1` (sandbox/src/ledger/demo-package.ts). E.g. width 98, 998 and
 * 9,998 at depth 1 give 100, 1,000 and 10,000 nodes; width 3 at depth 6 gives 1,457.
 */
export function fanoutNodeCount(width: number, depth: number): number {
  if (depth <= 0 || width <= 0) return 2;
  let below = 0;
  for (let level = 1; level <= depth; level++) below = 1 + width * (1 + (level > 1 ? below : 0));
  return below + 1;
}

/**
 * The transaction of the sandbox demo's `CreateAndExercise Fanout … Fanout_Run { width, depth }`:
 * node 0 creates a Fanout that node 1 consumes; each Fanout_Run creates `width` Fanouts and, above
 * the last level, runs Fanout_Run on each right after creating it. The "Fanout" trees of the
 * benchmark.
 */
export function fanoutTree({
  width,
  depth,
  seed = 1,
}: {
  width: number;
  depth: number;
  seed?: number;
}): GeneratedTransaction {
  const writer = new TransactionWriter(seed + 1);
  const owner = PARTIES[0] ?? '';
  let contracts = 0;
  const fanout = (parent: NodeId | null, label: string) =>
    writer.create(parent, {
      contractId: contractIdFor(seed, contracts++),
      templateId: FANOUT_TEMPLATE,
      createArgument: { owner, label },
      witnessParties: [owner],
      signatories: [owner],
      observers: [],
      acsDelta: false,
    });

  // Iterative, so deep trees do not depend on the call stack.
  type Frame = {
    run: ReturnType<typeof writer.exercise>;
    level: number;
    next: number;
    made: number;
    label: string;
  };
  const start = (
    parent: NodeId | null,
    contractId: string,
    level: number,
    label: string,
  ): Frame => ({
    run: writer.exercise(parent, {
      contractId,
      templateId: FANOUT_TEMPLATE,
      choice: 'Fanout_Run',
      choiceArgument: { width: String(width), depth: String(level) },
      actingParties: [owner],
      consuming: true,
      witnessParties: [owner],
      acsDelta: false,
    }),
    level,
    next: 1,
    made: 0,
    label,
  });
  const root = fanout(null, 'root');
  const stack: Frame[] = [start(null, root.contractId, depth, 'root')];
  while (stack.length > 0) {
    const frame = stack.at(-1);
    if (!frame) break;
    if (frame.level > 0 && frame.next <= width) {
      const label = `${frame.label}.${String(frame.next)}`;
      frame.next += 1;
      const child = fanout(frame.run.nodeId, label);
      frame.made += 1;
      if (frame.level > 1)
        stack.push(start(frame.run.nodeId, child.contractId, frame.level - 1, label));
      continue;
    }
    stack.pop();
    frame.run.lastDescendantNodeId = writer.lastId;
    frame.run.exerciseResult = String(frame.made);
    const parent = stack.at(-1);
    if (parent) parent.made += frame.made;
  }
  return writer.render(seed);
}

const TEMPLATES = [
  'Demo.Iou:Iou',
  'Demo.Account:Account',
  'Demo.Fanout:Fanout',
  'Main.Asset:Asset',
];
const CHOICES = ['Transfer', 'Split', 'Merge', 'Archive', 'Settle', 'Fetch_View'];

/**
 * A random transaction of exactly `size` emitted nodes with Daml's id rules: pre-order ids with
 * gaps for non-emitted nodes (also as the last id of a range), one to three roots, nested and
 * empty exercises, consuming exercises on contracts created earlier in the same transaction. Each
 * seed picks its own mix, from bushy to deep.
 */
export function randomTree({ seed, size }: { seed: number; size: number }): GeneratedTransaction {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const writer = new TransactionWriter(1 + Math.floor(random() * 1000));
  const exerciseShare = 0.15 + random() * 0.5;
  const closeShare = 0.05 + random() * 0.5;
  const gapShare = random() * 0.15;
  let rootsLeft = 1 + Math.floor(random() * 3);

  const party = () => pick(PARTIES);
  const parties = () => [...new Set([party(), party()])];
  let contracts = 0;
  const unconsumed: string[] = [];
  // The exercises whose ranges are still open, innermost last.
  const open: ReturnType<typeof writer.exercise>[] = [];
  const close = () => {
    const exercise = open.pop();
    if (exercise) exercise.lastDescendantNodeId = writer.lastId;
  };

  for (let emitted = 0; emitted < size; emitted++) {
    // Closing ranges moves the next node up; closing the last one makes it a root, which is
    // allowed only while roots remain, so each tree has one to three.
    while (open.length > 0 && random() < closeShare) {
      if (open.length === 1 && rootsLeft === 0) break;
      if (random() < gapShare) writer.skipId();
      close();
    }
    if (random() < gapShare) writer.skipId();
    const isRoot = open.length === 0;
    if (isRoot) rootsLeft -= 1;
    // The last root must be an exercise that holds every node still to come.
    const isExercise =
      (isRoot && rootsLeft === 0 && emitted < size - 1) || random() < exerciseShare;
    const parent = open.at(-1)?.nodeId ?? null;
    const templateId = `${PACKAGE_ID}:${pick(TEMPLATES)}`;
    const witnesses = parties();
    if (isExercise) {
      const onLocal = unconsumed.length > 0 && random() < 0.5;
      const contractId = onLocal
        ? (unconsumed.splice(Math.floor(random() * unconsumed.length), 1)[0] ?? '')
        : contractIdFor(seed, 1_000_000 + contracts++);
      const consuming = random() < 0.6;
      if (onLocal && !consuming) unconsumed.push(contractId);
      open.push(
        writer.exercise(parent, {
          contractId,
          templateId,
          choice: pick(CHOICES),
          choiceArgument: {
            amount: String(Math.floor(random() * 1000)),
            note: `n${String(emitted)}`,
          },
          actingParties: [party()],
          consuming,
          witnessParties: witnesses,
          exerciseResult: random() < 0.5 ? null : { result: contracts },
          interfaceId: random() < 0.1 ? `${PACKAGE_ID}:Demo.Holding:Holding` : null,
          acsDelta: consuming,
        }),
      );
    } else {
      const contractId = contractIdFor(seed, contracts++);
      unconsumed.push(contractId);
      writer.create(parent, {
        contractId,
        templateId,
        createArgument: {
          owner: witnesses[0],
          amount: String(emitted),
          memo: `m${String(emitted)}`,
        },
        contractKey: random() < 0.2 ? { id: String(contracts) } : null,
        witnessParties: witnesses,
        signatories: [witnesses[0] ?? ''],
        observers: witnesses.slice(1),
        createdAt: '2025-01-01T00:00:00Z',
        acsDelta: true,
      });
    }
  }
  while (open.length > 0) {
    if (random() < gapShare) writer.skipId();
    close();
  }
  return writer.render(seed);
}

/** A node of `shapedTree`: an exercise when it has a `choice`, otherwise a create. */
export type ShapeNode = {
  /** Entity name, in module `Demo.<template>`; `Iou` by default. */
  template?: string;
  choice?: string;
  /** Exercises only; true by default. */
  consuming?: boolean;
  contractId?: string;
  argument?: unknown;
  parties?: readonly string[];
  children?: readonly ShapeNode[];
};

/**
 * A hand-written tree for tests and examples, ids assigned in pre-order without gaps:
 * `shapedTree([{ choice: 'Iou_Split', children: [{}, {}] }])` is an Iou split into two Ious.
 */
export function shapedTree(roots: readonly ShapeNode[], seed = 1): GeneratedTransaction {
  const writer = new TransactionWriter(seed + 1);
  let contracts = 0;
  const fallbackParties = [PARTIES[0] ?? ''];
  // Iterative pre-order; a node's range closes when its last child's subtree has been written.
  type Frame = { shape: ShapeNode; parent: NodeId | null };
  const pending: (Frame | { close: ReturnType<typeof writer.exercise> })[] = roots
    .map((shape): Frame => ({ shape, parent: null }))
    .reverse();
  while (pending.length > 0) {
    const item = pending.pop();
    if (!item) break;
    if ('close' in item) {
      item.close.lastDescendantNodeId = writer.lastId;
      continue;
    }
    const { shape, parent } = item;
    const templateId = `${PACKAGE_ID}:Demo.${shape.template ?? 'Iou'}:${shape.template ?? 'Iou'}`;
    const parties = shape.parties ?? fallbackParties;
    const contractId = shape.contractId ?? contractIdFor(seed, contracts++);
    if (shape.choice === undefined) {
      writer.create(parent, {
        contractId,
        templateId,
        createArgument: shape.argument ?? { owner: parties[0] },
        witnessParties: parties,
        signatories: parties.slice(0, 1),
        observers: parties.slice(1),
        acsDelta: true,
      });
      continue;
    }
    const exercise = writer.exercise(parent, {
      contractId,
      templateId,
      choice: shape.choice,
      choiceArgument: shape.argument ?? {},
      actingParties: parties.slice(0, 1),
      consuming: shape.consuming ?? true,
      witnessParties: parties,
      exerciseResult: null,
      acsDelta: shape.consuming ?? true,
    });
    pending.push({ close: exercise });
    for (const child of [...(shape.children ?? [])].reverse()) {
      pending.push({ shape: child, parent: exercise.nodeId });
    }
  }
  return writer.render(seed);
}

/**
 * Two roots, exercises nested two deep, creates beside and under them and an exercise with no
 * children: the small tree the outline's routines are tested on.
 *
 * ```
 * 0 Transfer ─┬─ 1 Iou
 *             ├─ 2 Split ─┬─ 3 Iou
 *             │           ├─ 4 Iou
 *             │           └─ 5 Archive (Account, no children)
 *             └─ 6 Account
 * 7 Iou
 * ```
 */
export const SAMPLE_TREE_SHAPE: readonly ShapeNode[] = [
  {
    choice: 'Transfer',
    children: [
      {},
      { choice: 'Split', children: [{}, {}, { template: 'Account', choice: 'Archive' }] },
      { template: 'Account' },
    ],
  },
  {},
];
