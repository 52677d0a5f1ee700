import { describe, expect, it } from 'vitest';
import { buildTree } from './build-tree';
import { ancestorsOf, type NodeId } from './model';
import { parseQuery, searchTree } from './search';
import { randomTree, shapedTree } from '@/testing/tree-generators';
import { buildVisibleTree, collapseAll } from './visibility';

const ALICE = 'Alice::1220aa';
const BOB = 'Bob::1220bb';

// 0 Transfer (Alice) ─┬─ 1 Iou { memo: "rent" }
//                     └─ 2 Split ──── 3 Account (Bob observes) { number: "ACC-7" }
// 4 Iou
const tree = buildTree(
  shapedTree([
    {
      choice: 'Iou_Transfer',
      contractId: '00deadbeef',
      argument: { newOwner: BOB },
      parties: [ALICE],
      children: [
        { argument: { memo: 'rent' }, parties: [ALICE] },
        {
          choice: 'Iou_Split',
          parties: [ALICE],
          children: [{ template: 'Account', argument: { number: 'ACC-7' }, parties: [ALICE, BOB] }],
        },
      ],
    },
    { parties: [ALICE] },
  ]).events,
);

const sorted = (ids: Iterable<NodeId>) => [...ids].sort((a, b) => a - b);

describe('searchTree', () => {
  it('finds nothing for an empty query', () => {
    const result = searchTree(tree, '   ');
    expect(result.matches).toEqual([]);
    expect(result.ancestors.size).toBe(0);
  });

  it('matches template, choice, contract id, parties and argument text, ignoring case', () => {
    expect(searchTree(tree, 'account').matches).toEqual([3]);
    expect(searchTree(tree, 'iou_split').matches).toEqual([2]);
    expect(searchTree(tree, 'DEADBEEF').matches).toEqual([0]);
    expect(searchTree(tree, 'acc-7').matches).toEqual([3]);
    expect(searchTree(tree, 'rent').matches).toEqual([1]);
    // Bob is the Transfer's argument, and an observer of the Account.
    expect(searchTree(tree, 'bob::').matches).toEqual([0, 3]);
  });

  it('says which fields matched', () => {
    const result = searchTree(tree, 'bob');
    expect(result.fieldsOf.get(0)).toEqual(['arg']);
    expect(result.fieldsOf.get(3)).toEqual(['party']);
    expect(searchTree(tree, 'split').fieldsOf.get(2)).toEqual(['choice']);
  });

  it('needs every term to match, each in any field', () => {
    expect(searchTree(tree, 'account bob').matches).toEqual([3]);
    expect(searchTree(tree, 'account rent').matches).toEqual([]);
  });

  it('limits a term to one field with a prefix', () => {
    expect(searchTree(tree, 'party:bob').matches).toEqual([3]);
    expect(searchTree(tree, 'arg:bob').matches).toEqual([0]);
    expect(searchTree(tree, 'choice:iou').matches).toEqual([0, 2]);
    expect(searchTree(tree, 'template:account').matches).toEqual([3]);
    expect(searchTree(tree, 'contract:deadbeef').matches).toEqual([0]);
  });

  it('keeps the ancestors of every match, and only those', () => {
    const result = searchTree(tree, 'acc-7');
    expect(sorted(result.ancestors)).toEqual([0, 2]);
    expect(sorted(searchTree(tree, 'rent').ancestors)).toEqual([0]);
    expect(searchTree(tree, 'deadbeef').ancestors.size).toBe(0);
  });

  it('makes matches visible through a collapsed tree, keeping the user’s collapsed set', () => {
    const collapsed = collapseAll(tree);
    const result = searchTree(tree, 'acc-7');
    const visible = buildVisibleTree(tree, collapsed, result.ancestors);
    expect(visible.order).toEqual([0, 1, 2, 3, 4]);
    expect(sorted(visible.forcedOpen)).toEqual([0, 2]);
    expect(sorted(collapsed)).toEqual([0, 2]);
    expect(buildVisibleTree(tree, collapsed).order).toEqual([0, 4]);
  });

  it('gives the ancestors of all matches on random trees', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const big = buildTree(randomTree({ seed, size: 300 }).events);
      const result = searchTree(big, 'settle');
      const expected = new Set(result.matches.flatMap((id) => ancestorsOf(big, id)));
      expect(sorted(result.ancestors)).toEqual(sorted(expected));
      const visible = buildVisibleTree(big, collapseAll(big), result.ancestors);
      for (const id of result.matches) expect(visible.rowOf.has(id)).toBe(true);
    }
  });
});

describe('parseQuery', () => {
  it('splits terms and reads known field prefixes only', () => {
    expect(parseQuery('  Choice:Transfer  demo.iou:iou party: ')).toEqual([
      { text: 'transfer', field: 'choice' },
      { text: 'demo.iou:iou', field: null },
      { text: 'party:', field: null },
    ]);
  });
});
