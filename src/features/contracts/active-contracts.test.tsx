import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { allowConsole } from '@/testing/console-guard';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedActiveContracts } from '@/testing/seed-contracts';
import { assignIou, seedIouOnTwoSynchronizers, unassignIou } from '@/testing/seed-reassignments';
import { seedIouSplit } from '@/testing/seed-transactions';
import { mintToken, signInAs } from '@/testing/sign-in-as';

const JOURNEY_TIMEOUT = 30_000;
const IOU = '#sandbox-demo:Demo.Iou:Iou';
const HOLDING = '#sandbox-demo:Demo.Holding:Holding';

/** Waits for the status line to read `pattern` (the stream has ended or the filter applied). */
async function ended(pattern: RegExp) {
  await waitFor(
    () => {
      const lines = screen.getAllByRole('status').map((line) => line.textContent);
      expect(lines.some((line) => pattern.test(line))).toBe(true);
    },
    {
      timeout: 15_000,
      onTimeout: (error) => {
        const lines = screen.queryAllByRole('status').map((line) => line.textContent);
        return new Error(
          `${error.message.split('\n')[0] ?? ''}; status lines: ${JSON.stringify(lines)}`,
        );
      },
    },
  );
}

const columnHeaders = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((header) => header.textContent);

describe('active contracts', () => {
  it(
    'streams more than the plain endpoint’s 200 contracts, virtualized, for the party in the URL',
    async () => {
      const sandbox = createSandbox();
      const steps = sandboxSteps(sandbox);
      const owner = await steps.allocateFreshParty('holder');
      await seedActiveContracts(sandbox, { owner, count: 450, amount: '2.5000' });
      // Someone else's Iou is not listed for `owner`.
      await seedIouSplit(sandbox);

      renderRoute(`/contracts?party=${encodeURIComponent(owner)}`, { sandbox });

      await ended(/^450 contracts active at offset \d+$/);
      const table = screen.getByRole('table', { name: 'Active contracts' });
      expect(table).toHaveAttribute('aria-rowcount', '451');
      // Only a screenful is in the DOM.
      expect(within(table).getAllByRole('row').length).toBeLessThan(100);
      const [, firstRow] = within(table).getAllByRole('row');
      if (!firstRow) throw new Error('no row');
      // No template asked for, but only Ious listed: the Iou's fields as columns, typed (the
      // amount without its zeros).
      expect(within(table).getByRole('columnheader', { name: 'amount' })).toBeVisible();
      expect(within(table).getByRole('columnheader', { name: 'currency' })).toBeVisible();
      expect(firstRow).toHaveTextContent(/Iou/);
      expect(firstRow).toHaveTextContent(/2\.5(?!0)/);
      expect(within(firstRow).getAllByRole('link', { name: /^holder-/ })[0]).toHaveAttribute(
        'href',
        `/parties/${encodeURIComponent(owner)}`,
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows the template’s fields as columns, filters by text and offset, and exports what is shown',
    async () => {
      const sandbox = createSandbox();
      const first = await seedIouSplit(sandbox);
      const atFirst = await sandboxSteps(sandbox).ledgerEnd();
      await seedIouSplit(sandbox);

      const { user, router } = renderRoute(`/contracts?template=${encodeURIComponent(IOU)}`, {
        sandbox,
      });
      await ended(/^4 contracts active at offset \d+$/);
      const table = screen.getByRole('table', { name: 'Active contracts' });
      expect(columnHeaders(table)).toEqual([
        'Contract',
        'issuer',
        'owner',
        'currency',
        'amount',
        'observers',
        'Synchronizer',
        'Signatories',
        'Created',
        'Actions',
      ]);
      // Numerics right-aligned and without trailing zeros.
      const seventy = within(table).getAllByText('70');
      expect(seventy).toHaveLength(2);

      await user.type(screen.getByLabelText('Search arguments'), first.owner);
      await ended(/^4 contracts active at offset \d+, 2 matching$/);
      await waitFor(() => {
        expect(router.state.location.search).toContain(`q=${encodeURIComponent(first.owner)}`);
      });

      const saved: Blob[] = [];
      vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
        saved.push(blob as Blob);
        return 'blob:contracts';
      });
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await user.click(screen.getByRole('button', { name: 'Export JSON' }));
      const [csv = '', json = ''] = await Promise.all(saved.map((blob) => blob.text()));
      const lines = csv.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'contractId,templateId,issuer,owner,currency,amount,observers,signatories,observers,createdAt,offset',
      );
      expect(lines).toHaveLength(3);
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',')[0])
          .sort(),
      ).toEqual([...first.splitIds].sort());
      expect(lines[1]).toContain(`,${first.issuer},${first.owner},USD,`);
      const exported = JSON.parse(json) as { contractId: string; createArgument: unknown }[];
      expect(exported.map((contract) => contract.contractId).sort()).toEqual(
        [...first.splitIds].sort(),
      );

      // At the offset after the first split, only its two Ious were active.
      await user.clear(screen.getByLabelText('Search arguments'));
      await user.type(screen.getByLabelText('At offset'), `${String(atFirst)}{Enter}`);
      await ended(new RegExp(`^2 contracts active at offset ${String(atFirst)}$`));
      expect(router.state.location.search).toContain(`offset=${String(atFirst)}`);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'opens the composer prefilled with the contract and its template’s choices',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const [iouId] = seeded.splitIds;
      const { user, router } = renderRoute(`/contracts?party=${encodeURIComponent(seeded.owner)}`, {
        sandbox,
      });
      await ended(/^2 contracts active/);
      const row = screen
        .getAllByRole('row')
        .find((candidate) => within(candidate).queryByTitle(iouId) !== null);
      if (!row) throw new Error('no row for the Iou');
      await user.click(within(row).getByRole('link', { name: /^Exercise… on / }));

      await waitFor(() => {
        expect(router.state.location.pathname).toBe('/composer');
      });
      expect(await screen.findByText(/^Exercise a choice on Iou /)).toBeVisible();
      expect(await screen.findByDisplayValue(iouId)).toBeVisible();
      const choice = await screen.findByRole('combobox', { name: /^Choice/ });
      await user.click(choice);
      const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
      expect(offered).toEqual(expect.arrayContaining([expect.stringMatching(/^Iou_Split/)]));
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'lists the contracts of an interface with its view’s fields as columns',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      renderRoute(`/contracts?interface=${encodeURIComponent(HOLDING)}`, { sandbox });

      await ended(/^2 contracts active at offset \d+$/);
      const table = screen.getByRole('table', { name: 'Active contracts' });
      expect(columnHeaders(table)).toEqual([
        'Contract',
        'Template',
        'owner',
        'issuer',
        'amount',
        'currency',
        'Synchronizer',
        'Signatories',
        'Created',
        'Actions',
      ]);
      // The view's values, read with the view's types: the amounts of the split, parties as links.
      expect(within(table).getByText('30')).toBeVisible();
      expect(within(table).getByText('70')).toBeVisible();
      expect(
        within(table).getAllByRole('link', {
          name: new RegExp(`^${seeded.owner.split('::')[0] ?? ''}`),
        }).length,
      ).toBeGreaterThanOrEqual(2);
      expect(screen.getByRole('combobox', { name: 'Template or interface' })).toHaveValue(
        'Demo.Holding:Holding (sandbox-demo)',
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'tells a user who may read no party which rights would do, without asking the participant',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      const admin = sandboxSteps(sandbox, await mintToken(sandbox, 'participant_admin'));
      await admin.createUser('no.reader');
      await signInAs(sandbox, 'no.reader');
      const asked: string[] = [];
      renderRoute('/contracts', {
        sandbox,
        intercept: (request, sandboxFetch) => {
          asked.push(new URL(request.url).pathname);
          return sandboxFetch(request);
        },
      });
      const state = await screen.findByRole('region', { name: 'You may not read any contracts' });
      expect(state).toHaveTextContent('You are signed in as no.reader (default identity provider)');
      expect(state).toHaveTextContent(/Read as/);
      expect(asked.filter((path) => path.startsWith('/v2/state/active-contracts'))).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows the participant’s refusal of a party the caller may not read',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      const admin = sandboxSteps(sandbox, await mintToken(sandbox, 'participant_admin'));
      const [mine, theirs] = await Promise.all([
        admin.allocateFreshParty('mine'),
        admin.allocateFreshParty('theirs'),
      ]);
      await admin.createUser('reader', { rights: [{ kind: 'CanReadAs', party: mine }] });
      await signInAs(sandbox, 'reader');
      allowConsole(/security-sensitive error|PERMISSION_DENIED/);

      renderRoute(`/contracts?party=${encodeURIComponent(theirs)}`, { sandbox });
      const state = await screen.findByRole(
        'region',
        { name: 'You may not see this' },
        { timeout: 15_000 },
      );
      expect(state).toHaveTextContent('You are signed in as reader (default identity provider)');
      expect(state).toHaveTextContent(/This needs the right Read as/);
      expect(screen.queryByRole('table', { name: 'Active contracts' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers Exercise… on an active contract’s page, not on an archived one’s',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const [active] = seeded.splitIds;
      const { user, router, unmount } = renderRoute(`/contracts/${encodeURIComponent(active)}`, {
        sandbox,
      });
      await user.click(await screen.findByRole('link', { name: 'Exercise…' }));
      await waitFor(() => {
        expect(router.state.location.pathname).toBe('/composer');
      });
      expect(router.state.location.search).toContain(`exercise=${encodeURIComponent(active)}`);
      expect(await screen.findByDisplayValue(active)).toBeVisible();
      unmount();

      renderRoute(`/contracts/${encodeURIComponent(seeded.iouId)}`, { sandbox });
      expect(
        await screen.findByText('Archived', { selector: '.mantine-Badge-label' }),
      ).toBeVisible();
      expect(screen.queryByRole('link', { name: 'Exercise…' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'lists again at the new ledger end on Refresh',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user } = renderRoute(`/contracts?party=${encodeURIComponent(seeded.owner)}`, {
        sandbox,
      });
      await ended(/^2 contracts active at offset \d+$/);
      const { ledgerEnd } = await seedActiveContracts(sandbox, { owner: seeded.owner, count: 3 });
      await user.click(screen.getByRole('button', { name: 'Refresh' }));
      await ended(new RegExp(`^5 contracts active at offset ${String(ledgerEnd)}$`));
      expect(screen.getByLabelText('At offset')).toHaveAttribute(
        'placeholder',
        `Ledger end (${String(ledgerEnd)})`,
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows the synchronizer each contract is on, the full id on hover, after a move too',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const moved = await seedIouOnTwoSynchronizers(sandbox);
      const stays = await seedIouOnTwoSynchronizers(sandbox);
      const reassignmentId = await unassignIou(sandbox, moved);
      await assignIou(sandbox, moved, reassignmentId);

      renderRoute(`/contracts?template=${encodeURIComponent(IOU)}`, { sandbox });

      await ended(/^2 contracts active at offset \d+$/);
      const table = screen.getByRole('table', { name: 'Active contracts' });
      const synchronizerOfRow = (contractId: string) => {
        const row = within(table)
          .getAllByRole('row')
          .find((candidate) => within(candidate).queryByTitle(contractId) !== null);
        if (!row) throw new Error(`no row for ${contractId}`);
        const columnIndex = columnHeaders(table).indexOf('Synchronizer');
        return within(row).getAllByRole('cell')[columnIndex];
      };
      const movedCell = synchronizerOfRow(moved.iouId);
      expect(movedCell).toHaveTextContent(/^local$/);
      expect(within(movedCell ?? table).getByText('local')).toHaveAttribute('title', moved.target);
      expect(synchronizerOfRow(stays.iouId)).toHaveTextContent(/^global$/);
    },
    JOURNEY_TIMEOUT,
  );
});
