import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getLedgerEnd } from '@/api/updates';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { assignIou, seedIouOnTwoSynchronizers, unassignIou } from '@/testing/seed-reassignments';
import { seedIouSplit } from '@/testing/seed-transactions';
import { formatAbsoluteTime, shortenIdentifier } from '@/lib/text/format';

// Whole-app journeys with a stream and several requests each; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;
const WAIT = { timeout: 10_000 };

// The stream's state comes first; an empty list's state may follow.
const status = () => {
  const [first] = screen.getAllByRole('status');
  if (!first) throw new Error('No status shown');
  return first;
};
const liveTable = () => screen.findByRole('table', { name: 'Live updates' });
const offsetsShown = () =>
  within(screen.getByRole('table', { name: 'Live updates' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => Number(row.querySelector('[data-label="Offset"]')?.textContent));

async function live(path = '/live') {
  const sandbox = createSandbox();
  const view = renderRoute(path, { sandbox });
  await waitFor(() => {
    expect(status()).toHaveTextContent('Live');
  }, WAIT);
  return view;
}

describe('live updates', () => {
  it(
    'shows a move between synchronizers readably: contract, template, from → to, submitter',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      renderRoute('/live?kinds=reassignments', { sandbox });
      await waitFor(() => {
        expect(status()).toHaveTextContent('Live');
      }, WAIT);
      const iou = await seedIouOnTwoSynchronizers(sandbox);
      const reassignmentId = await unassignIou(sandbox, iou);
      await assignIou(sandbox, iou, reassignmentId);

      await liveTable();
      const shortId = shortenIdentifier(iou.iouId);
      const bank = iou.issuer.split('::')[0] ?? '';
      await waitFor(() => {
        const rows = within(screen.getByRole('table', { name: 'Live updates' }))
          .getAllByRole('row')
          .slice(1)
          .map((row) => row.textContent);
        expect(rows).toEqual([
          expect.stringContaining(`Assigned Iou ${shortId} from global → local by ${bank}`),
          expect.stringContaining(`Unassigned Iou ${shortId} from global → local by ${bank}`),
        ]);
      }, WAIT);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows each update as it is committed, from the ledger end, one line each with a link to the graph',
    async () => {
      const { sandbox } = await live();
      const seeded = await seedIouSplit(sandbox);

      await liveTable();
      await waitFor(() => {
        expect(offsetsShown()[0]).toBe(seeded.split.offset);
      }, WAIT);
      // Newest first: the split, the create, and the two parties' allocations.
      expect(offsetsShown()).toEqual([seeded.split.offset, seeded.create.offset, 2, 1]);
      const table = screen.getByRole('table', { name: 'Live updates' });
      const [split, create, party] = within(table).getAllByRole('row').slice(1);
      expect(split).toHaveTextContent(
        /Exercised Iou:Iou_Split; created Iou ×2; archived 1 contract by owner/,
      );
      expect(create).toHaveTextContent('Created Iou');
      expect(party).toHaveTextContent(
        /Party (bank|owner)-\S+ now hosted on participant sandbox with submission permission/,
      );
      // A topology row opens its update's page, as a transaction's does.
      if (!party) throw new Error('No topology row');
      expect(
        within(party).getByRole('link', {
          name: /^Open the topology transaction at offset \d+$/,
        }),
      ).toHaveAttribute('href', expect.stringMatching(/^\/transactions\?update=1220[0-9a-f]{64}$/));
      expect(
        within(table).getByRole('link', {
          name: `Open the transaction at offset ${String(seeded.split.offset)}`,
        }),
      ).toHaveAttribute('href', `/transactions?update=${seeded.split.updateId}`);
      expect(screen.getByText(`Last offset seen ${String(seeded.split.offset)}`)).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'freezes the list on Pause, counts what arrives, and shows it on Resume',
    async () => {
      const { sandbox, user } = await live();
      await seedIouSplit(sandbox);
      await liveTable();
      await waitFor(() => {
        expect(offsetsShown()).toHaveLength(4);
      }, WAIT);

      await user.click(screen.getByRole('button', { name: 'Pause' }));
      expect(status()).toHaveTextContent('Paused');
      const later = await seedIouSplit(sandbox);
      expect(
        await screen.findByText(/Paused: 4 new updates; Resume shows them\./, {}, WAIT),
      ).toBeVisible();
      expect(offsetsShown()).toHaveLength(4);

      await user.click(screen.getByRole('button', { name: 'Resume' }));
      expect(offsetsShown()).toHaveLength(8);
      expect(offsetsShown()[0]).toBe(later.split.offset);
      expect(status()).toHaveTextContent('Live');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'filters by kind, template and party, the filters in the URL',
    async () => {
      const { sandbox, user, router } = await live('/live?kinds=transactions');
      const seeded = await seedIouSplit(sandbox);
      await liveTable();
      await waitFor(() => {
        expect(offsetsShown()).toEqual([seeded.split.offset, seeded.create.offset]);
      }, WAIT);
      expect(screen.getByRole('checkbox', { name: 'Topology events' })).not.toBeChecked();

      await user.click(screen.getByRole('checkbox', { name: 'Topology events' }));
      expect(offsetsShown()).toHaveLength(4);
      expect(router.state.location.search).toBe('?kinds=transactions%2Ctopology');
      await user.click(screen.getByRole('checkbox', { name: 'Reassignments' }));
      expect(router.state.location.search).toBe('');

      await user.type(screen.getByRole('textbox', { name: 'Template' }), 'Iou');
      expect(offsetsShown()).toEqual([seeded.split.offset, seeded.create.offset]);
      expect(router.state.location.search).toBe('?template=Iou');

      await user.clear(screen.getByRole('textbox', { name: 'Template' }));
      await user.type(screen.getByRole('combobox', { name: 'Party' }), 'owner-');
      // The owner took part in both transactions and was allocated; the bank's allocation is not theirs.
      await waitFor(() => {
        expect(offsetsShown()).toHaveLength(3);
      });
      expect(offsetsShown().slice(0, 2)).toEqual([seeded.split.offset, seeded.create.offset]);
      const rows = within(screen.getByRole('table', { name: 'Live updates' })).getAllByRole('row');
      expect(rows.at(-1)).toHaveTextContent(/Party owner-\S+ now hosted on participant sandbox/);
      expect(router.state.location.search).toBe('?party=owner-');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'reconnects after a dropped connection and resumes after the last offset, without gaps or repeats',
    async () => {
      const { sandbox, dropStreams } = await live();
      const start = await getLedgerEnd();
      await seedIouSplit(sandbox);
      await liveTable();
      await waitFor(() => {
        expect(offsetsShown()).toHaveLength(4);
      }, WAIT);

      dropStreams();
      await waitFor(() => {
        expect(status()).toHaveTextContent(/Reconnecting in \d s \(attempt 1\)/);
      }, WAIT);
      // Committed while the view is disconnected, and after it is back.
      await sandboxSteps(sandbox).iouSplit();
      await waitFor(() => {
        expect(status()).toHaveTextContent('Live');
      }, WAIT);
      await seedIouSplit(sandbox);

      const end = start + 12;
      await waitFor(() => {
        expect(offsetsShown()[0]).toBe(end);
      }, WAIT);
      // Every offset once: parties and transactions alike are visible to an any-party reader.
      expect(offsetsShown()).toEqual(Array.from({ length: end - start }, (_, i) => end - i));
      expect(await getLedgerEnd()).toBe(end);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'tells a user who reads no party that it cannot read updates, and opens no stream',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      seedUsers(sandbox, 1, { prefix: 'reader' });
      await signInAs(sandbox, 'reader-0001');
      renderRoute('/live', { sandbox });
      const state = await screen.findByRole('region', {
        name: 'You may not read any party’s updates',
      });
      expect(state).toHaveTextContent('Read as, Act as or Read as any party');
      expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'begins with the last 10 updates, then goes on live with no gap and no update twice',
    async () => {
      const sandbox = createSandbox();
      // Three splits: 12 updates (each: two parties, a create, a split) before the view opens.
      for (let i = 0; i < 3; i++) await seedIouSplit(sandbox);
      const end = await sandboxSteps(sandbox).ledgerEnd();
      renderRoute('/live', { sandbox });
      await waitFor(() => {
        expect(status()).toHaveTextContent('Live');
      }, WAIT);
      await liveTable();
      expect(offsetsShown()).toEqual(Array.from({ length: 10 }, (_, i) => end - i));
      expect(
        screen.getByText(`Began with the last 10 past updates up to offset ${String(end)}.`),
      ).toBeVisible();

      await seedIouSplit(sandbox);
      await waitFor(() => {
        expect(offsetsShown()[0]).toBe(end + 4);
      }, WAIT);
      // Where the read and the stream meet: every offset once, none missing.
      expect(offsetsShown()).toEqual(Array.from({ length: 14 }, (_, i) => end + 4 - i));
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says when fewer past updates exist than asked, and remembers another choice',
    async () => {
      const sandbox = createSandbox();
      await seedIouSplit(sandbox);
      const end = await sandboxSteps(sandbox).ledgerEnd();
      const { user } = renderRoute('/live', { sandbox });
      await waitFor(() => {
        expect(status()).toHaveTextContent('Live');
      }, WAIT);
      await liveTable();
      expect(offsetsShown()).toEqual([4, 3, 2, 1]);
      expect(
        screen.getByText(
          `Began with 4 past updates up to offset ${String(end)}: all the ledger holds for you.`,
        ),
      ).toBeVisible();

      await user.click(screen.getByRole('combobox', { name: /^Start with/ }));
      await user.click(await screen.findByRole('option', { name: 'No past updates' }));
      // Starts again, from the end, without the past.
      expect(
        await screen.findByText(`Live from offset ${String(end)}, without past updates.`, {}, WAIT),
      ).toBeVisible();
      expect(screen.queryByRole('table', { name: 'Live updates' })).toBeNull();
      expect(localStorage.getItem('ledger-console.live-start-with')).toBe('0');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows on each row who acted, the template and choice, key values, the contract and the command id',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user } = renderRoute('/live?kinds=transactions', { sandbox });
      await liveTable();
      await waitFor(() => {
        expect(offsetsShown()).toEqual([seeded.split.offset, seeded.create.offset]);
      }, WAIT);
      const table = screen.getByRole('table', { name: 'Live updates' });
      const [split, create] = within(table).getAllByRole('row').slice(1);
      if (!split || !create) throw new Error('Rows missing');
      const cell = (row: HTMLElement, column: string) => {
        const found = row.querySelector<HTMLElement>(`[data-label="${column}"]`);
        if (!found) throw new Error(`No ${column} cell`);
        return found;
      };
      const bank = seeded.issuer.split('::')[0] ?? '';
      const owner = seeded.owner.split('::')[0] ?? '';
      // The scenario's type names only what it uses; the participant's answer says more.
      const full = (transaction: unknown) =>
        transaction as { commandId: string; events: { CreatedEvent?: { templateId: string } }[] };
      const templateId = full(seeded.create).events[0]?.CreatedEvent?.templateId ?? '';

      expect(cell(create, 'What happened')).toHaveTextContent(`Created Iou by ${bank}`);
      // The short names on the row, the full ids on hover.
      expect(within(cell(create, 'What happened')).getByText(/Created Iou/)).toHaveAttribute(
        'title',
        `Created ${templateId} by ${seeded.issuer}`,
      );
      expect(cell(create, 'Acting parties')).toHaveTextContent(bank);
      expect(within(cell(create, 'Acting parties')).getByTitle(seeded.issuer)).toBeVisible();
      expect(cell(create, 'Key values')).toHaveTextContent(
        `owner ${owner} · currency USD · amount 100`,
      );
      expect(cell(create, 'Contract')).toHaveTextContent(shortenIdentifier(seeded.iouId));
      expect(within(cell(create, 'Contract')).getByRole('link')).toHaveAttribute(
        'title',
        seeded.iouId,
      );
      expect(
        within(cell(create, 'Contract')).getByRole('button', { name: 'Copy contract id' }),
      ).toBeVisible();
      expect(cell(create, 'Command id')).toHaveTextContent(full(seeded.create).commandId);

      expect(cell(split, 'What happened')).toHaveTextContent(
        `Exercised Iou:Iou_Split; created Iou ×2; archived 1 contract by ${owner}`,
      );
      expect(cell(split, 'Acting parties')).toHaveTextContent(owner);
      expect(cell(split, 'Key values')).toHaveTextContent('splitAmount 30');
      // The exercised contract first, the two created ones counted, listed on hover.
      expect(cell(split, 'Contract')).toHaveTextContent(`${shortenIdentifier(seeded.iouId)}+2`);
      expect(within(cell(split, 'Contract')).getByText('+2')).toHaveAttribute(
        'title',
        seeded.splitIds.join('\n'),
      );
      expect(cell(split, 'Command id')).toHaveTextContent(full(seeded.split).commandId);

      // Times as the user reads them: relative by default, absolute after the switch.
      const time = () => cell(split, 'Record time').querySelector('time');
      expect(time()).toHaveTextContent('now');
      await user.click(screen.getByRole('radio', { name: 'Absolute' }));
      const recordTime = time()?.getAttribute('datetime') ?? '';
      expect(time()).toHaveTextContent(formatAbsoluteTime(Date.parse(recordTime)));
      expect(time()?.getAttribute('aria-label')).toMatch(/\(now · /);
    },
    JOURNEY_TIMEOUT,
  );
});
