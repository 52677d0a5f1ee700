import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getTransactionTree } from '@/api/update-views';
import { renderRoute } from '@/testing/render-route';
import { prunedAt } from '@/testing/pruned-at';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { seedFanout, seedIouSplit } from '@/testing/seed-transactions';
import { formatAbsoluteTime, shortenIdentifier } from '@/lib/text/format';

// Whole-app journeys with several requests each; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;
// The first page of a route (its code, then its reads) has taken over 10 s on that machine.
const FIRST_LOAD = { timeout: 20_000 };

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const offsetLink = (offset: number) =>
  screen.getByRole('link', { name: `Open the transaction at offset ${String(offset)}` });

async function allocateParties(sandbox: Sandbox, count: number) {
  for (let i = 0; i < count; i++) {
    await sandbox.fetch(
      new Request('http://sandbox.test/v2/parties', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ partyIdHint: `filler-${String(i)}` }),
      }),
    );
  }
}

async function seek(
  user: ReturnType<typeof renderRoute>['user'],
  by: 'Offset' | 'Time',
  value: string,
) {
  const form = screen.getByRole('form', { name: 'Seek' });
  if (by === 'Time') {
    await user.click(within(form).getByRole('combobox', { name: 'Seek by' }));
    await user.click(await screen.findByRole('option', { name: 'Time' }));
  }
  const input = within(form).getByRole('textbox', { name: 'From offset or time' });
  await user.clear(input);
  await user.type(input, value);
  await user.click(within(form).getByRole('button', { name: 'Seek' }));
}

describe('transactions history', () => {
  it(
    'says what each transaction did and pages back from the ledger end with Load older',
    async () => {
      const sandbox = createSandbox();
      await seedIouSplit(sandbox);
      // A first page stops at 20 transactions; the Iou lies more than a range (200) below them.
      await allocateParties(sandbox, 200);
      const fanouts = [];
      for (let i = 0; i < 20; i++) fanouts.push(await seedFanout(sandbox, { width: 1, depth: 1 }));
      const newest = fanouts.at(-1)?.offset ?? 0;
      const { user } = renderRoute('/transactions', { sandbox });

      const table = await screen.findByRole('table', { name: 'Recent transactions' }, FIRST_LOAD);
      await waitFor(() => {
        expect(offsetLink(newest)).toBeVisible();
      });
      expect(nthRow(table, 0)).toHaveTextContent(/Exercised Fanout:Fanout_Run; created Fanout ×2/);
      // Each fanout's party allocation is a row too, in words; the first range (200 offsets)
      // holds the 20 fanouts, their 20 allocations and 160 of the 200 fillers' allocations.
      expect(nthRow(table, 1)).toHaveTextContent(
        /^Party \S+ now hosted on participant sandbox with submission permission/,
      );
      expect(
        within(nthRow(table, 1)).getByRole('link', {
          name: `Open the topology transaction at offset ${String(newest - 1)}`,
        }),
      ).toBeVisible();
      // A long list renders the rows in view only; the table counts them all (and its header).
      expect(table).toHaveAttribute('aria-rowcount', '201');

      await user.click(screen.getByRole('button', { name: 'Load older' }));
      // The 40 fillers left, the Iou's create and split, its bank's and owner's allocations.
      await waitFor(() => {
        expect(screen.getByRole('table', { name: 'Recent transactions' })).toHaveAttribute(
          'aria-rowcount',
          String(newest + 1),
        );
      });
      expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
      expect(screen.queryByRole('note', { name: 'Pruned' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'seeks to an offset and pages forwards to the ledger end, the seek in the URL',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const later = await seedIouSplit(sandbox);
      const { user, router } = renderRoute('/transactions', { sandbox });
      await screen.findByRole('table', { name: 'Recent transactions' });

      await seek(user, 'Offset', 'x');
      expect(await screen.findByText('An offset is a positive whole number')).toBeVisible();
      await seek(user, 'Offset', String(seeded.split.offset));
      await waitFor(() => {
        expect(router.state.location.search).toBe(`?from=${String(seeded.split.offset)}`);
      });
      const table = await screen.findByRole('table', { name: 'Transactions from here' });
      expect(
        rowsOf(table).map((row) => row.querySelector('[data-label="Offset"]')?.textContent),
      ).toEqual(
        // The second Iou's bank and owner are allocated before it: topology rows.
        [
          seeded.split.offset,
          later.create.offset - 2,
          later.create.offset - 1,
          later.create.offset,
          later.split.offset,
        ].map(String),
      );
      expect(
        screen.getByText(`Up to the ledger end at offset ${String(later.split.offset)}.`),
      ).toBeVisible();
      // The ledger moves on; Load newer at its end reads what came since.
      const newest = await seedFanout(sandbox, { width: 1, depth: 1 });
      await user.click(screen.getByRole('button', { name: 'Load newer' }));
      await waitFor(() => {
        expect(offsetLink(newest.offset)).toBeVisible();
      });
      expect(
        screen.getByText(`Up to the ledger end at offset ${String(newest.offset)}.`),
      ).toBeVisible();

      await user.click(screen.getByRole('button', { name: 'Latest' }));
      expect(await screen.findByRole('table', { name: 'Recent transactions' })).toBeVisible();
      expect(router.state.location.search).toBe('');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'seeks to the first transaction at or after a time',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user, router } = renderRoute('/transactions', { sandbox });
      await screen.findByRole('table', { name: 'Recent transactions' });
      const splitAt =
        (await getTransactionTree({ offset: seeded.split.offset }, { kind: 'any-party' }))
          .recordTime ?? '';

      await seek(user, 'Time', splitAt);
      await waitFor(() => {
        expect(new URLSearchParams(router.state.location.search).get('at')).toBe(splitAt);
      });
      const table = await screen.findByRole('table', { name: 'Transactions from here' });
      expect(rowsOf(table)).toHaveLength(1);
      expect(offsetLink(seeded.split.offset)).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'stops at the pruning offset and says so, paging back or seeking below it',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user } = renderRoute('/transactions', {
        sandbox,
        intercept: prunedAt(seeded.create.offset),
      });
      const table = await screen.findByRole('table', { name: 'Recent transactions' });
      expect(rowsOf(table)).toHaveLength(1);
      expect(offsetLink(seeded.split.offset)).toBeVisible();
      const note = await screen.findByRole('note', { name: 'Pruned' });
      expect(note).toHaveTextContent(
        `Updates up to offset ${String(seeded.create.offset)} were pruned`,
      );

      await seek(user, 'Offset', '1');
      const from = await screen.findByRole('table', { name: 'Transactions from here' });
      expect(rowsOf(from)).toHaveLength(1);
      expect(screen.getByRole('note', { name: 'Pruned' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows on each row who acted, key values, the contract and the command id; times as chosen',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user } = renderRoute('/transactions', { sandbox });
      const table = await screen.findByRole('table', { name: 'Recent transactions' }, FIRST_LOAD);
      const [split, create] = rowsOf(table);
      const cell = (row: HTMLElement | undefined, column: string) =>
        row?.querySelector<HTMLElement>(`[data-label="${column}"]`) ?? null;
      const bank = seeded.issuer.split('::')[0] ?? '';
      const owner = seeded.owner.split('::')[0] ?? '';

      expect(cell(create, 'Acting parties')).toHaveTextContent(bank);
      expect(cell(create, 'Key values')).toHaveTextContent(
        `owner ${owner} · currency USD · amount 100`,
      );
      expect(cell(create, 'Contract')).toHaveTextContent(shortenIdentifier(seeded.iouId));
      expect(cell(create, 'Command id')).toHaveTextContent(/^scenario-/);
      expect(cell(split, 'What happened')).toHaveTextContent(/^Exercised Iou:Iou_Split/);
      expect(cell(split, 'Acting parties')).toHaveTextContent(owner);
      expect(cell(split, 'Key values')).toHaveTextContent('splitAmount 30');

      const time = () => cell(create, 'Record time')?.querySelector('time');
      expect(time()).toHaveTextContent('now');
      await user.click(screen.getByRole('radio', { name: 'Absolute' }));
      const at = Date.parse(time()?.getAttribute('datetime') ?? '');
      expect(time()).toHaveTextContent(formatAbsoluteTime(at));
      expect(localStorage.getItem('ledger-console.time-display')).toBe('absolute');
      await user.click(screen.getByRole('radio', { name: 'Relative' }));
      expect(time()).toHaveTextContent('now');
    },
    JOURNEY_TIMEOUT,
  );
});

function nthRow(table: HTMLElement, index: number): HTMLElement {
  const row = rowsOf(table)[index];
  if (!row) throw new Error(`No row ${String(index)}`);
  return row;
}
