import { createAndRunFanout, createIou, splitIou, type Command } from './demo-commands';
import type { LedgerClient } from './ledger-client';

/**
 * The scenario vocabulary: the steps the demo seed, the component tests, the Playwright journeys
 * and the benchmarks take on a participant, each through its real endpoint, so every caller
 * issues the same requests whichever transport carries them. A failed step throws the answer.
 */

export type ScenarioRight =
  | { kind: 'CanActAs' | 'CanReadAs' | 'CanExecuteAs'; party: string }
  | {
      kind:
        | 'CanActAsAnyParty'
        | 'CanReadAsAnyParty'
        | 'CanExecuteAsAnyParty'
        | 'ParticipantAdmin'
        | 'IdentityProviderAdmin';
    };

const wireRight = (right: ScenarioRight) =>
  'party' in right
    ? { kind: { [right.kind]: { value: { party: right.party } } } }
    : { kind: { [right.kind]: { value: {} } } };

/** A transaction in the LEDGER_EFFECTS shape, as `submit` returns it. */
export type WireTransaction = {
  updateId: string;
  offset: number;
  /** What the participant paid for it, for the submitting parties; null without traffic cost. */
  paidTrafficCost?: number | null;
  events: {
    CreatedEvent?: { contractId: string; nodeId: number };
    ExercisedEvent?: { contractId: string; nodeId: number };
  }[];
};

export type TreeEvent =
  | { CreatedTreeEvent: { value: { nodeId: number; contractId: string; templateId: string } } }
  | {
      ExercisedTreeEvent: {
        value: { nodeId: number; contractId: string; choice: string; exerciseResult: unknown };
      };
    };
export type TransactionTree = {
  updateId: string;
  offset: number;
  commandId: string;
  eventsById: Record<string, TreeEvent>;
};

/** The contracts a transaction created, in node order. */
export const createdContractIds = (transaction: WireTransaction): string[] =>
  transaction.events.flatMap((event) =>
    event.CreatedEvent ? [event.CreatedEvent.contractId] : [],
  );

/** The contracts a transaction tree created, in node order. */
export const createdInTree = (tree: TransactionTree): string[] =>
  Object.values(tree.eventsById)
    .sort((a, b) => treeNodeId(a) - treeNodeId(b))
    .flatMap((event) =>
      'CreatedTreeEvent' in event ? [event.CreatedTreeEvent.value.contractId] : [],
    );

const treeNodeId = (event: TreeEvent) =>
  'CreatedTreeEvent' in event
    ? event.CreatedTreeEvent.value.nodeId
    : event.ExercisedTreeEvent.value.nodeId;

/** Eight random hex digits, for ids that must not collide across tests on one sandbox. */
const freshSuffix = () => crypto.randomUUID().slice(0, 8);

export type Submission = {
  actAs: string[];
  /** Without auth there is no token to take the user from; the admin is always there. */
  userId?: string;
  commandId?: string;
  workflowId?: string;
  /** A token for this submission only (the submitting user's, in jwt mode). */
  token?: string;
};

export type IdentityProviderSpec = {
  issuer?: string;
  jwksUrl?: string;
  audience?: string;
  isDeactivated?: boolean;
};

export type UserSpec = {
  primaryParty?: string;
  rights?: readonly ScenarioRight[];
  isDeactivated?: boolean;
  identityProviderId?: string;
  annotations?: Record<string, string>;
};

export type LedgerSteps = ReturnType<typeof ledgerSteps>;

export function ledgerSteps(client: LedgerClient) {
  const { request } = client;
  const commandsOf = (
    commands: readonly Command[],
    {
      actAs,
      userId = 'participant_admin',
      commandId = `scenario-${crypto.randomUUID()}`,
      workflowId,
    }: Submission,
  ) => ({
    commands,
    commandId,
    actAs,
    userId,
    ...(workflowId === undefined ? {} : { workflowId }),
  });

  const submitTo = <T>(endpoint: string, { token }: Submission, body: unknown) =>
    request<T>('POST', `/v2/commands/${endpoint}`, { body, token });

  const steps = {
    client,

    ledgerEnd: async (): Promise<number> => {
      return (await request<{ offset: number }>('GET', '/v2/state/ledger-end')).offset;
    },

    /**
     * A party `<hint>::<namespace>`. `synchronizerId` is needed once the participant is connected
     * to several synchronizers.
     */
    allocateParty: async (
      hint: string,
      {
        identityProviderId = '',
        synchronizerId = '',
        annotations,
        token,
      }: {
        identityProviderId?: string;
        synchronizerId?: string;
        annotations?: Record<string, string>;
        token?: string;
      } = {},
    ): Promise<string> => {
      const { partyDetails } = await request<{ partyDetails: { party: string } }>(
        'POST',
        '/v2/parties',
        {
          body: {
            partyIdHint: hint,
            identityProviderId,
            synchronizerId,
            ...(annotations === undefined
              ? {}
              : { localMetadata: { resourceVersion: '', annotations } }),
          },
          token,
        },
      );
      return partyDetails.party;
    },

    /** A party whose hint is `<prefix>-<8 random hex digits>`. */
    allocateFreshParty: (prefix: string): Promise<string> =>
      steps.allocateParty(`${prefix}-${freshSuffix()}`),

    /** A user and its rights, in one request. */
    createUser: async (
      id: string,
      {
        primaryParty = '',
        rights = [],
        isDeactivated = false,
        identityProviderId = '',
        annotations = {},
      }: UserSpec = {},
    ): Promise<void> => {
      await request('POST', '/v2/users', {
        body: {
          user: {
            id,
            primaryParty,
            isDeactivated,
            identityProviderId,
            metadata: { resourceVersion: '', annotations },
          },
          rights: rights.map(wireRight),
        },
      });
    },

    updatePrimaryParty: async (userId: string, primaryParty: string): Promise<void> => {
      await request('PATCH', `/v2/users/${encodeURIComponent(userId)}`, {
        body: { user: { id: userId, primaryParty }, updateMask: { paths: ['primary_party'] } },
      });
    },

    /** Issuer and JWKS URL default to `https://<id>.example…`, fetched only at a sign-in. */
    createIdentityProvider: async (
      identityProviderId: string,
      {
        issuer = `https://${identityProviderId}.example`,
        jwksUrl = `https://${identityProviderId}.example/jwks.json`,
        audience = '',
        isDeactivated = false,
      }: IdentityProviderSpec = {},
    ): Promise<void> => {
      await request('POST', '/v2/idps', {
        body: {
          identityProviderConfig: { identityProviderId, isDeactivated, issuer, jwksUrl, audience },
        },
      });
    },

    /** `vetAllPackages` omitted leaves the participant's default. */
    uploadDar: async (
      bytes: Uint8Array<ArrayBuffer>,
      { vetAllPackages, token }: { vetAllPackages?: boolean; token?: string } = {},
    ): Promise<void> => {
      const query = vetAllPackages === undefined ? '' : `?vetAllPackages=${String(vetAllPackages)}`;
      await request('POST', `/v2/dars${query}`, { bytes, token });
    },

    /** Sandbox only: a token for any of its users (jwt mode), from its control endpoint. */
    mintToken: async (userId: string): Promise<string> => {
      return (await request<{ token: string }>('POST', '/__sandbox/tokens', { body: { userId } }))
        .token;
    },

    /** Submits and waits; the transaction in the LEDGER_EFFECTS shape, as the parties see it. */
    submit: async (
      commands: readonly Command[],
      submission: Submission,
    ): Promise<WireTransaction> =>
      (
        await submitTo<{ transaction: WireTransaction }>(
          'submit-and-wait-for-transaction',
          submission,
          {
            commands: commandsOf(commands, submission),
            transactionFormat: {
              eventFormat: {
                filtersByParty: Object.fromEntries(submission.actAs.map((party) => [party, {}])),
                verbose: true,
              },
              transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
            },
          },
        )
      ).transaction,

    /** Submits and waits for the transaction tree the submitting parties see. */
    submitForTree: async (
      commands: readonly Command[],
      submission: Submission,
    ): Promise<TransactionTree> =>
      (
        await submitTo<{ transactionTree: TransactionTree }>(
          'submit-and-wait-for-transaction-tree',
          submission,
          commandsOf(commands, submission),
        )
      ).transactionTree,

    /** Submits and waits for the commit only: the cheapest round trip. */
    submitAndWait: (
      commands: readonly Command[],
      submission: Submission,
    ): Promise<{ updateId: string }> =>
      submitTo('submit-and-wait', submission, commandsOf(commands, submission)),

    /** A new bank issues an Iou of 100 USD to a new owner, who splits 30 off it. */
    iouSplit: async () => {
      // One after the other, so the owner's allocation always lands at the offset after the
      // issuer's: tests name the topology transactions by offset.
      const issuer = await steps.allocateFreshParty('bank');
      const owner = await steps.allocateFreshParty('owner');
      const create = await steps.submit(
        [createIou({ issuer, owner, currency: 'USD', amount: '100.0' })],
        { actAs: [issuer] },
      );
      const [iouId = ''] = createdContractIds(create);
      const split = await steps.submit([splitIou(iouId, '30.0')], { actAs: [owner] });
      const [first = '', second = ''] = createdContractIds(split);
      return {
        issuer,
        owner,
        /** The Iou that was split (created by `create`, archived by `split`). */
        iouId,
        create,
        /** Exercise Iou_Split (node 0) with its two creates (nodes 1 and 2). */
        split,
        splitIds: [first, second] as [string, string],
      };
    },

    /** `CreateAndExercise Fanout … Fanout_Run { width, depth }` for a new party. */
    fanout: async (shape: { width: number; depth: number }): Promise<WireTransaction> => {
      const owner = await steps.allocateFreshParty('fanout');
      return steps.submit([createAndRunFanout(owner, 'root', shape)], { actAs: [owner] });
    },
  };
  return steps;
}
