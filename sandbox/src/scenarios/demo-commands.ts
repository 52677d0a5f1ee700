/**
 * Commands on the sandbox's executable package, `sandbox-demo` (ledger/demo-package.ts), in the
 * JSON API's wire shape: what the demo seed, the tests and the benchmarks submit.
 */

export const IOU_TEMPLATE = '#sandbox-demo:Demo.Iou:Iou';
export const ACCOUNT_TEMPLATE = '#sandbox-demo:Demo.Account:Account';
export const FANOUT_TEMPLATE = '#sandbox-demo:Demo.Fanout:Fanout';
export const ISSUANCE_TEMPLATE = '#sandbox-demo:Demo.Iou:IouIssuance';

export type Command = Record<string, unknown>;

const exercise = (
  templateId: string,
  contractId: string,
  choice: string,
  choiceArgument: object,
): Command => ({ ExerciseCommand: { templateId, contractId, choice, choiceArgument } });

export function createIou({
  issuer,
  owner,
  currency,
  amount,
  observers = [],
}: {
  issuer: string;
  owner: string;
  currency: string;
  amount: string;
  observers?: string[];
}): Command {
  return {
    CreateCommand: {
      templateId: IOU_TEMPLATE,
      createArguments: { issuer, owner, currency, amount, observers },
    },
  };
}

/** Archives the Iou and creates two: `splitAmount` first, the rest second. */
export const splitIou = (iouId: string, splitAmount: string) =>
  exercise(IOU_TEMPLATE, iouId, 'Iou_Split', { splitAmount });
export const transferIou = (iouId: string, newOwner: string) =>
  exercise(IOU_TEMPLATE, iouId, 'Iou_Transfer', { newOwner });
export const mergeIou = (iouId: string, otherCid: string) =>
  exercise(IOU_TEMPLATE, iouId, 'Iou_Merge', { otherCid });
export const addIouObserver = (iouId: string, newObserver: string) =>
  exercise(IOU_TEMPLATE, iouId, 'Iou_AddObserver', { newObserver });
export const archiveIou = (iouId: string) => exercise(IOU_TEMPLATE, iouId, 'Archive', {});

export const openAccount = (account: { bank: string; owner: string; number: string }): Command => ({
  CreateCommand: { templateId: ACCOUNT_TEMPLATE, createArguments: account },
});

/** By the account's key: a non-consuming exercise that fetches it by key and creates an Iou. */
export const issueIouFromAccount = ({
  bank,
  number,
  currency,
  amount,
}: {
  bank: string;
  number: string;
  currency: string;
  amount: string;
}): Command => ({
  ExerciseByKeyCommand: {
    templateId: ACCOUNT_TEMPLATE,
    contractKey: { bank, number },
    choice: 'Account_Issue',
    choiceArgument: { currency, amount },
  },
});

export const createFanout = (owner: string, label: string): Command => ({
  CreateCommand: { templateId: FANOUT_TEMPLATE, createArguments: { owner, label } },
});

type FanoutShape = { width: number; depth: number };

/** Fanout_Run: `width` children per level, `depth` levels below the exercise. */
export const runFanout = (fanoutId: string, { width, depth }: FanoutShape) =>
  exercise(FANOUT_TEMPLATE, fanoutId, 'Fanout_Run', {
    width: String(width),
    depth: String(depth),
  });

/** Create and Fanout_Run in one command: a tree of known size in one transaction. */
export const createAndRunFanout = (
  owner: string,
  label: string,
  { width, depth }: FanoutShape,
): Command => ({
  CreateAndExerciseCommand: {
    templateId: FANOUT_TEMPLATE,
    createArguments: { owner, label },
    choice: 'Fanout_Run',
    choiceArgument: { width: String(width), depth: String(depth) },
  },
});

/**
 * Create and IouIssuance_Issue in one command: `count` Ious of `amount` from `issuer` to `owner`
 * in one transaction (at most MAX_ISSUANCE_COUNT, demo-package.ts).
 */
export const issueIous = ({
  issuer,
  owner,
  currency,
  amount,
  count,
}: {
  issuer: string;
  owner: string;
  currency: string;
  amount: string;
  count: number;
}): Command => ({
  CreateAndExerciseCommand: {
    templateId: ISSUANCE_TEMPLATE,
    createArguments: { issuer, owner, currency, amount, count: String(count) },
    choice: 'IouIssuance_Issue',
    choiceArgument: {},
  },
});
