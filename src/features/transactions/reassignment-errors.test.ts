import { describe, expect, it } from 'vitest';
import { unassignCall, type UnassignRequest } from '@/api/reassignment';
import { toApiError } from '@/lib/errors/api-error';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { seedIouOnTwoSynchronizers, setDemoPackageVetting } from '@/testing/seed-reassignments';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { reassignmentProblem } from './reassignment-errors';

/** The participant's own refusal of an unassignment, as the API client would raise it. */
async function refusal(sandbox: Sandbox, request: UnassignRequest) {
  const { path, body } = unassignCall(request);
  const response = await sandbox.fetch(
    new Request(`http://localhost:3000${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  expect(response.ok).toBe(false);
  return toApiError(response.status, await response.json());
}

const names = (id: string) => id.split('::')[0] ?? id;

describe('reassignmentProblem, on the sandbox’s own refusals', () => {
  it('puts each refusal on the field it concerns, in words that say what to change', async () => {
    const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
    const iou = await seedIouOnTwoSynchronizers(sandbox);
    const move = {
      contractId: iou.iouId,
      source: iou.source,
      target: iou.target,
      userId: 'participant_admin',
    };
    const stranger = await sandboxSteps(sandbox).allocateParty('stranger', {
      synchronizerId: iou.source,
    });

    expect(
      reassignmentProblem(await refusal(sandbox, { ...move, submitter: stranger }), names),
    ).toEqual({
      field: 'submitter',
      message:
        'stranger is not a stakeholder of this contract: only its signatories and observers may move it.',
    });

    const gone = `gone::1220${'ab'.repeat(32)}`;
    expect(
      reassignmentProblem(
        await refusal(sandbox, { ...move, target: gone, submitter: iou.issuer }),
        names,
      ),
    ).toEqual({
      field: 'target',
      message: 'This participant is not connected to gone: connect it first, or choose another.',
    });

    await setDemoPackageVetting(sandbox, iou.target, false);
    expect(
      reassignmentProblem(await refusal(sandbox, { ...move, submitter: iou.issuer }), names),
    ).toEqual({
      field: 'target',
      message: `The contract's package is not vetted on ${names(iou.target)}: vet it there first (Packages).`,
    });
    sandbox.close();
  });

  it('says that a moved or archived contract is no longer there to move', async () => {
    const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
    const iou = await seedIouOnTwoSynchronizers(sandbox);
    const move = {
      contractId: iou.iouId,
      source: iou.source,
      target: iou.target,
      submitter: iou.issuer,
      userId: 'participant_admin',
    };
    const { path, body } = unassignCall(move);
    await sandboxSteps(sandbox).client.request('POST', path, { body });
    expect(reassignmentProblem(await refusal(sandbox, move), names)).toEqual({
      field: undefined,
      message: 'The contract was moved meanwhile: reload the page to see where it is.',
    });
    sandbox.close();
  });

  it('keeps the participant’s words for anything else', () => {
    const error = toApiError(503, { code: 'SERVICE_NOT_RUNNING', cause: 'Sync service down' });
    expect(reassignmentProblem(error, names)).toEqual({
      field: undefined,
      message: 'Sync service down',
    });
  });
});
