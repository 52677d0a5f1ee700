/**
 * Commands as the JSON Ledger API takes them, for the route tests that submit through the
 * endpoints (ledger-history.ts submits to the ledger directly instead).
 */

/** The demo package's Iou create arguments. */
export const iou = (
  issuer: string,
  owner: string,
  amount: string | number = '100',
  observers: string[] = [],
) => ({
  issuer,
  owner,
  currency: 'USD',
  amount,
  observers,
});

export const create = (templateId: string, createArguments: unknown) => ({
  CreateCommand: { templateId, createArguments },
});

export const exercise = (
  templateId: string,
  contractId: string,
  choice: string,
  choiceArgument: unknown,
) => ({
  ExerciseCommand: { templateId, contractId, choice, choiceArgument },
});
