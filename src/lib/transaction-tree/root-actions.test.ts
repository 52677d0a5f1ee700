import { describe, expect, it } from 'vitest';
import { randomTree, SAMPLE_TREE_SHAPE, shapedTree } from '@/testing/tree-generators';
import type { TransactionEvents } from './model';
import { CREATE_ACTION, rootActionsOf } from './root-actions';

/** The actions as `[entity, choice]`: the generator's package id is noise here. */
const named = (events: TransactionEvents) =>
  rootActionsOf(events).map(({ templateId, choice }) => [templateId.split(':').at(-1), choice]);

describe('rootActionsOf', () => {
  it('names a create command by its template and Create', () => {
    expect(named(shapedTree([{}]).events)).toEqual([['Iou', CREATE_ACTION]]);
  });

  it('names an exercise by its choice, not by what it did inside', () => {
    const { events } = shapedTree([{ choice: 'Iou_Split', children: [{}, {}] }]);
    expect(named(events)).toEqual([['Iou', 'Iou_Split']]);
  });

  it('lists each distinct root action once, in order, after an exercise range ends', () => {
    const { events } = shapedTree([...SAMPLE_TREE_SHAPE, { choice: 'Transfer' }, {}]);
    expect(named(events)).toEqual([
      ['Iou', 'Transfer'],
      ['Iou', CREATE_ACTION],
    ]);
  });

  it('finds exactly the roots of random trees (the generator knows each parent)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { events, parentOf } = randomTree({ seed, size: 60 });
      const roots = events.events.filter((event) => parentOf.get(event.nodeId) === null);
      const expected = [
        ...new Map(
          roots.map((event) => {
            const choice = event.kind === 'exercised' ? event.choice : CREATE_ACTION;
            return [`${event.templateId} ${choice}`, { templateId: event.templateId, choice }];
          }),
        ).values(),
      ];
      expect(rootActionsOf(events), `seed ${String(seed)}`).toEqual(expected);
    }
  });

  it('has none for an empty transaction', () => {
    expect(rootActionsOf({ updateId: 'u', offset: 1, events: [] })).toEqual([]);
  });
});
