import { mintUserToken } from '../auth/user-token';
import type { Sandbox } from '../create-sandbox';

/**
 * The `--seed demo` contents: a participant a newcomer can explore right away. Everything goes
 * through the sandbox's own JSON API (in process, via `sandbox.fetch`), so the seed takes the
 * same code paths as any client and never writes ledger data directly. Party hints, user ids and
 * command ids are fixed; contract and update ids are the ledger's own.
 *
 * The seed is resumable: it records in the store that it started before its first write and that
 * it finished after its last. A sandbox killed in between finds `started` on restart and runs the
 * seed again, each step first looking for what an earlier run already did (the IdP, a party by
 * its hint, a user by its id, a command by its command id), so the demo ends up there once.
 */

export const DEMO_IDP = {
  identityProviderId: 'acme-idp',
  isDeactivated: false,
  // example.com-style names: the JWKS is only fetched if someone signs in through this IdP.
  issuer: 'https://idp.acme.example',
  jwksUrl: 'https://idp.acme.example/.well-known/jwks.json',
  audience: 'https://ledger.acme.example',
} as const;

/** Party id hints, each becoming `<hint>::<participant namespace>`. */
export const DEMO_PARTY_HINTS = {
  alice: 'alice',
  bob: 'bob',
  carol: 'carol',
  bank: 'bank',
  auditor: 'auditor',
  acmeTrader: 'acme-trader',
  acmeTreasury: 'acme-treasury',
} as const;
type PartyKey = keyof typeof DEMO_PARTY_HINTS;

/** Login-style ids for the people, so they do not collide with the README's `alice` example. */
export const DEMO_USER_IDS = {
  alice: 'alice.anderson',
  bob: 'bob.brown',
  carol: 'carol.chen',
} as const;
const U = DEMO_USER_IDS;
export type DemoParties = Record<PartyKey, string>;

export type SeedResult =
  | { seeded: false; reason: string }
  | {
      seeded: true;
      /** Whether this run completed a seed that an earlier, interrupted run started. */
      resumed: boolean;
      parties: DemoParties;
      users: string[];
      ledgerEnd: number;
    };

export type SeedOptions = {
  /** The sandbox's HS256 secret in `jwt` mode: the seed then sends user tokens it mints. */
  jwtSecret?: string;
  /**
   * Called once a step is durably done, with its name (`idp`, `party:<hint>`, `user:<id>`,
   * `command:<command id>`); the seed waits for it before the next step. `--seed-pause-after`
   * uses it to hold a seed at a known point, e.g. for a test that kills the process there.
   */
  afterStep?: (step: string) => Promise<void> | void;
};

const IOU = '#sandbox-demo:Demo.Iou:Iou';
const ACCOUNT = '#sandbox-demo:Demo.Account:Account';
const FANOUT = '#sandbox-demo:Demo.Fanout:Fanout';
const ADMIN = 'participant_admin';
const WORKFLOW = 'demo-seed';

type Right = { kind: Record<string, { value: Record<string, string> }> };
const actAs = (party: string): Right => ({ kind: { CanActAs: { value: { party } } } });
const readAs = (party: string): Right => ({ kind: { CanReadAs: { value: { party } } } });
const executeAs = (party: string): Right => ({ kind: { CanExecuteAs: { value: { party } } } });
const plain = (kind: string): Right => ({ kind: { [kind]: { value: {} } } });

type TreeEvent =
  | { CreatedTreeEvent: { value: { nodeId: number; contractId: string; templateId: string } } }
  | {
      ExercisedTreeEvent: {
        value: { nodeId: number; contractId: string; choice: string; exerciseResult: unknown };
      };
    };
type TransactionTree = {
  offset: number;
  commandId: string;
  eventsById: Record<string, TreeEvent>;
};

/** Raised when a seed request fails: names the request and carries the API's answer. */
export class SeedError extends Error {}

/**
 * Populates an empty sandbox with demo parties, users, an extra IdP and some ledger history.
 * A ledger that already has updates or users besides participant_admin is left alone, so a
 * sandbox restarted on its `--data-dir` is never seeded twice.
 */
export async function seedDemo(
  sandbox: Pick<Sandbox, 'fetch' | 'state'>,
  { jwtSecret, afterStep }: SeedOptions = {},
): Promise<SeedResult> {
  const progress = sandbox.state.seedProgress;
  const tokens = new Map<string, string>();
  const tokenFor = async (userId: string) => {
    if (jwtSecret === undefined) return undefined;
    let token = tokens.get(userId);
    if (token === undefined) {
      token = await mintUserToken(jwtSecret, userId, '5m');
      tokens.set(userId, token);
    }
    return token;
  };

  /** The answer's status and parsed body, or undefined for a 404. */
  const request = async <T>(
    method: string,
    path: string,
    body: unknown,
    as: string = ADMIN,
    { notFound = false } = {},
  ): Promise<T | undefined> => {
    const headers = new Headers();
    if (body !== undefined) headers.set('content-type', 'application/json');
    const token = await tokenFor(as);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    const response = await sandbox.fetch(
      new Request(`http://sandbox.seed${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await response.text();
    if (notFound && response.status === 404) return undefined;
    if (!response.ok) {
      throw new SeedError(
        `demo seed: ${method} ${path} answered ${String(response.status)}: ${text.slice(0, 500)}`,
      );
    }
    return JSON.parse(text) as T;
  };
  const call = async <T>(method: string, path: string, body: unknown, as: string = ADMIN) =>
    (await request<T>(method, path, body, as)) as T;
  /** GET that answers undefined when the resource does not exist. */
  const find = <T>(path: string) => request<T>('GET', path, undefined, ADMIN, { notFound: true });
  const stepDone = async (step: string) => {
    await afterStep?.(step);
  };

  // ── Only an untouched ledger is seeded, or one whose seed an earlier run began ──
  const ledgerEndOf = async () =>
    (await call<{ offset: number }>('GET', '/v2/state/ledger-end', undefined)).offset;
  const recorded = progress.get();
  if (recorded === 'finished') return { seeded: false, reason: 'the demo seed already ran' };
  const resumed = recorded === 'started';
  if (!resumed) {
    const ledgerEnd = await ledgerEndOf();
    if (ledgerEnd > 0) {
      return {
        seeded: false,
        reason: `the ledger is not empty (ledger end ${String(ledgerEnd)})`,
      };
    }
    const { users: existing } = await call<{ users: { id: string }[] }>(
      'GET',
      '/v2/users?pageSize=2',
      undefined,
    );
    const { identityProviderConfigs } = await call<{ identityProviderConfigs: unknown[] }>(
      'GET',
      '/v2/idps',
      undefined,
    );
    // The user list shows the default IdP's users only; other IdPs' users need an IdP first.
    if (existing.some((user) => user.id !== ADMIN) || identityProviderConfigs.length > 0) {
      return { seeded: false, reason: 'the participant already has users or identity providers' };
    }
    // Durable before the first write: whatever a crash leaves from here on is the seed's own.
    progress.set('started');
  }

  // ── Identity providers and parties ──
  if (!resumed || !(await find(`/v2/idps/${DEMO_IDP.identityProviderId}`))) {
    await call('POST', '/v2/idps', { identityProviderConfig: DEMO_IDP });
  }
  await stepDone('idp');
  // Parties go to the first connected synchronizer, where the sandbox commits commands; naming
  // it is required once the participant is connected to several.
  const { connectedSynchronizers } = await call<{
    connectedSynchronizers: { synchronizerId: string }[];
  }>('GET', '/v2/state/connected-synchronizers', undefined);
  const synchronizerId = connectedSynchronizers[0]?.synchronizerId ?? '';

  /** Parties an earlier run allocated, by hint (every page of the participant's list). */
  const earlierParties = new Map<string, string>();
  if (resumed) {
    let pageToken = '';
    do {
      const page = await call<{ partyDetails: { party: string }[]; nextPageToken: string }>(
        'GET',
        `/v2/parties?pageToken=${encodeURIComponent(pageToken)}`,
        undefined,
      );
      for (const { party } of page.partyDetails)
        earlierParties.set(party.split('::')[0] ?? '', party);
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
  }
  const allocate = async (
    hint: string,
    identityProviderId: string,
    annotations: Record<string, string>,
  ) => {
    let party = earlierParties.get(hint);
    if (party === undefined) {
      const { partyDetails } = await call<{ partyDetails: { party: string } }>(
        'POST',
        '/v2/parties',
        {
          partyIdHint: hint,
          identityProviderId,
          synchronizerId,
          localMetadata: { resourceVersion: '', annotations },
        },
      );
      party = partyDetails.party;
    }
    await stepDone(`party:${hint}`);
    return party;
  };
  const note = (description: string) => ({ 'ledger-console.example/description': description });
  const p: DemoParties = {
    alice: await allocate(DEMO_PARTY_HINTS.alice, '', note('Trader at the demo bank')),
    bob: await allocate(DEMO_PARTY_HINTS.bob, '', note('Trader at the demo bank')),
    carol: await allocate(DEMO_PARTY_HINTS.carol, '', {}),
    bank: await allocate(DEMO_PARTY_HINTS.bank, '', note('Issues accounts and IOUs')),
    auditor: await allocate(
      DEMO_PARTY_HINTS.auditor,
      '',
      note('Reads everything, acts on nothing'),
    ),
    acmeTrader: await allocate(DEMO_PARTY_HINTS.acmeTrader, DEMO_IDP.identityProviderId, {}),
    acmeTreasury: await allocate(DEMO_PARTY_HINTS.acmeTreasury, DEMO_IDP.identityProviderId, {}),
  };

  // ── Users ──
  const users: string[] = [];
  const createUser = async (
    id: string,
    {
      primaryParty = '',
      rights = [],
      isDeactivated = false,
      identityProviderId = '',
      annotations = {},
    }: {
      primaryParty?: string;
      rights?: Right[];
      isDeactivated?: boolean;
      identityProviderId?: string;
      annotations?: Record<string, string>;
    },
  ) => {
    // A user and its rights are created in one request, so an existing user is complete.
    const earlier =
      resumed &&
      (await find(
        `/v2/users/${id}?identity-provider-id=${encodeURIComponent(identityProviderId)}`,
      ));
    if (!earlier) {
      await call('POST', '/v2/users', {
        user: {
          id,
          primaryParty,
          isDeactivated,
          identityProviderId,
          metadata: { resourceVersion: '', annotations },
        },
        rights,
      });
    }
    users.push(id);
    await stepDone(`user:${id}`);
  };
  await createUser('ops-admin', {
    rights: [plain('ParticipantAdmin')],
    annotations: { team: 'platform', 'ledger-console.example/on-call': 'yes' },
  });
  await createUser(U.alice, {
    primaryParty: p.alice,
    rights: [actAs(p.alice)],
    annotations: { 'display-name': 'Alice Anderson', department: 'trading' },
  });
  await createUser(U.bob, {
    primaryParty: p.bob,
    rights: [actAs(p.bob)],
    annotations: { 'display-name': 'Bob Brown', department: 'trading' },
  });
  // Carol acts as herself and may read what Alice sees (a desk colleague).
  await createUser(U.carol, { primaryParty: p.carol, rights: [actAs(p.carol), readAs(p.alice)] });
  await createUser('bank-operator', {
    primaryParty: p.bank,
    rights: [actAs(p.bank)],
    annotations: { department: 'issuance' },
  });
  await createUser('bank-reader', { primaryParty: p.bank, rights: [readAs(p.bank)] });
  // Prepares and executes externally signed transactions for the bank, but cannot submit itself.
  await createUser('settlement-bot', { rights: [executeAs(p.bank), readAs(p.bank)] });
  await createUser('auditor', {
    primaryParty: p.auditor,
    rights: [plain('CanReadAsAnyParty')],
    annotations: { 'display-name': 'External auditor', 'audit.example/engagement': '2025-Q4' },
  });
  await createUser('former-employee', {
    primaryParty: p.carol,
    rights: [readAs(p.carol)],
    isDeactivated: true,
    annotations: { offboarded: '2025-06-30' },
  });
  // acme-idp: its own administrator, a trader and a read-only analyst, with its own parties.
  const acme = { identityProviderId: DEMO_IDP.identityProviderId };
  await createUser('acme-admin', { ...acme, rights: [plain('IdentityProviderAdmin')] });
  await createUser('acme-trader', {
    ...acme,
    primaryParty: p.acmeTrader,
    rights: [actAs(p.acmeTrader)],
  });
  await createUser('acme-analyst', {
    ...acme,
    rights: [readAs(p.acmeTrader), readAs(p.acmeTreasury)],
    annotations: { department: 'treasury' },
  });

  // ── Ledger history ──
  /** The trees `party` sees, by command id: what an earlier run committed, when resuming. */
  const earlierTrees = new Map<string, Promise<Map<string, TransactionTree>>>();
  const committedFor = (party: string) => {
    let trees = earlierTrees.get(party);
    if (trees === undefined) {
      trees = (async () => {
        const updates = await call<{ update: { TransactionTree?: { value: TransactionTree } } }[]>(
          'POST',
          '/v2/updates/trees',
          {
            beginExclusive: 0,
            endInclusive: await ledgerEndOf(),
            filter: { filtersByParty: { [party]: { cumulative: [] } } },
            verbose: false,
          },
        );
        return new Map(
          updates.flatMap(({ update }) =>
            update.TransactionTree
              ? [[update.TransactionTree.value.commandId, update.TransactionTree.value]]
              : [],
          ),
        );
      })();
      earlierTrees.set(party, trees);
    }
    return trees;
  };
  /** Submits as `user` (acting as `party`) and returns the transaction tree it sees. */
  const submit = async (user: string, party: string, commandId: string, commands: unknown[]) => {
    const fullCommandId = `demo-seed-${commandId}`;
    let tree = resumed ? (await committedFor(party)).get(fullCommandId) : undefined;
    if (tree === undefined) {
      ({ transactionTree: tree } = await call<{ transactionTree: TransactionTree }>(
        'POST',
        '/v2/commands/submit-and-wait-for-transaction-tree',
        {
          commands,
          commandId: fullCommandId,
          actAs: [party],
          userId: user,
          workflowId: WORKFLOW,
        },
        user,
      ));
    }
    await stepDone(`command:${fullCommandId}`);
    return Object.values(tree.eventsById).sort((a, b) => nodeId(a) - nodeId(b));
  };
  const created = (events: TreeEvent[]) =>
    events.flatMap((event) =>
      'CreatedTreeEvent' in event ? [event.CreatedTreeEvent.value.contractId] : [],
    );
  const only = (ids: string[], what: string) => {
    const [id] = ids;
    if (ids.length !== 1 || id === undefined) {
      throw new SeedError(
        `demo seed: expected one contract from ${what}, got ${String(ids.length)}`,
      );
    }
    return id;
  };
  const exercise = (
    templateId: string,
    contractId: string,
    choice: string,
    choiceArgument: object,
  ) => ({
    ExerciseCommand: { templateId, contractId, choice, choiceArgument },
  });

  // The bank opens four keyed accounts in one transaction.
  const accounts = [
    { owner: p.alice, number: 'ACC-0001' },
    { owner: p.bob, number: 'ACC-0002' },
    { owner: p.carol, number: 'ACC-0003' },
    { owner: p.acmeTrader, number: 'ACC-0004' },
  ];
  await submit(
    'bank-operator',
    p.bank,
    'open-accounts',
    accounts.map(({ owner, number }) => ({
      CreateCommand: { templateId: ACCOUNT, createArguments: { bank: p.bank, owner, number } },
    })),
  );

  // Issuing by key: a non-consuming exercise with a fetch-by-key and a create below it.
  const issue = async (commandId: string, number: string, currency: string, amount: string) =>
    only(
      created(
        await submit('bank-operator', p.bank, commandId, [
          {
            ExerciseByKeyCommand: {
              templateId: ACCOUNT,
              contractKey: { bank: p.bank, number },
              choice: 'Account_Issue',
              choiceArgument: { currency, amount },
            },
          },
        ]),
      ),
      commandId,
    );
  const alice1000 = await issue('issue-alice-usd-1', 'ACC-0001', 'USD', '1000.00');
  const alice250 = await issue('issue-alice-usd-2', 'ACC-0001', 'USD', '250.00');
  const bob500 = await issue('issue-bob-usd', 'ACC-0002', 'USD', '500.00');
  const carol400 = await issue('issue-carol-eur', 'ACC-0003', 'EUR', '400.00');
  await issue('issue-acme-chf', 'ACC-0004', 'CHF', '12500.00');
  const mistake = await issue('issue-bob-usd-mistake', 'ACC-0002', 'USD', '5.00');

  // Alice splits 300 off her 1000 and pays it to Bob, who merges it into his 500.
  const split = await submit(U.alice, p.alice, 'alice-split', [
    exercise(IOU, alice1000, 'Iou_Split', { splitAmount: '300.00' }),
  ]);
  const [payment, alice700] = created(split);
  if (payment === undefined || alice700 === undefined) {
    throw new SeedError('demo seed: Iou_Split did not create two contracts');
  }
  const paid = only(
    created(
      await submit(U.alice, p.alice, 'alice-pays-bob', [
        exercise(IOU, payment, 'Iou_Transfer', { newOwner: p.bob }),
      ]),
    ),
    'alice-pays-bob',
  );
  await submit(U.bob, p.bob, 'bob-merge', [exercise(IOU, bob500, 'Iou_Merge', { otherCid: paid })]);

  // Alice lets the auditor see her remaining 700, then merges in her second IOU.
  const observed = only(
    created(
      await submit(U.alice, p.alice, 'alice-add-auditor', [
        exercise(IOU, alice700, 'Iou_AddObserver', { newObserver: p.auditor }),
      ]),
    ),
    'alice-add-auditor',
  );
  await submit(U.alice, p.alice, 'alice-merge', [
    exercise(IOU, observed, 'Iou_Merge', { otherCid: alice250 }),
  ]);

  // Carol pays a party of the other IdP; the bank voids an IOU it issued by mistake.
  await submit(U.carol, p.carol, 'carol-pays-acme', [
    exercise(IOU, carol400, 'Iou_Transfer', { newOwner: p.acmeTrader }),
  ]);
  await submit('bank-operator', p.bank, 'bank-voids-mistake', [
    exercise(IOU, mistake, 'Archive', {}),
  ]);

  // A moderate tree for the transaction views: width 2, depth 3 is 21 nodes under the root.
  const fanout = only(
    created(
      await submit(U.alice, p.alice, 'fanout-create', [
        {
          CreateCommand: {
            templateId: FANOUT,
            createArguments: { owner: p.alice, label: 'report' },
          },
        },
      ]),
    ),
    'fanout-create',
  );
  await submit(U.alice, p.alice, 'fanout-run', [
    exercise(FANOUT, fanout, 'Fanout_Run', { width: '2', depth: '3' }),
  ]);

  progress.set('finished');
  return { seeded: true, resumed, parties: p, users, ledgerEnd: await ledgerEndOf() };
}

const nodeId = (event: TreeEvent) =>
  'CreatedTreeEvent' in event
    ? event.CreatedTreeEvent.value.nodeId
    : event.ExercisedTreeEvent.value.nodeId;
