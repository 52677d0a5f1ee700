import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';

const IOU_TEMPLATE = '#sandbox-demo:Demo.Iou:Iou';
const FANOUT_TEMPLATE = '#sandbox-demo:Demo.Fanout:Fanout';

type WireTransaction = {
  updateId: string;
  offset: number;
  events: { CreatedEvent?: { contractId: string }; ExercisedEvent?: { contractId: string } }[];
};

/** Seeds transactions on the sandbox's demo package through the participant's command API. */
export function seedLedger(request: APIRequestContext) {
  const post = async <T>(path: string, data: unknown): Promise<T> => {
    const response = await request.post(path, { data });
    expect(response.status(), await response.text()).toBe(200);
    return (await response.json()) as T;
  };
  const allocate = async (hint: string) =>
    (
      await post<{ partyDetails: { party: string } }>('/v2/parties', {
        partyIdHint: `${hint}-${randomBytes(4).toString('hex')}`,
      })
    ).partyDetails.party;
  const submit = async (commands: unknown[], actAs: string[]) =>
    (
      await post<{ transaction: WireTransaction }>('/v2/commands/submit-and-wait-for-transaction', {
        commands: {
          commands,
          commandId: `e2e-${randomBytes(6).toString('hex')}`,
          actAs,
          // Without auth there is no token to take the user from (ledger-api-behaviour.md §7.1).
          userId: 'participant_admin',
        },
        transactionFormat: {
          eventFormat: {
            filtersByParty: Object.fromEntries(actAs.map((party) => [party, {}])),
            verbose: true,
          },
          transactionShape: 'TRANSACTION_SHAPE_LEDGER_EFFECTS',
        },
      })
    ).transaction;
  const created = (transaction: WireTransaction) =>
    transaction.events.flatMap((event) =>
      event.CreatedEvent ? [event.CreatedEvent.contractId] : [],
    );

  return {
    allocate,
    /** A bank issues an Iou of 100 to an owner, who splits off 30: returns both transactions. */
    async iouSplit() {
      const [issuer, owner] = await Promise.all([allocate('bank'), allocate('owner')]);
      const create = await submit(
        [
          {
            CreateCommand: {
              templateId: IOU_TEMPLATE,
              createArguments: { issuer, owner, currency: 'USD', amount: '100.0', observers: [] },
            },
          },
        ],
        [issuer],
      );
      const [iouId = ''] = created(create);
      const split = await submit(
        [
          {
            ExerciseCommand: {
              templateId: IOU_TEMPLATE,
              contractId: iouId,
              choice: 'Iou_Split',
              choiceArgument: { splitAmount: '30.0' },
            },
          },
        ],
        [owner],
      );
      return { issuer, owner, iouId, create, split, splitIds: created(split) };
    },
    /** CreateAndExercise Fanout … Fanout_Run { width, depth }: a tree of known size. */
    async fanout(width: number, depth: number) {
      const owner = await allocate('fanout');
      return submit(
        [
          {
            CreateAndExerciseCommand: {
              templateId: FANOUT_TEMPLATE,
              createArguments: { owner, label: 'root' },
              choice: 'Fanout_Run',
              choiceArgument: { width: String(width), depth: String(depth) },
            },
          },
        ],
        [owner],
      );
    },
  };
}

export async function goToTransactions(page: Page, query = ''): Promise<void> {
  await page.goto(`/transactions${query}`);
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
}

export async function openUpdateById(page: Page, updateId: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Open an update' });
  await form.getByRole('textbox', { name: 'Update id or offset' }).fill(updateId);
  await form.getByRole('button', { name: 'Open' }).click();
}

export const graph = (page: Page) => page.getByRole('region', { name: 'Transaction graph' });
export const outline = (page: Page) => page.getByRole('tree', { name: 'Transaction outline' });

/** The graph's nodes, by their accessible names ("Create Iou, node 1"). */
export const graphNodes = (page: Page) => graph(page).locator('.react-flow__node');

export const graphNode = (page: Page, nodeId: number) =>
  graph(page).getByRole('group', { name: new RegExp(`, node ${String(nodeId)}$`) });

export async function assertGraphNodes(page: Page, names: string[]): Promise<void> {
  await expect(graphNodes(page)).toHaveCount(names.length);
  for (const name of names) {
    await expect(graph(page).getByRole('group', { name })).toBeVisible();
  }
}

export async function toggleGraphNode(page: Page, nodeId: number, action: 'Collapse' | 'Expand') {
  await graph(page)
    .getByRole('button', { name: new RegExp(`^${action} node ${String(nodeId)}\\b`) })
    .click();
}

export const detailsHeading = (page: Page) => page.getByRole('heading', { level: 3 });

export async function followNodeLinkInNewPage(page: Page): Promise<Page> {
  const href = await page.getByRole('link', { name: 'Link to this node' }).getAttribute('href');
  expect(href).toBeTruthy();
  const next = await page.context().newPage();
  await next.goto(href ?? '');
  return next;
}
