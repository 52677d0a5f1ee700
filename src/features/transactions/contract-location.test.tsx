import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shortenIdentifier } from '@/lib/text/format';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import {
  seedIouOnTwoSynchronizers,
  setDemoPackageVetting,
  synchronizerOf,
  unassignIou,
} from '@/testing/seed-reassignments';
import { seedIouSplit } from '@/testing/seed-transactions';

const JOURNEY_TIMEOUT = 30_000;

const contractPage = (contractId: string) => `/contracts/${encodeURIComponent(contractId)}`;

async function locationSection() {
  return screen.findByRole('region', { name: 'Location' }, { timeout: 5_000 });
}

const synchronizerField = (region: HTMLElement) =>
  within(region).getByRole('group', { name: 'Synchronizer' });

async function openMoveDialog(user: ReturnType<typeof renderRoute>['user']) {
  const location = await locationSection();
  await user.click(await within(location).findByRole('button', { name: 'Move to synchronizer…' }));
  return screen.findByRole('dialog', { name: 'Move to synchronizer' });
}

const targetField = (dialog: HTMLElement) =>
  within(dialog).getByRole('combobox', { name: /^Target synchronizer/ });

/** Presses Move and waits until the target field says `problem`; the field. */
async function refusedOnTarget(
  user: ReturnType<typeof renderRoute>['user'],
  dialog: HTMLElement,
  problem: string,
) {
  await user.click(within(dialog).getByRole('button', { name: 'Move' }));
  const target = targetField(dialog);
  await waitFor(() => {
    expect(target).toHaveAccessibleDescription(expect.stringContaining(problem));
  });
  return target;
}

describe('moving a contract between synchronizers', () => {
  it(
    'shows where the contract is, and moves it in two steps with progress, then shows it there',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const iou = await seedIouOnTwoSynchronizers(sandbox);
      // The assignment waits until the test has seen step 2 on screen.
      const gate: { open?: () => void } = {};
      const assignHeld = new Promise<void>((resolve) => {
        gate.open = resolve;
      });
      const { user } = renderRoute(contractPage(iou.iouId), {
        sandbox,
        intercept: async (request, sandboxFetch) => {
          if (request.url.endsWith('/v2/commands/submit-and-wait-for-reassignment')) {
            const body = await request.clone().text();
            if (body.includes('AssignCommand')) await assignHeld;
          }
          return sandboxFetch(request);
        },
      });

      const location = await locationSection();
      await waitFor(() => {
        expect(synchronizerField(location)).toHaveTextContent('global');
      });
      const dialog = await openMoveDialog(user);
      // The only other synchronizer is chosen already, the first stakeholder as submitter.
      expect(targetField(dialog)).toHaveValue('local');
      expect(within(dialog).getByRole('combobox', { name: /^Submitter/ })).toHaveValue(
        shortenIdentifier(iou.issuer),
      );
      await user.click(within(dialog).getByRole('button', { name: 'Move' }));

      expect(await within(dialog).findByText('Step 2 of 2: Assign to local…')).toBeVisible();
      expect(within(dialog).getByText(/Unassign from global \(done\)/)).toBeVisible();
      // Between the steps the participant has it nowhere: in flight.
      expect(await synchronizerOf(sandbox, iou.issuer, iou.iouId)).toBeUndefined();
      gate.open?.();

      expect(await within(dialog).findByText('Moved to local')).toBeVisible();
      const result = within(dialog).getByRole('status');
      expect(result).toHaveTextContent(/Unassigned from global at offset \d+/);
      expect(result).toHaveTextContent(/Assigned to local at offset \d+/);
      expect(await synchronizerOf(sandbox, iou.issuer, iou.iouId)).toBe(iou.target);

      await user.click(within(dialog).getByRole('button', { name: 'Close' }));
      // The page read the contract's location again after the move.
      await waitFor(() => {
        expect(synchronizerField(location)).toHaveTextContent('local');
      });
      expect(within(location).getByRole('group', { name: 'Times reassigned' })).toHaveTextContent(
        '1',
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers to complete a move that stopped after the unassignment, and completes it',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const iou = await seedIouOnTwoSynchronizers(sandbox);
      const reassignmentId = await unassignIou(sandbox, iou);
      const { user } = renderRoute(contractPage(iou.iouId), { sandbox });

      const location = await locationSection();
      expect(
        await within(location).findByText(
          /It was unassigned from global and waits to be assigned to local/,
        ),
      ).toBeVisible();
      expect(within(location).getByRole('group', { name: 'Reassignment id' })).toHaveTextContent(
        reassignmentId.slice(0, 6),
      );
      expect(
        within(location).queryByRole('button', { name: 'Move to synchronizer…' }),
      ).not.toBeInTheDocument();

      await user.click(within(location).getByRole('button', { name: 'Complete the move…' }));
      const dialog = await screen.findByRole('dialog', { name: 'Complete the move' });
      // Where it goes is the unassignment's to say, not the user's.
      expect(targetField(dialog)).toBeDisabled();
      await user.click(within(dialog).getByRole('button', { name: 'Assign' }));

      expect(await within(dialog).findByText('Moved to local')).toBeVisible();
      expect(await synchronizerOf(sandbox, iou.issuer, iou.iouId)).toBe(iou.target);
      await user.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => {
        expect(synchronizerField(location)).toHaveTextContent('local');
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says on the target when a stakeholder is not hosted there, and keeps the form',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const iou = await seedIouOnTwoSynchronizers(sandbox, { ownerOnSourceOnly: true });
      const { user } = renderRoute(contractPage(iou.iouId), { sandbox });

      const dialog = await openMoveDialog(user);
      const target = await refusedOnTarget(
        user,
        dialog,
        `Not every stakeholder is hosted there: ${iou.owner.split('::')[0] ?? ''} must be allocated on the target synchronizer first.`,
      );
      expect(target).toHaveValue('local');
      expect(within(dialog).getByRole('combobox', { name: /^Submitter/ })).toHaveValue(
        shortenIdentifier(iou.issuer),
      );
      // Nothing moved: it is still where it was.
      expect(await synchronizerOf(sandbox, iou.issuer, iou.iouId)).toBe(iou.source);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says on the target when the package is not vetted there',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const iou = await seedIouOnTwoSynchronizers(sandbox);
      await setDemoPackageVetting(sandbox, iou.target, false);
      const { user } = renderRoute(contractPage(iou.iouId), { sandbox });

      const dialog = await openMoveDialog(user);
      await refusedOnTarget(
        user,
        dialog,
        "The contract's package is not vetted on local: vet it there first (Packages).",
      );
      expect(await synchronizerOf(sandbox, iou.issuer, iou.iouId)).toBe(iou.source);

      // Vetted there, the same form moves it.
      await setDemoPackageVetting(sandbox, iou.target, true);
      await user.click(within(dialog).getByRole('button', { name: 'Move' }));
      expect(await within(dialog).findByText('Moved to local')).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says on the target when the participant is no longer connected to it',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const iou = await seedIouOnTwoSynchronizers(sandbox);
      const gone = `gone::1220${'ab'.repeat(32)}`;
      // The list was read while the participant was still connected to a third synchronizer.
      const { user } = renderRoute(contractPage(iou.iouId), {
        sandbox,
        intercept: async (request, sandboxFetch) => {
          const response = await sandboxFetch(request);
          if (new URL(request.url).pathname !== '/v2/state/connected-synchronizers') {
            return response;
          }
          const body = (await response.json()) as { connectedSynchronizers: unknown[] };
          return Response.json({
            connectedSynchronizers: [
              ...body.connectedSynchronizers,
              {
                synchronizerAlias: 'gone',
                synchronizerId: gone,
                permission: 'PARTICIPANT_PERMISSION_UNSPECIFIED',
              },
            ],
          });
        },
      });

      const dialog = await openMoveDialog(user);
      await user.click(targetField(dialog));
      await user.click(await screen.findByRole('option', { name: 'gone' }));
      const target = await refusedOnTarget(
        user,
        dialog,
        'This participant is not connected to gone: connect it first, or choose another.',
      );
      expect(target).toHaveValue('gone');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers no move on a participant connected to one synchronizer, and shows where it is',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      renderRoute(contractPage(seeded.splitIds[0]), { sandbox });

      const location = await locationSection();
      await waitFor(() => {
        expect(synchronizerField(location)).toHaveTextContent(
          sandbox.state.synchronizerIds[0]?.split('::')[0] ?? '',
        );
      });
      expect(
        within(location).queryByRole('button', { name: 'Move to synchronizer…' }),
      ).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );
});
