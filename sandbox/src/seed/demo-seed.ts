import { mintUserToken } from '../auth/user-token';
import type { Sandbox } from '../create-sandbox';
import {
  addIouObserver,
  archiveIou,
  createFanout,
  issueIouFromAccount,
  mergeIou,
  openAccount,
  runFanout,
  splitIou,
  transferIou,
  type Command,
} from '../scenarios/demo-commands';
import { createLedgerClient, LedgerRequestError } from '../scenarios/ledger-client';
import {
  createdInTree,
  ledgerSteps,
  type ScenarioRight,
  type TransactionTree,
  type UserSpec,
} from '../scenarios/ledger-steps';

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

/** Login-style ids for the people, so they do not collide with the `alice` of docs/sandbox.md's curl example. */
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
   * A user's token when there is no secret to mint with (`oidc` mode: the embedded provider's
   * default issuer signs it, exactly as it would after that user signed in).
   */
  userToken?: (userId: string) => Promise<string>;
  /** The `acme-idp` configuration to create instead of {@link DEMO_IDP} (`oidc` mode). */
  demoIdp?: { issuer: string; jwksUrl: string; audience: string };
  /**
   * Called once a step is durably done, with its name (`idp`, `party:<hint>`, `user:<id>`,
   * `command:<command id>`); the seed waits for it before the next step. `--seed-pause-after`
   * uses it to hold a seed at a known point, e.g. for a test that kills the process there.
   */
  afterStep?: (step: string) => Promise<void> | void;
};

const ADMIN = 'participant_admin';
const WORKFLOW = 'demo-seed';

const actAs = (party: string): ScenarioRight => ({ kind: 'CanActAs', party });
const readAs = (party: string): ScenarioRight => ({ kind: 'CanReadAs', party });
const executeAs = (party: string): ScenarioRight => ({ kind: 'CanExecuteAs', party });

/** Raised when a seed request fails: names the request and carries the API's answer. */
export class SeedError extends Error {}

/**
 * Populates an empty sandbox with demo parties, users, an extra IdP and some ledger history.
 * A ledger that already has updates or users besides participant_admin is left alone, so a
 * sandbox restarted on its `--data-dir` is never seeded twice.
 */
export async function seedDemo(
  sandbox: Pick<Sandbox, 'fetch' | 'state'>,
  options: SeedOptions = {},
): Promise<SeedResult> {
  try {
    return await seedDemoSteps(sandbox, options);
  } catch (error) {
    if (!(error instanceof LedgerRequestError)) throw error;
    throw new SeedError(`demo seed: ${error.message}`, { cause: error });
  }
}

async function seedDemoSteps(
  sandbox: Pick<Sandbox, 'fetch' | 'state'>,
  { jwtSecret, userToken, demoIdp, afterStep }: SeedOptions,
): Promise<SeedResult> {
  const progress = sandbox.state.seedProgress;
  const tokens = new Map<string, string>();
  const withTokens = jwtSecret !== undefined || userToken !== undefined;
  const tokenFor = async (userId: string) => {
    let token = tokens.get(userId);
    if (token === undefined) {
      if (jwtSecret !== undefined) token = await mintUserToken(jwtSecret, userId, '5m');
      else if (userToken !== undefined) token = await userToken(userId);
      else return undefined;
      tokens.set(userId, token);
    }
    return token;
  };

  // Through the sandbox's own API, as any client: the same steps the tests and benchmarks take.
  const ledger = ledgerSteps(
    createLedgerClient({
      transport: (request) => sandbox.fetch(request),
      baseUrl: 'http://sandbox.seed',
      ...(withTokens ? { token: await tokenFor(ADMIN) } : {}),
    }),
  );
  const { request: call, find } = ledger.client;
  const stepDone = async (step: string) => {
    await afterStep?.(step);
  };

  // ── Only an untouched ledger is seeded, or one whose seed an earlier run began ──
  const ledgerEndOf = ledger.ledgerEnd;
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
    );
    const { identityProviderConfigs } = await call<{ identityProviderConfigs: unknown[] }>(
      'GET',
      '/v2/idps',
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
    await ledger.createIdentityProvider(DEMO_IDP.identityProviderId, { ...DEMO_IDP, ...demoIdp });
  }
  await stepDone('idp');
  // Parties go to the first connected synchronizer, where the sandbox commits commands; naming
  // it is required once the participant is connected to several.
  const { connectedSynchronizers } = await call<{
    connectedSynchronizers: { synchronizerId: string }[];
  }>('GET', '/v2/state/connected-synchronizers');
  const synchronizerId = connectedSynchronizers[0]?.synchronizerId ?? '';

  /** Parties an earlier run allocated, by hint (every page of the participant's list). */
  const earlierParties = new Map<string, string>();
  if (resumed) {
    let pageToken = '';
    do {
      const page = await call<{ partyDetails: { party: string }[]; nextPageToken: string }>(
        'GET',
        `/v2/parties?pageToken=${encodeURIComponent(pageToken)}`,
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
    party ??= await ledger.allocateParty(hint, {
      identityProviderId,
      synchronizerId,
      annotations,
    });
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
  const createUser = async (id: string, user: UserSpec) => {
    // A user and its rights are created in one request, so an existing user is complete.
    const earlier =
      resumed &&
      (await find(
        `/v2/users/${id}?identity-provider-id=${encodeURIComponent(user.identityProviderId ?? '')}`,
      ));
    if (!earlier) await ledger.createUser(id, user);
    users.push(id);
    await stepDone(`user:${id}`);
  };
  await createUser('ops-admin', {
    rights: [{ kind: 'ParticipantAdmin' }],
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
    rights: [{ kind: 'CanReadAsAnyParty' }],
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
  await createUser('acme-admin', { ...acme, rights: [{ kind: 'IdentityProviderAdmin' }] });
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
            body: {
              beginExclusive: 0,
              endInclusive: await ledgerEndOf(),
              filter: { filtersByParty: { [party]: { cumulative: [] } } },
              verbose: false,
            },
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
  /** Submits as `user` (acting as `party`); the contracts created, in the tree `party` sees. */
  const submit = async (user: string, party: string, commandId: string, commands: Command[]) => {
    const fullCommandId = `demo-seed-${commandId}`;
    let tree = resumed ? (await committedFor(party)).get(fullCommandId) : undefined;
    tree ??= await ledger.submitForTree(commands, {
      actAs: [party],
      userId: user,
      commandId: fullCommandId,
      workflowId: WORKFLOW,
      ...(withTokens ? { token: await tokenFor(user) } : {}),
    });
    await stepDone(`command:${fullCommandId}`);
    return createdInTree(tree);
  };
  const only = (ids: string[], what: string) => {
    const [id] = ids;
    if (ids.length !== 1 || id === undefined) {
      throw new SeedError(
        `demo seed: expected one contract from ${what}, got ${String(ids.length)}`,
      );
    }
    return id;
  };
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
    accounts.map(({ owner, number }) => openAccount({ bank: p.bank, owner, number })),
  );

  // Issuing by key: a non-consuming exercise with a fetch-by-key and a create below it.
  const issue = async (commandId: string, number: string, currency: string, amount: string) =>
    only(
      await submit('bank-operator', p.bank, commandId, [
        issueIouFromAccount({ bank: p.bank, number, currency, amount }),
      ]),
      commandId,
    );
  const alice1000 = await issue('issue-alice-usd-1', 'ACC-0001', 'USD', '1000.00');
  const alice250 = await issue('issue-alice-usd-2', 'ACC-0001', 'USD', '250.00');
  const bob500 = await issue('issue-bob-usd', 'ACC-0002', 'USD', '500.00');
  const carol400 = await issue('issue-carol-eur', 'ACC-0003', 'EUR', '400.00');
  await issue('issue-acme-chf', 'ACC-0004', 'CHF', '12500.00');
  const mistake = await issue('issue-bob-usd-mistake', 'ACC-0002', 'USD', '5.00');

  // Alice splits 300 off her 1000 and pays it to Bob, who merges it into his 500.
  const [payment, alice700] = await submit(U.alice, p.alice, 'alice-split', [
    splitIou(alice1000, '300.00'),
  ]);
  if (payment === undefined || alice700 === undefined) {
    throw new SeedError('demo seed: Iou_Split did not create two contracts');
  }
  const paid = only(
    await submit(U.alice, p.alice, 'alice-pays-bob', [transferIou(payment, p.bob)]),
    'alice-pays-bob',
  );
  await submit(U.bob, p.bob, 'bob-merge', [mergeIou(bob500, paid)]);

  // Alice lets the auditor see her remaining 700, then merges in her second IOU.
  const observed = only(
    await submit(U.alice, p.alice, 'alice-add-auditor', [addIouObserver(alice700, p.auditor)]),
    'alice-add-auditor',
  );
  await submit(U.alice, p.alice, 'alice-merge', [mergeIou(observed, alice250)]);

  // Carol pays a party of the other IdP; the bank voids an IOU it issued by mistake.
  await submit(U.carol, p.carol, 'carol-pays-acme', [transferIou(carol400, p.acmeTrader)]);
  await submit('bank-operator', p.bank, 'bank-voids-mistake', [archiveIou(mistake)]);

  // A moderate tree for the transaction views: width 2, depth 3 is 21 nodes under the root.
  const fanout = only(
    await submit(U.alice, p.alice, 'fanout-create', [createFanout(p.alice, 'report')]),
    'fanout-create',
  );
  await submit(U.alice, p.alice, 'fanout-run', [runFanout(fanout, { width: 2, depth: 3 })]);

  progress.set('finished');
  return { seeded: true, resumed, parties: p, users, ledgerEnd: await ledgerEndOf() };
}
