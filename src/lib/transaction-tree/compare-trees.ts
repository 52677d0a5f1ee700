import { describeNode, getNode, type NodeId, type TransactionTree, type TreeNode } from './model';
import { isRecord } from '@/lib/values/is-record';

/**
 * What was prepared against what was committed, node by node (issue 23 item 1): the same nodes
 * in the same places, of the same kinds, on the same templates and contracts, with the same
 * choices, arguments, results and parties. Node ids are not compared (the participant numbers
 * the committed transaction), and the contracts the transaction creates may have their ids filled
 * in: a prepared contract id is a prefix of the committed one (Canton adds the suffix when it
 * commits); each such pair then stands for the same contract wherever a value names it.
 */

export type TreeDifference = {
  /** The node in the prepared transaction, or null where only the committed one has a node. */
  preparedNodeId: NodeId | null;
  committedNodeId: NodeId | null;
  /** "Exercise Iou_Split on Iou", of the prepared node (else the committed one). */
  node: string;
  /** What differs, in a sentence: "the choice argument differs". */
  what: string;
  /** Short renderings of each side, where they help. */
  prepared?: string;
  committed?: string;
};

export type TreeComparison = {
  /** Every node and field agrees. */
  isSame: boolean;
  /** Nodes present on both sides and compared. */
  comparedCount: number;
  /** At most `maxDifferences`; `differenceCount` counts them all. */
  differences: TreeDifference[];
  differenceCount: number;
};

export type CompareOptions = {
  /** How many differences are listed (default 50); the rest are counted. */
  maxDifferences?: number;
  /**
   * The committed transaction was made anew from the same commands (a local party's submit), so
   * the contracts it creates have ids of their own: each created id pairs with the prepared one
   * wherever it appears, without being its extension.
   */
  isReinterpreted?: boolean;
};

/** Bounds the JSON shown for a value that differs. */
const MAX_RENDERED = 200;

function render(value: unknown): string {
  // JSON.stringify gives undefined for undefined, whatever its declared type says.
  const text = (JSON.stringify(value) as string | undefined) ?? String(value);
  return text.length > MAX_RENDERED ? `${text.slice(0, MAX_RENDERED)}…` : text;
}

/**
 * Whether two values (as the JSON API prints them) say the same: an absent record field equals
 * `null` (a trailing None may be left out on one side), and a string equals another when it is a
 * prepared contract id that became that committed one.
 */
function sameValue(
  prepared: unknown,
  committed: unknown,
  filledIn: ReadonlyMap<string, string>,
  depth = 0,
): boolean {
  // Values are bounded by Daml-LF's nesting limit; deeper is not a value either side sent.
  if (depth > 200) return false;
  if (typeof prepared === 'string' && typeof committed === 'string') {
    return prepared === committed || filledIn.get(prepared) === committed;
  }
  if (Array.isArray(prepared) && Array.isArray(committed)) {
    return (
      prepared.length === committed.length &&
      prepared.every((item, i) => sameValue(item, committed[i], filledIn, depth + 1))
    );
  }
  if (isRecord(prepared) && isRecord(committed)) {
    const keys = new Set([...Object.keys(prepared), ...Object.keys(committed)]);
    for (const key of keys) {
      const a = Object.hasOwn(prepared, key) ? prepared[key] : null;
      const b = Object.hasOwn(committed, key) ? committed[key] : null;
      if (!sameValue(a ?? null, b ?? null, filledIn, depth + 1)) return false;
    }
    return true;
  }
  return prepared === committed;
}

const sameParties = (a: readonly string[], b: readonly string[]) => {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((party) => right.has(party));
};

/** The committed contract id is the prepared one, or the prepared one with its suffix added. */
const isFilledIn = (prepared: string, committed: string) =>
  prepared === committed || (prepared !== '' && committed.startsWith(prepared));

export function compareTrees(
  prepared: TransactionTree,
  committed: TransactionTree,
  { maxDifferences = 50, isReinterpreted = false }: CompareOptions = {},
): TreeComparison {
  const differences: TreeDifference[] = [];
  let differenceCount = 0;
  let comparedCount = 0;
  const filledIn = new Map<string, string>();

  const report = (difference: TreeDifference) => {
    differenceCount++;
    if (differences.length < maxDifferences) differences.push(difference);
  };

  const compareNodes = (a: TreeNode, b: TreeNode) => {
    comparedCount++;
    const base = { preparedNodeId: a.nodeId, committedNodeId: b.nodeId, node: describeNode(a) };
    const differ = (what: string, left: unknown, right: unknown) => {
      report({ ...base, what, prepared: render(left), committed: render(right) });
    };
    if (a.kind !== b.kind) {
      differ('the kind of node differs', describeNode(a), describeNode(b));
      return false;
    }
    if (a.templateId !== b.templateId) differ('the template differs', a.templateId, b.templateId);
    if (a.kind === 'created') {
      if (isReinterpreted || isFilledIn(a.contractId, b.contractId))
        filledIn.set(a.contractId, b.contractId);
      else differ('the contract id differs', a.contractId, b.contractId);
    } else {
      const expected = filledIn.get(a.contractId) ?? a.contractId;
      if (expected !== b.contractId) differ('the contract differs', a.contractId, b.contractId);
    }
    if (a.kind === 'created' && b.kind === 'created') {
      if (!sameValue(a.createArgument, b.createArgument, filledIn)) {
        differ('the create arguments differ', a.createArgument, b.createArgument);
      }
      if (!sameParties(a.signatories, b.signatories)) {
        differ('the signatories differ', a.signatories, b.signatories);
      }
      if (!sameParties(a.observers, b.observers)) {
        differ('the observers differ', a.observers, b.observers);
      }
    }
    if (a.kind === 'exercised' && b.kind === 'exercised') {
      if (a.choice !== b.choice) differ('the choice differs', a.choice, b.choice);
      if (a.interfaceId !== b.interfaceId)
        differ('the interface differs', a.interfaceId, b.interfaceId);
      if (a.consuming !== b.consuming)
        differ('whether it consumes differs', a.consuming, b.consuming);
      if (!sameValue(a.choiceArgument, b.choiceArgument, filledIn)) {
        differ('the choice argument differs', a.choiceArgument, b.choiceArgument);
      }
      if (!sameParties(a.actingParties, b.actingParties)) {
        differ('the acting parties differ', a.actingParties, b.actingParties);
      }
    }
    return true;
  };

  // Depth first in execution order, iteratively (a deep tree cannot overflow the stack), so a
  // create is paired before anything later names its contract; an exercise's result after its
  // children, whose creates fill in the ids the result may name.
  type Step = { kind: 'node' | 'result'; a: TreeNode; b: TreeNode };
  const pending: Step[] = [];
  const pairUp = (left: readonly NodeId[], right: readonly NodeId[]) => {
    const pairs = Math.min(left.length, right.length);
    for (let i = pairs; i < left.length; i++) {
      const a = getNode(prepared, left[i] ?? -1);
      report({
        preparedNodeId: a.nodeId,
        committedNodeId: null,
        node: describeNode(a),
        what: 'was prepared but not committed',
      });
    }
    for (let i = pairs; i < right.length; i++) {
      const b = getNode(committed, right[i] ?? -1);
      report({
        preparedNodeId: null,
        committedNodeId: b.nodeId,
        node: describeNode(b),
        what: 'was committed but not prepared',
      });
    }
    // A stack: pushed in reverse, so the first sibling comes first.
    for (let i = pairs - 1; i >= 0; i--) {
      pending.push({
        kind: 'node',
        a: getNode(prepared, left[i] ?? -1),
        b: getNode(committed, right[i] ?? -1),
      });
    }
  };
  pairUp(prepared.roots, committed.roots);
  while (pending.length > 0) {
    const step = pending.pop();
    if (step === undefined) break;
    const { a, b } = step;
    if (step.kind === 'node') {
      if (!compareNodes(a, b)) continue;
      pending.push({ kind: 'result', a, b });
      pairUp(a.children, b.children);
      continue;
    }
    if (
      a.kind === 'exercised' &&
      b.kind === 'exercised' &&
      a.exerciseResult !== null &&
      b.exerciseResult !== null &&
      !sameValue(a.exerciseResult, b.exerciseResult, filledIn)
    ) {
      report({
        preparedNodeId: a.nodeId,
        committedNodeId: b.nodeId,
        node: describeNode(a),
        what: 'the exercise result differs',
        prepared: render(a.exerciseResult),
        committed: render(b.exerciseResult),
      });
    }
  }
  return { isSame: differenceCount === 0, comparedCount, differences, differenceCount };
}
