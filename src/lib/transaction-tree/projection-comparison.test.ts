import { describe, expect, it } from 'vitest';
import { createdEvent, exercisedEvent } from '@/testing/tree-events';
import { buildTree } from './build-tree';
import type { CreatedEvent, ExercisedEvent, TransactionEvent, TransactionTree } from './model';
import {
  absentExplanation,
  compareProjections,
  layoutComparison,
  partiesToLookUp,
  unionTree,
  type PartyHosting,
} from './projection-comparison';

const ALICE = `alice::1220${'a'.repeat(64)}`;
const BOB = `bob::1220${'b'.repeat(64)}`;
const CAROL = `carol::1220${'c'.repeat(64)}`;
const NAMES = { here: 'participant1', there: 'participant2' };

const created = (nodeId: number, overrides: Partial<CreatedEvent> = {}) =>
  createdEvent(nodeId, ALICE, overrides);

const exercised = (
  nodeId: number,
  lastDescendantNodeId: number,
  overrides: Partial<ExercisedEvent> = {},
) =>
  exercisedEvent(nodeId, lastDescendantNodeId, ALICE, {
    contractId: 'earlier',
    choice: 'Iou_Transfer',
    ...overrides,
  });

const tree = (events: TransactionEvent[], offset = 1): TransactionTree =>
  buildTree({ updateId: 'u', offset, events });

/** alice on participant1, bob on participant2, carol on both. */
const HOSTING: PartyHosting = new Map([
  [ALICE, { here: true, there: false }],
  [BOB, { here: false, there: true }],
  [CAROL, { here: true, there: true }],
]);

/*
 * The full transaction:
 *   0 create Iou (alice; observer bob)              both see it
 *   1 create Iou (alice)                            participant1 only
 *   2 non-consuming exercise on node 0 by alice     participant1 only (bob is no informee)
 *     3 create Iou (alice; observer bob)            both; participant2 sees it as a root
 *   4 create Iou (signatory bob)                    participant2 only
 */
const full = {
  0: created(0, { observers: [BOB], witnessParties: [ALICE, BOB] }),
  1: created(1),
  2: exercised(2, 3, { contractId: 'cid-0', consuming: false, choice: 'Iou_Look' }),
  3: created(3, { observers: [BOB], witnessParties: [ALICE, BOB] }),
  4: created(4, { signatories: [BOB], witnessParties: [BOB] }),
};
const only = (party: string, event: TransactionEvent) => ({
  ...event,
  witnessParties: event.witnessParties.filter((witness) => witness === party),
});
const here = tree(
  [full[0], full[1], full[2], full[3]].map((event) => only(ALICE, event)),
  10,
);
const there = tree(
  [full[0], full[3], full[4]].map((event) => only(BOB, event)),
  7,
);

describe('unionTree', () => {
  it('merges the projections by node id, each node in its place in the full transaction', () => {
    const union = unionTree(here, there);
    expect(union.order).toEqual([0, 1, 2, 3, 4]);
    expect(union.roots).toEqual([0, 1, 2, 4]);
    expect(union.nodes.get(3)?.parentId).toBe(2);
    // participant2 alone has node 3 at the top: it does not see the exercise above it.
    expect(there.roots).toEqual([0, 3, 4]);
    // The header is this side's (offsets differ per participant).
    expect(union.offset).toBe(10);
  });

  it('lays the union out once, each node where the full transaction puts it', () => {
    const comparison = compareProjections(here, there, HOSTING, NAMES);
    const layout = layoutComparison(comparison);
    expect(layout.nodes.map((node) => node.id)).toEqual([0, 1, 2, 3, 4]);
    const exercise = layout.positionOf.get(2);
    const below = layout.positionOf.get(3);
    expect(below?.y).toBeGreaterThan(exercise?.y ?? Infinity);
    expect(layout.edges).toEqual([{ id: '2-3', source: 2, target: 3 }]);
  });
});

describe('compareProjections', () => {
  const comparison = compareProjections(here, there, HOSTING, NAMES);
  const node = (id: number) => {
    const compared = comparison.nodes.get(id);
    if (!compared) throw new Error(`no node ${String(id)}`);
    return compared;
  };

  it('says which participant sees each node', () => {
    expect([0, 1, 2, 3, 4].map((id) => node(id).seenBy)).toEqual([
      'both',
      'here-only',
      'here-only',
      'both',
      'there-only',
    ]);
    expect(comparison.counts).toEqual({ both: 2, hereOnly: 2, thereOnly: 1 });
  });

  it('names the hosted informees each side sees a node through, with their roles', () => {
    expect(node(0).informees).toEqual([
      { party: ALICE, roles: ['signatory'] },
      { party: BOB, roles: ['observer'] },
    ]);
    expect(node(0).here.through).toEqual([{ party: ALICE, via: null }]);
    expect(node(0).there.through).toEqual([{ party: BOB, via: null }]);
    expect(node(0).reason).toBe(
      'Seen by both: participant1 through alice::1220aa…aaaa (signatory); participant2 through bob::1220bb…bbbb (observer).',
    );
  });

  it('says why the other participant lacks a node: none of its informees is hosted there', () => {
    expect(node(1).reason).toBe(
      'Only participant1 through alice::1220aa…aaaa (signatory). participant2 hosts none of its informees: alice::1220aa…aaaa (signatory, hosted on participant1).',
    );
    expect(node(4).reason).toBe(
      'Only participant2 through bob::1220bb…bbbb (signatory). participant1 hosts none of its informees: bob::1220bb…bbbb (signatory, hosted on participant2).',
    );
  });

  it('leaves a contract’s observers out of a non-consuming exercise’s informees', () => {
    expect(node(2).informees).toEqual([{ party: ALICE, roles: ['signatory', 'acting party'] }]);
    expect(node(2).reason).toContain('participant2 hosts none of its informees');
  });

  it('explains a node seen through an informee of a node above it', () => {
    // A consuming exercise on a contract of an earlier transaction: bob, a stakeholder there,
    // witnesses the create below it though the create names only alice.
    const parent = exercised(0, 1, { witnessParties: [ALICE, BOB] });
    const child = created(1, { witnessParties: [ALICE, BOB] });
    const left = tree([only(ALICE, parent), only(ALICE, child)]);
    const right = tree([only(BOB, parent), only(BOB, child)]);
    const result = compareProjections(left, right, HOSTING, NAMES);
    expect(result.nodes.get(0)?.informees).toEqual([
      { party: ALICE, roles: ['stakeholder', 'acting party'] },
      { party: BOB, roles: ['stakeholder'] },
    ]);
    expect(result.nodes.get(1)?.there.through).toEqual([{ party: BOB, via: 0 }]);
    expect(result.nodes.get(1)?.reason).toBe(
      'Seen by both: participant1 through alice::1220aa…aaaa (signatory); participant2 through bob::1220bb…bbbb (a witness of Exercise Iou_Transfer on Iou, node 0).',
    );
  });

  it('says so when an informee is hosted there but the reader does not see the node there', () => {
    const withCarol = tree([created(0, { observers: [CAROL], witnessParties: [ALICE] })]);
    const empty = tree([]);
    const result = compareProjections(withCarol, empty, HOSTING, NAMES);
    expect(result.nodes.get(0)?.seenBy).toBe('here-only');
    expect(result.nodes.get(0)?.reason).toContain(
      'participant2 does not show it to you, though it hosts carol::1220cc…cccc: you may not read as that party there.',
    );
  });

  it('leaves out witness parties a participant reports but does not host', () => {
    const event = created(0, { observers: [BOB], witnessParties: [ALICE, BOB] });
    const result = compareProjections(tree([event]), tree([event]), HOSTING, NAMES);
    expect(result.nodes.get(0)?.here.through).toEqual([{ party: ALICE, via: null }]);
    expect(result.nodes.get(0)?.there.through).toEqual([{ party: BOB, via: null }]);
  });

  it('says where hosting is unknown rather than guessing', () => {
    const result = compareProjections(here, there, new Map(), NAMES);
    expect(result.nodes.get(1)?.reason).toBe(
      'Only participant1 through alice::1220aa…aaaa (signatory). participant2 hosts none of its informees: alice::1220aa…aaaa (signatory, hosting unknown).',
    );
  });
});

describe('absentExplanation', () => {
  it('lists this transaction’s informees and where each is hosted', () => {
    const aliceOnly = tree([created(0), created(1, { observers: [CAROL] })]);
    const hosting: PartyHosting = new Map([
      [ALICE, { here: true, there: false }],
      [CAROL, { here: true, there: undefined }],
    ]);
    expect(absentExplanation(aliceOnly, hosting, NAMES)).toBe(
      'participant2 hosts none of this transaction’s informees: alice::1220aa…aaaa (hosted on participant1) and carol::1220cc…cccc (hosted on participant1).',
    );
  });

  it('suggests read rights when an informee is hosted there', () => {
    expect(absentExplanation(here, HOSTING, NAMES)).toContain(
      'participant2 has no update with this id for you, though it hosts bob::1220bb…bbbb',
    );
  });
});

describe('partiesToLookUp', () => {
  it('collects informees and witnesses of both trees once each, bounded', () => {
    expect(partiesToLookUp([here, there])).toEqual([ALICE, BOB]);
    expect(partiesToLookUp([here, there], 1)).toEqual([ALICE]);
  });
});
