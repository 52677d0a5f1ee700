import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HOSTING_MAX_READS, HOSTING_READ_LIMIT } from '@/api/party-hosting';
import { cantonLikeUpdates } from '@/testing/canton-like-updates';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { hostExternalParty, seedExternalParty } from '@/testing/seed-external-parties';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedPartyRecords } from '@/testing/seed-parties';

// Whole-app journeys: onboarding through the API, then the party page's several reads.
const JOURNEY_TIMEOUT = 30_000;
const PAGE = { timeout: 15_000 };
const OTHER = `p2::1220${'b'.repeat(64)}`;
const OBSERVER = `p3::1220${'c'.repeat(64)}`;

const cellTexts = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

/** The party's page: its Hosting section, once the hosting table is there, and that table's rows. */
async function openHosting(sandbox: Sandbox, party: string) {
  renderRoute(`/parties/${encodeURIComponent(party)}`, { sandbox });
  const hosting = await screen.findByRole('region', { name: 'Hosting' }, PAGE);
  const table = await within(hosting).findByRole('table', { name: 'Hosting participants' }, PAGE);
  return { hosting, rows: within(table).getAllByRole('row').slice(1).map(cellTexts) };
}

describe('where a party is hosted', () => {
  it(
    'shows an external party hosted on several participants on two synchronizers, and its timeline',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const steps = sandboxSteps(sandbox);
      const synchronizers = await steps.client.request<{
        connectedSynchronizers: { synchronizerId: string; synchronizerAlias: string }[];
      }>('GET', '/v2/state/connected-synchronizers');
      const idOf = (alias: string) =>
        synchronizers.connectedSynchronizers.find((s) => s.synchronizerAlias === alias)
          ?.synchronizerId ?? '';
      const { party: partyId, pem } = await seedExternalParty(sandbox, 'Roamer', {
        synchronizerId: idOf('local'),
        otherConfirmingParticipantUids: [OTHER],
        observingParticipantUids: [OBSERVER],
        confirmationThreshold: 2,
      });
      await hostExternalParty(sandbox, 'Roamer', pem, { synchronizerId: idOf('global') });

      const { hosting, rows } = await openHosting(sandbox, partyId);
      expect(rows).toEqual([
        [
          expect.stringMatching(/^sandbox.*This participant$/),
          expect.stringMatching(/^local/),
          'confirmation',
          'Hosted',
        ],
        [expect.stringMatching(/^p2/), expect.stringMatching(/^local/), 'confirmation', 'Hosted'],
        [expect.stringMatching(/^p3/), expect.stringMatching(/^local/), 'observation', 'Hosted'],
        [
          expect.stringMatching(/^sandbox.*This participant$/),
          expect.stringMatching(/^global/),
          'confirmation',
          'Hosted',
        ],
      ]);
      // Two confirmers on local: the threshold is in the topology mapping, not in the Ledger API.
      const thresholds = within(hosting).getByRole('list', { name: 'Confirmation thresholds' });
      expect(
        within(thresholds)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual([
        "Confirmation threshold on local: not reported by the Ledger API (2 participants confirm; the threshold is in the party's PartyToParticipant topology mapping).",
        'Confirmation threshold on global: 1 (one participant confirms for the party).',
      ]);

      const timeline = within(hosting).getByRole('table', { name: 'Hosting timeline' });
      const [newest, oldest] = within(timeline).getAllByRole('row').slice(1);
      expect(newest).toHaveTextContent(
        'Now hosted on participant sandbox (this participant) with confirmation permission',
      );
      expect(oldest).toHaveTextContent(
        'Now hosted on participant sandbox (this participant) with confirmation permission; Now hosted on participant p2 with confirmation permission; Now hosted on participant p3 with observation permission',
      );
      // Each change links to its topology transaction's page.
      if (!oldest) throw new Error('No oldest row');
      expect(
        within(oldest).getByRole('link', { name: 'Open the topology transaction at offset 1' }),
      ).toHaveAttribute('href', expect.stringMatching(/^\/transactions\?update=1220[0-9a-f]{64}$/));
      expect(within(hosting).queryByRole('status')).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows a local party hosted here with submission, its threshold 1, and its allocation',
    async () => {
      const sandbox = createSandbox();
      const party = await sandboxSteps(sandbox).allocateParty('alice');
      const { hosting, rows } = await openHosting(sandbox, party);
      expect(rows).toEqual([
        [
          expect.stringMatching(/This participant$/),
          expect.stringMatching(/^local/),
          'submission',
          'Hosted',
        ],
      ]);
      expect(
        within(hosting).getByRole('list', { name: 'Confirmation thresholds' }),
      ).toHaveTextContent('Confirmation threshold: 1 (one participant confirms for the party).');
      expect(within(hosting).getByRole('table', { name: 'Hosting timeline' })).toHaveTextContent(
        'Now hosted on participant sandbox (this participant) with submission permission',
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'adds this participant’s own hosting where the update stream has no event for it',
    async () => {
      const sandbox = createSandbox();
      // Written to the store, as a party whose allocation lies before the stream's start would be.
      const [party] = seedPartyRecords(sandbox, [{ hint: 'old' }]);
      sandbox.state.parties.host(party ?? '', sandbox.state.synchronizerId);
      const { hosting, rows } = await openHosting(sandbox, party ?? '');
      expect(rows).toEqual([
        [
          expect.stringMatching(/This participant$/),
          expect.stringMatching(/^local/),
          'submission',
          'Hosted (this participant reports it)',
        ],
      ]);
      expect(
        within(hosting).getByText('No hosting changes in the update stream you can read.'),
      ).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says where its bounded read of the update stream stopped',
    async () => {
      const sandbox = createSandbox();
      const steps = sandboxSteps(sandbox);
      const party = await steps.allocateParty('early');
      for (let i = 0; i < HOSTING_MAX_READS * HOSTING_READ_LIMIT + 10; i++) {
        await steps.allocateParty(`filler-${String(i)}`);
      }
      // A participant that puts a checkpoint at every offset fills each list to its limit.
      renderRoute(`/parties/${encodeURIComponent(party)}`, {
        sandbox,
        intercept: cantonLikeUpdates(true),
      });
      const hosting = await screen.findByRole('region', { name: 'Hosting' }, PAGE);
      expect(await within(hosting).findByRole('status', {}, PAGE)).toHaveTextContent(
        /^Reading stopped at offset \d+ after 5 reads of 200 updates: later hosting changes are not shown\.$/,
      );
      // What it read is shown: the allocation at its start.
      expect(within(hosting).getByRole('table', { name: 'Hosting timeline' })).toHaveTextContent(
        'Now hosted on participant sandbox (this participant) with submission permission',
      );
    },
    JOURNEY_TIMEOUT,
  );
});
