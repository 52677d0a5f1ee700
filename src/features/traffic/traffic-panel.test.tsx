import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatTrafficCost } from '@/lib/text/format';
import { captureDownloads } from '@/testing/capture-downloads';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { mintToken, signInAs } from '@/testing/sign-in-as';
import {
  seedOneCommand,
  seedTrafficLoad,
  submitIouAs,
  type PricedCommand,
} from '@/testing/seed-traffic-load';

// A whole-app journey after 60 prepares and submissions; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 60_000;

type Expected = PricedCommand;

const sum = (entries: readonly Expected[]) => entries.reduce((total, { cost }) => total + cost, 0);

/** The cells of the table's row whose first cell says `name`. */
function rowOf(tableName: string, name: RegExp | string) {
  const table = screen.getByRole('table', { name: tableName });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => {
      const first = within(candidate).queryAllByRole('cell')[0];
      return first !== undefined && within(first).queryByText(name) !== null;
    });
  if (!row) throw new Error(`No row ${String(name)} in ${tableName}`);
  return within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);
}

const count = (entries: readonly Expected[]) => String(entries.length);

describe('traffic page', () => {
  it(
    'totals the paid cost of generated load by user, party, template and choice, and exports it',
    async () => {
      const sandbox = createSandbox({ trafficCost: true });
      const { aliceUser, bobUser, expected } = await seedTrafficLoad(sandbox);
      expect(expected).toHaveLength(30);
      const downloads = captureDownloads();
      const { user } = renderRoute('/traffic', { sandbox });

      const total = sum(expected);
      const paid = await screen.findByRole('group', { name: 'Traffic paid' }, { timeout: 20_000 });
      expect(paid).toHaveTextContent(formatTrafficCost(total));
      expect(screen.getByRole('group', { name: 'Commands' })).toHaveTextContent('30');

      const of = (filter: (entry: Expected) => boolean) => expected.filter(filter);
      const alice = of((entry) => entry.user === aliceUser);
      const bob = of((entry) => entry.user === bobUser);
      expect(rowOf('By user', aliceUser).slice(1, 3)).toEqual([
        count(alice),
        formatTrafficCost(sum(alice)),
      ]);
      expect(rowOf('By user', bobUser).slice(1, 3)).toEqual([
        count(bob),
        formatTrafficCost(sum(bob)),
      ]);
      // Each user acted for one party: the party table has the same two sums.
      expect(
        within(screen.getByRole('table', { name: 'By party' })).getAllByRole('row'),
      ).toHaveLength(3);

      const accounts = of((entry) => entry.template === 'Account');
      const ious = of((entry) => entry.template === 'Iou');
      expect(rowOf('By template', /Demo\.Account:Account/).slice(1, 3)).toEqual([
        count(accounts),
        formatTrafficCost(sum(accounts)),
      ]);
      expect(rowOf('By template', /Demo\.Iou:Iou/).slice(1, 3)).toEqual([
        count(ious),
        formatTrafficCost(sum(ious)),
      ]);
      for (const choice of ['Iou_Split', 'Iou_Transfer']) {
        const entries = of((entry) => entry.choice === choice);
        expect(rowOf('By choice', choice).slice(1, 3)).toEqual([
          count(entries),
          formatTrafficCost(sum(entries)),
        ]);
      }
      // Sorted most costly first.
      const costs = within(screen.getByRole('table', { name: 'By choice' }))
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          Number((within(row).getAllByRole('cell')[2]?.textContent ?? '').replace(/\D/g, '')),
        );
      expect(costs).toEqual([...costs].sort((a, b) => b - a));
      expect(
        screen.queryByText('This participant reports no traffic cost'),
      ).not.toBeInTheDocument();
      // The costliest commands, each a link to its transaction.
      const costliest = screen.getByRole('table', { name: 'Costliest commands' });
      const [, top] = within(costliest).getAllByRole('row');
      if (!top) throw new Error('No costliest command');
      expect(top).toHaveTextContent(formatTrafficCost(Math.max(...expected.map((e) => e.cost))));
      expect(within(top).getByRole('link').getAttribute('href')).toMatch(
        /^\/transactions\?update=1220[0-9a-f]{64}$/,
      );
      expect(within(costliest).getAllByRole('row')).toHaveLength(21);

      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await user.click(screen.getByRole('button', { name: 'Export JSON' }));
      expect(downloads.names).toEqual([
        expect.stringMatching(/^traffic-day-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.csv$/),
        expect.stringMatching(/^traffic-day-.*\.json$/),
      ]);
      const [csvBlob, jsonBlob] = downloads.saved;
      const csv = (await csvBlob?.text()) ?? '';
      const lines = csv.trim().split(/\r?\n/);
      expect(lines[0]).toBe(
        'offset,recordTime,userId,actAs,commandId,updateId,succeeded,templates,choices,paidTrafficCost',
      );
      expect(lines).toHaveLength(31);
      const csvTotal = lines
        .slice(1)
        .reduce((acc, line) => acc + Number(line.split(',').at(-1)), 0);
      expect(csvTotal).toBe(total);
      const json = JSON.parse((await jsonBlob?.text()) ?? '{}') as {
        totals: { cost: number; count: number };
        byUser: { key: string; cost: number }[];
        completions: unknown[];
      };
      expect(json.totals).toMatchObject({ cost: total, count: 30 });
      expect(json.byUser).toEqual([
        expect.objectContaining({ key: sum(alice) >= sum(bob) ? aliceUser : bobUser }),
        expect.objectContaining({ key: sum(alice) >= sum(bob) ? bobUser : aliceUser }),
      ]);
      expect(json.completions).toHaveLength(30);
    },
    JOURNEY_TIMEOUT,
  );

  it('keeps the last window on screen while the next one reads, and exports it only once shown', async () => {
    const sandbox = createSandbox({ trafficCost: true });
    await seedOneCommand(sandbox);
    const downloads = captureDownloads();
    const { user, interceptNetwork } = renderRoute('/traffic', { sandbox });
    await screen.findByRole('group', { name: 'Traffic paid' }, { timeout: 20_000 });
    let release: ((value?: unknown) => void) | undefined;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    interceptNetwork(async (request, forward) => {
      await held;
      return forward(request);
    });

    const picker = screen.getByRole('combobox', { name: 'Window' });
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Last hour' }));
    // The picker says what was asked for; the day's report is still what is shown, not exportable
    // as the hour's.
    expect(picker).toHaveValue('Last hour');
    expect(screen.getByText(/^Last 24 hours \(/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

    release?.();
    await screen.findByText(/^Last hour \(/);
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
    });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(downloads.names).toEqual([expect.stringMatching(/^traffic-hour-.*\.csv$/)]);
  });

  it('says plainly when the participant reports no cost, and how to turn it on in the sandbox', async () => {
    const sandbox = createSandbox();
    await seedOneCommand(sandbox);
    renderRoute('/traffic?window=week', { sandbox });
    const alert = await screen.findByRole(
      'alert',
      { name: 'This participant reports no traffic cost' },
      { timeout: 20_000 },
    );
    expect(alert).toHaveTextContent('npm start -- --traffic-cost');
    expect(screen.getByRole('combobox', { name: 'Window' })).toHaveValue('Last 7 days');
    expect(rowOf('By user', 'participant_admin').slice(1, 3)).toEqual(['1', '–']);
    expect(screen.queryByRole('table', { name: 'Costliest commands' })).not.toBeInTheDocument();
  });

  it('shows a user with read rights the cost of their own commands only', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET, trafficCost: true });
    const adminToken = await mintToken(sandbox, 'participant_admin');
    const admin = sandboxSteps(sandbox, adminToken);
    const [alice, bob] = [await admin.allocateParty('alice'), await admin.allocateParty('bob')];
    await admin.createUser('alice.app', { rights: [{ kind: 'CanActAs', party: alice }] });
    const aliceToken = await mintToken(sandbox, 'alice.app');
    const costs = [
      await submitIouAs(sandbox, { token: aliceToken, party: alice, userId: 'alice.app' }),
      await submitIouAs(sandbox, { token: aliceToken, party: alice, userId: 'alice.app' }),
    ];
    // Someone else's command: not alice.app's to see.
    await admin.createUser('bob.app', { rights: [{ kind: 'CanActAs', party: bob }] });
    await submitIouAs(sandbox, {
      token: await mintToken(sandbox, 'bob.app'),
      party: bob,
      userId: 'bob.app',
    });
    await signInAs(sandbox, 'alice.app');

    renderRoute('/traffic', { sandbox });

    const table = await screen.findByRole('table', { name: 'By user' }, { timeout: 20_000 });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    const total = (costs[0] ?? 0) + (costs[1] ?? 0);
    expect(rowOf('By user', 'alice.app').slice(1, 3)).toEqual(['2', formatTrafficCost(total)]);
    expect(screen.getByRole('link', { name: 'Traffic' })).toHaveAttribute('href', '/traffic');
  });

  it('is not in the navigation of a user who reads no party, and says why there', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET, trafficCost: true });
    const admin = sandboxSteps(sandbox, await mintToken(sandbox, 'participant_admin'));
    await admin.createUser('plain.pat');
    await signInAs(sandbox, 'plain.pat');

    renderRoute('/traffic', { sandbox });

    expect(
      await screen.findByRole('region', { name: 'You may not read any command completions' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Transactions' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Traffic' })).not.toBeInTheDocument();
  });
});
