import { describe, expect, it } from 'vitest';
import type { CreatedEvent, ExercisedEvent, TransactionEvent } from './model';
import { CREATE_ACTION, rootActionsOf } from './root-actions';

const IOU = 'pkg:Demo.Iou:Iou';
const ACCOUNT = 'pkg:Demo.Account:Account';

const base = (nodeId: number, templateId: string) => ({
  nodeId,
  contractId: `cid-${String(nodeId)}`,
  templateId,
  packageName: 'demo',
  witnessParties: ['alice'],
  acsDelta: true,
});

const created = (nodeId: number, templateId = IOU): CreatedEvent => ({
  ...base(nodeId, templateId),
  kind: 'created',
  createArgument: {},
  contractKey: null,
  signatories: ['alice'],
  observers: [],
  createdAt: null,
});

const exercised = (
  nodeId: number,
  lastDescendantNodeId: number,
  choice: string,
  templateId = IOU,
): ExercisedEvent => ({
  ...base(nodeId, templateId),
  kind: 'exercised',
  choice,
  choiceArgument: {},
  exerciseResult: null,
  consuming: true,
  interfaceId: null,
  actingParties: ['alice'],
  lastDescendantNodeId,
});

const actions = (events: TransactionEvent[]) => rootActionsOf({ updateId: 'u', offset: 1, events });

describe('rootActionsOf', () => {
  it('names a create command by its template and Create', () => {
    expect(actions([created(0)])).toEqual([{ templateId: IOU, choice: CREATE_ACTION }]);
  });

  it('names an exercise by its choice, not by what it did inside', () => {
    // Iou_Split at 0 creates two Ious (1, 2) inside its range.
    expect(actions([exercised(0, 2, 'Iou_Split'), created(1), created(2)])).toEqual([
      { templateId: IOU, choice: 'Iou_Split' },
    ]);
  });

  it('lists each distinct root action once, in order, after an exercise range ends', () => {
    const events = [
      exercised(0, 1, 'Account_Issue', ACCOUNT),
      created(1),
      created(2, ACCOUNT),
      exercised(3, 3, 'Account_Issue', ACCOUNT),
    ];
    expect(actions(events)).toEqual([
      { templateId: ACCOUNT, choice: 'Account_Issue' },
      { templateId: ACCOUNT, choice: CREATE_ACTION },
    ]);
  });

  it('leaves archived events (ACS_DELTA) out, and an empty transaction has none', () => {
    const archived: TransactionEvent = { ...base(0, IOU), kind: 'archived' };
    expect(actions([archived, created(1)])).toEqual([{ templateId: IOU, choice: CREATE_ACTION }]);
    expect(actions([])).toEqual([]);
  });
});
