import { describe, expect, it } from 'vitest';
import { fanoutTree } from '@/testing/tree-generators';
import { createdEvent, exercisedEvent } from '@/testing/tree-events';
import { buildTree } from './build-tree';
import { compareTrees } from './compare-trees';
import type { CreatedEvent, ExercisedEvent, TransactionEvent, TransactionTree } from './model';

const ALICE = 'alice::1220ab';
const BOB = 'bob::1220ab';
const PREPARED_ID = `00${'1'.repeat(64)}`;
const COMMITTED_ID = `${PREPARED_ID}ca11ab1e`;

const created = (nodeId: number, overrides: Partial<CreatedEvent> = {}) =>
  createdEvent(nodeId, ALICE, overrides);

const exercised = (
  nodeId: number,
  lastDescendantNodeId: number,
  overrides: Partial<ExercisedEvent> = {},
) => exercisedEvent(nodeId, lastDescendantNodeId, ALICE, { ...overrides });

const tree = (events: TransactionEvent[], updateId = 'u'): TransactionTree =>
  buildTree({ updateId, offset: 1, events });

describe('compareTrees', () => {
  it('finds a committed transaction the same as what was prepared, contract ids filled in', () => {
    const prepared = tree([
      exercised(0, 2, { exerciseResult: { first: PREPARED_ID, second: `00${'2'.repeat(64)}` } }),
      created(1, { contractId: PREPARED_ID }),
      created(2, { contractId: `00${'2'.repeat(64)}` }),
    ]);
    const committed = tree([
      exercised(0, 3, {
        exerciseResult: { first: COMMITTED_ID, second: `00${'2'.repeat(64)}beef` },
        witnessParties: [ALICE, BOB],
      }),
      created(1, { contractId: COMMITTED_ID }),
      // Another node id (a fetch took 2): ids are the participant's to give.
      created(3, { contractId: `00${'2'.repeat(64)}beef` }),
    ]);
    const comparison = compareTrees(prepared, committed);
    expect(comparison).toEqual({
      isSame: true,
      comparedCount: 3,
      differences: [],
      differenceCount: 0,
    });
  });

  it('treats a left-out trailing optional field as None', () => {
    const prepared = tree([created(0, { createArgument: { owner: ALICE } })]);
    const committed = tree([created(0, { createArgument: { owner: ALICE, note: null } })]);
    expect(compareTrees(prepared, committed).isSame).toBe(true);
  });

  it('lists each difference: arguments, choice, parties, templates, contracts', () => {
    const prepared = tree([
      exercised(0, 1),
      created(1, { createArgument: { owner: ALICE, amount: '10.0' }, observers: [BOB] }),
    ]);
    const committed = tree([
      exercised(0, 1, { choice: 'Iou_Transfer', actingParties: [BOB], contractId: 'other' }),
      created(1, {
        createArgument: { owner: ALICE, amount: '11.0' },
        templateId: `${'b'.repeat(64)}:Demo.Iou:Iou`,
      }),
    ]);
    const { isSame, differences } = compareTrees(prepared, committed);
    expect(isSame).toBe(false);
    expect(differences.map((d) => [d.preparedNodeId, d.what])).toEqual([
      [0, 'the contract differs'],
      [0, 'the choice differs'],
      [0, 'the acting parties differ'],
      [1, 'the template differs'],
      [1, 'the create arguments differ'],
      [1, 'the observers differ'],
    ]);
    expect(differences[4]).toMatchObject({
      node: 'Create Iou',
      prepared: JSON.stringify({ owner: ALICE, amount: '10.0' }),
      committed: JSON.stringify({ owner: ALICE, amount: '11.0' }),
    });
  });

  it('reports nodes only one side has, and a node of another kind', () => {
    const prepared = tree([exercised(0, 2), created(1), created(2)]);
    const committed = tree([exercised(0, 1), exercised(1, 1, { consuming: false })]);
    const { differences } = compareTrees(prepared, committed);
    expect(differences.map((d) => [d.preparedNodeId, d.committedNodeId, d.what])).toEqual([
      [2, null, 'was prepared but not committed'],
      [1, 1, 'the kind of node differs'],
    ]);
  });

  it('refuses an id that was not filled in but replaced', () => {
    const prepared = tree([created(0, { contractId: PREPARED_ID })]);
    const committed = tree([created(0, { contractId: `00${'9'.repeat(64)}` })]);
    expect(compareTrees(prepared, committed).differences.map((d) => d.what)).toEqual([
      'the contract id differs',
    ]);
  });

  it('pairs new contract ids when the commit was interpreted anew from the same commands', () => {
    const other = `00${'9'.repeat(64)}`;
    const prepared = tree([
      exercised(0, 1, { exerciseResult: PREPARED_ID }),
      created(1, { contractId: PREPARED_ID }),
    ]);
    const committed = tree([
      exercised(0, 1, { exerciseResult: other }),
      created(1, { contractId: other }),
    ]);
    expect(compareTrees(prepared, committed, { isReinterpreted: true }).isSame).toBe(true);
    expect(compareTrees(prepared, committed).differences.map((d) => d.what)).toEqual([
      'the contract id differs',
      'the exercise result differs',
    ]);
  });

  it('compares an 11,000-node tree with itself, and caps the list of differences', () => {
    const big = fanoutTree({ width: 10, depth: 4 }).events;
    expect(big.events.length).toBeGreaterThan(10_000);
    const same = compareTrees(buildTree(big), buildTree(big));
    expect(same.isSame).toBe(true);
    expect(same.comparedCount).toBe(buildTree(big).nodes.size);
    const changed = buildTree({
      ...big,
      events: big.events.map((event) =>
        event.kind === 'created' ? { ...event, signatories: [BOB] } : event,
      ),
    });
    const comparison = compareTrees(buildTree(big), changed, { maxDifferences: 5 });
    expect(comparison.differences).toHaveLength(5);
    expect(comparison.differenceCount).toBeGreaterThan(5);
  });
});
