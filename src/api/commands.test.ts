import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, isEndpointMissing } from '@/lib/errors/api-error';
import { getNode, type TransactionTree } from '@/lib/transaction-tree/model';
import { MemoryStorage } from '@/testing/memory-storage';
import { createSandbox, routeFetchToSandbox } from '@/testing/sandbox-network';
import { seedParties } from '@/testing/seed-parties';
import {
  submitCommands,
  toCurlCommand,
  TRANSACTION_ENDPOINT,
  TREE_ENDPOINT,
  type JsCommands,
} from './commands';
import { writeAccessToken } from './access-token';

const IOU = '#sandbox-demo:Demo.Iou:Iou';

beforeEach(() => {
  // The access token and the "tree endpoint is gone" memory live here; unstubbed after each test.
  vi.stubGlobal('sessionStorage', new MemoryStorage());
});

let commandCounter = 0;

function createIou(party: string, amount = '100'): JsCommands {
  return {
    commands: [
      {
        CreateCommand: {
          templateId: IOU,
          createArguments: { issuer: party, owner: party, currency: 'USD', amount, observers: [] },
        },
      },
    ],
    commandId: `commands-test-${String(++commandCounter)}`,
    actAs: [party],
    userId: 'participant_admin',
  };
}

function splitIou(party: string, contractId: string, splitAmount: string): JsCommands {
  return {
    commands: [
      {
        ExerciseCommand: {
          templateId: IOU,
          contractId,
          choice: 'Iou_Split',
          choiceArgument: { splitAmount },
        },
      },
    ],
    commandId: `commands-test-${String(++commandCounter)}`,
    actAs: [party],
    userId: 'participant_admin',
  };
}

/** The structure a viewer draws: node kinds, choices and parents, in pre-order. */
function shape(tree: TransactionTree) {
  return tree.order.map((id) => {
    const node = getNode(tree, id);
    return {
      id,
      kind: node.kind,
      parentId: node.parentId,
      choice: node.kind === 'exercised' ? node.choice : null,
    };
  });
}

/**
 * A sandbox that records the Ledger API paths called (not the console's own questions,
 * tokenless-access.ts); `answer` may answer a request in the participant's place.
 */
function recordingLedgerPaths(answer?: (request: Request) => Response | undefined) {
  const paths: string[] = [];
  const sandbox = createSandbox();
  routeFetchToSandbox({
    sandbox,
    intercept: (request, sandboxFetch) => {
      const { pathname } = new URL(request.url);
      if (pathname.startsWith('/v2/')) paths.push(pathname);
      const answered = answer?.(request);
      return answered === undefined ? sandboxFetch(request) : Promise.resolve(answered);
    },
  });
  return { paths, sandbox };
}

/** A participant without the deprecated endpoint, as newer releases are: the unknown-path 404. */
function withoutTreeEndpoint(status = 404) {
  return recordingLedgerPaths((request) => {
    if (new URL(request.url).pathname !== TREE_ENDPOINT) return undefined;
    return status === 404
      ? Response.json(
          { errors: [`HttpMethod(POST), uri: ${request.url}`], status, ledgerApiError: null },
          { status },
        )
      : new Response('Method Not Allowed', { status, headers: { 'Content-Type': 'text/plain' } });
  });
}

async function createdContractId(party: string): Promise<string> {
  const { tree } = await submitCommands(createIou(party));
  const node = getNode(tree, tree.roots[0] ?? -1);
  return node.contractId;
}

describe('submitCommands', () => {
  it('submits through the tree endpoint while the participant offers it', async () => {
    const { paths, sandbox } = recordingLedgerPaths();
    const [alice = ''] = await seedParties(sandbox, ['alice']);

    const { tree, endpoint } = await submitCommands(createIou(alice));

    expect(endpoint).toBe('transaction-tree');
    expect(paths).toEqual([TREE_ENDPOINT]);
    expect(tree.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    expect(shape(tree)).toEqual([{ id: 0, kind: 'created', parentId: null, choice: null }]);
  });

  it('falls back to submit-and-wait-for-transaction, and remembers it', async () => {
    const { sandbox, paths } = withoutTreeEndpoint();
    const [alice = ''] = await seedParties(sandbox, ['alice']);
    paths.length = 0;

    const created = await submitCommands(createIou(alice));
    expect(created.endpoint).toBe('transaction');
    expect(paths).toEqual([TREE_ENDPOINT, TRANSACTION_ENDPOINT]);

    paths.length = 0;
    const iou = getNode(created.tree, 0).contractId;
    const split = await submitCommands(splitIou(alice, iou, '40'));
    // The second submit goes straight to the successor.
    expect(paths).toEqual([TRANSACTION_ENDPOINT]);
    expect(split.endpoint).toBe('transaction');
    expect(shape(split.tree)).toEqual([
      { id: 0, kind: 'exercised', parentId: null, choice: 'Iou_Split' },
      { id: 1, kind: 'created', parentId: 0, choice: null },
      { id: 2, kind: 'created', parentId: 0, choice: null },
    ]);
  });

  it('builds the same tree from either endpoint', async () => {
    const direct = createSandbox();
    routeFetchToSandbox({ sandbox: direct });
    const [alice = ''] = await seedParties(direct, ['alice']);
    const viaTree = await submitCommands(splitIou(alice, await createdContractId(alice), '25'));

    sessionStorage.clear();
    const { sandbox: newer } = withoutTreeEndpoint();
    const [alice2 = ''] = await seedParties(newer, ['alice']);
    const viaTransaction = await submitCommands(
      splitIou(alice2, await createdContractId(alice2), '25'),
    );

    expect(viaTree.endpoint).toBe('transaction-tree');
    expect(viaTransaction.endpoint).toBe('transaction');
    expect(shape(viaTransaction.tree)).toEqual(shape(viaTree.tree));
    expect(viaTransaction.tree.maxDepth).toBe(viaTree.tree.maxDepth);
  });

  it('reports the same witnesses from either endpoint when readAs is set', async () => {
    // bob observes the Iou and is read as: the tree endpoint still projects onto actAs only.
    const withReader = (alice: string, bob: string): JsCommands => {
      const commands = createIou(alice);
      const [first] = commands.commands;
      if (first && 'CreateCommand' in first) {
        first.CreateCommand.createArguments = {
          ...(first.CreateCommand.createArguments as object),
          observers: [bob],
        };
      }
      return { ...commands, readAs: [bob] };
    };
    const direct = createSandbox();
    routeFetchToSandbox({ sandbox: direct });
    const [alice = '', bob = ''] = await seedParties(direct, ['alice', 'bob']);
    const viaTree = await submitCommands(withReader(alice, bob));

    sessionStorage.clear();
    const { sandbox: newer } = withoutTreeEndpoint();
    const [alice2 = '', bob2 = ''] = await seedParties(newer, ['alice', 'bob']);
    const viaTransaction = await submitCommands(withReader(alice2, bob2));

    expect(viaTree.endpoint).toBe('transaction-tree');
    expect(viaTransaction.endpoint).toBe('transaction');
    const witnesses = ({ tree }: { tree: TransactionTree }, names: Record<string, string>) =>
      getNode(tree, 0).witnessParties.map((party) => names[party] ?? party);
    expect(witnesses(viaTree, { [alice]: 'alice', [bob]: 'bob' })).toEqual(['alice']);
    expect(witnesses(viaTransaction, { [alice2]: 'alice', [bob2]: 'bob' })).toEqual(
      witnesses(viaTree, { [alice]: 'alice', [bob]: 'bob' }),
    );
  });

  it.each([405, 501])('falls back on %i too', async (status) => {
    const { sandbox, paths } = withoutTreeEndpoint(status);
    const [alice = ''] = await seedParties(sandbox, ['alice']);
    paths.length = 0;

    const { endpoint } = await submitCommands(createIou(alice));

    expect(endpoint).toBe('transaction');
    expect(paths).toEqual([TREE_ENDPOINT, TRANSACTION_ENDPOINT]);
  });

  it('does not fall back on a 404 about the command itself', async () => {
    const { paths, sandbox } = recordingLedgerPaths();
    const [alice = ''] = await seedParties(sandbox, ['alice']);
    paths.length = 0;
    const commands = createIou(alice);
    const [first] = commands.commands;
    if (first && 'CreateCommand' in first)
      first.CreateCommand.templateId = '#sandbox-demo:Demo.Iou:Nope';

    const error = await submitCommands(commands).catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('TEMPLATES_OR_INTERFACES_NOT_FOUND');
    expect(isEndpointMissing(error)).toBe(false);
    expect(paths).toEqual([TREE_ENDPOINT]);
  });
});

describe('toCurlCommand', () => {
  it('posts the submit-and-wait-for-transaction body with a token placeholder', () => {
    writeAccessToken('secret-session-token');
    const commands = createIou("o'brien::1220ab");

    const curl = toCurlCommand(commands, 'https://console.example');

    expect(curl).toContain(`${TRANSACTION_ENDPOINT}'`);
    expect(curl).toContain('Authorization: Bearer $TOKEN');
    expect(curl).not.toContain('secret-session-token');
    const quoted = /--data-binary '([\s\S]*)'$/.exec(curl)?.[1] ?? '';
    const body = JSON.parse(quoted.replace(/'\\''/g, "'")) as {
      commands: JsCommands;
      transactionFormat: { transactionShape: string; eventFormat: { filtersByParty: object } };
    };
    expect(body.commands).toEqual(commands);
    expect(body.transactionFormat.transactionShape).toBe('TRANSACTION_SHAPE_LEDGER_EFFECTS');
    expect(Object.keys(body.transactionFormat.eventFormat.filtersByParty)).toEqual([
      "o'brien::1220ab",
    ]);
  });

  it('filters on the actAs parties only, as the tree endpoint does', () => {
    const commands = { ...createIou('alice::1220ab'), readAs: ['bob::1220cd'] };

    const curl = toCurlCommand(commands, 'https://console.example');

    const quoted = /--data-binary '([\s\S]*)'$/.exec(curl)?.[1] ?? '';
    const body = JSON.parse(quoted) as {
      transactionFormat: { eventFormat: { filtersByParty: object } };
    };
    expect(Object.keys(body.transactionFormat.eventFormat.filtersByParty)).toEqual([
      'alice::1220ab',
    ]);
  });
});
