import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSandboxFleet, renderSandboxFleet } from '@/testing/render-fleet-route';
import { seedTransferAcross } from '@/testing/seed-fleet';
import { flushVisits } from './visits';

// Whole-app journeys over an in-process fleet; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

const fleetGroup = () =>
  within(screen.getByRole('listbox', { name: 'Results' })).getByRole('group', {
    name: 'On every participant',
  });
const fleetOptions = () =>
  within(fleetGroup())
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('search on every participant', () => {
  afterEach(flushVisits);

  it(
    'lists where an update id is found, where not, and a participant that fails, each linking to its pages',
    async () => {
      const fleet = createSandboxFleet({ participants: 3 });
      const [p1, p2] = fleet.participants;
      if (!p1 || !p2) throw new Error('A fleet of three is needed');
      const { issued, transfer } = await seedTransferAcross(p1, p2);
      const { user, network } = await renderSandboxFleet('/token-doctor', fleet);
      // participant3 is down, as a participant behind a broken network would be.
      network.intercept((request, forward) =>
        new URL(request.url).pathname.startsWith('/participants/participant3/')
          ? Promise.resolve(
              Response.json(
                { code: 'LEDGER_UNREACHABLE', cause: 'participant3 does not answer' },
                { status: 502 },
              ),
            )
          : forward(request),
      );

      await screen.findByRole('button', { name: 'Search Ctrl+K' });
      await user.keyboard('{Control>}k{/Control}');
      const input = await screen.findByRole(
        'combobox',
        { name: 'Id, page or action' },
        { timeout: 10_000 },
      );
      await user.click(input);
      await user.paste(transfer.updateId);
      await waitFor(() => {
        expect(fleetOptions()).toEqual([
          expect.stringMatching(
            /^Found on participant1 \(this participant\) Transaction at offset \d+, 2 events visible$/,
          ),
          expect.stringMatching(
            /^Found on participant2 Transaction at offset \d+, 1 event visible$/,
          ),
          'participant3: Service unavailable participant3 does not answer',
        ]);
      });

      await user.clear(input);
      await user.paste(issued.updateId);
      await waitFor(() => {
        expect(fleetOptions()[1]).toBe('Not on participant2 No such update that you may see there');
      });

      // Enter on an answer opens that participant's own page of the id: a document navigation.
      const assigned: string[] = [];
      vi.stubGlobal(
        'location',
        Object.assign(new URL(globalThis.location.href), {
          assign: (to: string) => assigned.push(to),
        }),
      );
      await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
      expect(assigned).toEqual([`/p/participant2/transactions?update=${issued.updateId}`]);
    },
    JOURNEY_TIMEOUT,
  );
});
