import type { CreatedEvent, ExercisedEvent } from '@/lib/transaction-tree/model';

/**
 * Hand-built events of a transaction tree on a demo-like Iou, for the pure tree tests: each a
 * plausible event of `party`, with the fields a test is about given as overrides.
 */

export const TEST_IOU_TEMPLATE = `${'a'.repeat(64)}:Demo.Iou:Iou`;

export const createdEvent = (
  nodeId: number,
  party: string,
  overrides: Partial<CreatedEvent> = {},
): CreatedEvent => ({
  kind: 'created',
  nodeId,
  contractId: `cid-${String(nodeId)}`,
  templateId: TEST_IOU_TEMPLATE,
  packageName: 'demo',
  witnessParties: [party],
  acsDelta: null,
  createArgument: { owner: party, amount: '10.0' },
  contractKey: null,
  signatories: [party],
  observers: [],
  createdAt: null,
  ...overrides,
});

export const exercisedEvent = (
  nodeId: number,
  lastDescendantNodeId: number,
  party: string,
  overrides: Partial<ExercisedEvent> = {},
): ExercisedEvent => ({
  kind: 'exercised',
  nodeId,
  contractId: 'input',
  templateId: TEST_IOU_TEMPLATE,
  packageName: 'demo',
  witnessParties: [party],
  acsDelta: null,
  choice: 'Iou_Split',
  choiceArgument: { splitAmount: '1.0' },
  exerciseResult: null,
  consuming: true,
  interfaceId: null,
  actingParties: [party],
  lastDescendantNodeId,
  ...overrides,
});
