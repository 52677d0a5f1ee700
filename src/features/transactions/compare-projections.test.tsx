import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  createSandboxFleet,
  renderSandboxFleet,
  type SandboxFleet,
} from '@/testing/render-fleet-route';
import { TEST_SECRET, type Sandbox } from '@/testing/sandbox-network';
import { seedOwnIouWithUser, seedTransferAcross } from '@/testing/seed-fleet';
import { signInAs } from '@/testing/sign-in-as';

// Whole-app journeys over two in-process participants; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

function twoOf({ participants: [p1, p2] }: SandboxFleet): [Sandbox, Sandbox] {
  if (!p1 || !p2) throw new Error('A fleet of two is needed');
  return [p1, p2];
}

const table = () => screen.findByRole('table', { name: 'Who sees each node, and why' });
const rowOf = async (event: string) => {
  const header = await within(await table()).findByRole('rowheader', { name: event });
  const row = header.closest('tr');
  if (!row) throw new Error(`No row for ${event}`);
  return row;
};

describe('compare projections', () => {
  it(
    'shows the same update from participant2, node by node: seen by both or by one, and why',
    async () => {
      const fleet = createSandboxFleet({ participants: 2 });
      const [p1, p2] = twoOf(fleet);
      const { transfer } = await seedTransferAcross(p1, p2);
      const { user, router } = await renderSandboxFleet(
        `/transactions?update=${transfer.updateId}`,
        fleet,
      );

      await user.click(await screen.findByRole('button', { name: 'Compare with participant…' }));
      await user.click(await screen.findByRole('menuitem', { name: 'participant2' }));
      await waitFor(() => {
        expect(router.state.location.search).toContain('compare=participant2');
      });

      expect(
        await screen.findByText(
          '1 node seen by both, 1 by participant1 only, 0 by participant2 only.',
        ),
      ).toBeVisible();
      expect(
        screen.getByRole('figure', { name: 'participant1 (this participant) sees 2 of 2 nodes' }),
      ).toBeInTheDocument();
      expect(
        screen.getByRole('figure', { name: 'participant2 sees 1 of 2 nodes' }),
      ).toBeInTheDocument();

      const exercise = await rowOf('Exercise Iou_Transfer on Iou');
      expect(exercise).toHaveTextContent('participant1 only');
      expect(exercise).toHaveTextContent(
        /participant2 hosts none of its informees: alice-.*\(stakeholder, acting party, hosted on participant1\) and bank-.*\(stakeholder, hosted on participant1\)/,
      );
      const created = await rowOf('Create Iou');
      expect(created).toHaveTextContent('Both');
      expect(created).toHaveTextContent(
        /participant2 through bob-[0-9a-f]+::1220[0-9a-f]+…[0-9a-f]+ \(observer\)\.$/,
      );

      // The same update on participant2's own pages, and back to the tree alone.
      expect(screen.getByRole('link', { name: 'Open on participant2' })).toHaveAttribute(
        'href',
        `/p/participant2/transactions?update=${transfer.updateId}`,
      );
      await user.click(screen.getByRole('button', { name: 'Stop comparing' }));
      expect(await screen.findByRole('tree', { name: 'Transaction outline' })).toBeVisible();
      expect(screen.queryByRole('table', { name: 'Who sees each node, and why' })).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says in words that participant2 has no such update: none of its informees is hosted there',
    async () => {
      const fleet = createSandboxFleet({ participants: 2 });
      const [p1, p2] = twoOf(fleet);
      const { issued, alice } = await seedTransferAcross(p1, p2);
      await renderSandboxFleet(
        `/transactions?update=${issued.updateId}&compare=participant2`,
        fleet,
      );

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('participant2 has no such update for you');
      expect(alert).toHaveTextContent(
        /participant2 hosts none of this transaction’s informees: bank-.* \(hosted on participant1\) and alice-/,
      );
      expect(alert).toHaveTextContent(alice.split('::')[0] ?? alice);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says so when the user is not signed in on participant2, with a link to sign in there',
    async () => {
      const fleet = createSandboxFleet({ participants: 2, auth: 'jwt', jwtSecret: TEST_SECRET });
      const [p1] = twoOf(fleet);
      const { issued, userId } = await seedOwnIouWithUser(p1);
      await signInAs(p1, userId);
      await renderSandboxFleet(
        `/transactions?update=${issued.updateId}&compare=participant2`,
        fleet,
      );

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('You are not signed in on participant2');
      expect(within(alert).getByRole('link', { name: 'Sign in on participant2' })).toHaveAttribute(
        'href',
        `/p/participant2/sign-in?from=${encodeURIComponent(`/transactions?update=${issued.updateId}`)}`,
      );
    },
    JOURNEY_TIMEOUT,
  );
});
