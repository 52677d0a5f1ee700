import { afterEach, describe, expect, it, vi } from 'vitest';
import { cantonLikeUpdates } from '@/testing/canton-like-updates';
import { createSandbox, routeFetchToSandbox, type Sandbox } from '@/testing/sandbox-network';
import { hostExternalParty, seedExternalParty } from '@/testing/seed-external-parties';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { listConnectedSynchronizers } from './synchronizers';
import {
  HOSTING_MAX_READS,
  HOSTING_READ_LIMIT,
  HOSTING_READ_MS,
  listHostingChanges,
} from './party-hosting';

const OTHER = `p2::1220${'b'.repeat(64)}`;
const OBSERVER = `p3::1220${'c'.repeat(64)}`;

async function allocateParties(sandbox: Sandbox, count: number, synchronizerId = '') {
  for (let i = 0; i < count; i++) {
    await sandbox.fetch(
      new Request('http://sandbox.test/v2/parties', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ partyIdHint: `filler-${String(i)}`, synchronizerId }),
      }),
    );
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('listHostingChanges', () => {
  it("reads an external party's hosting changes on each synchronizer, oldest first, its own events only", async () => {
    const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
    routeFetchToSandbox({ sandbox });
    const [local, global] = (await listConnectedSynchronizers()).map(
      ({ synchronizerId }) => synchronizerId,
    );
    const { party: partyId, pem } = await seedExternalParty(sandbox, 'Roamer', {
      synchronizerId: local,
      otherConfirmingParticipantUids: [OTHER],
      observingParticipantUids: [OBSERVER],
      confirmationThreshold: 2,
    });
    // Other parties' hosting changes in between are not this party's.
    await allocateParties(sandbox, 3, local);
    await hostExternalParty(sandbox, 'Roamer', pem, { synchronizerId: global });

    const history = await listHostingChanges(partyId);
    expect(history.cut).toBeNull();
    expect(history.prunedUpTo).toBe(0);
    expect(
      history.changes.map((change) => [
        change.offset,
        change.synchronizerId,
        change.events.map(
          (event) => `${event.kind} ${event.participantId} ${String(event.permission)}`,
        ),
      ]),
    ).toEqual([
      [
        1,
        local,
        [
          `added ${sandbox.state.participantId} PARTICIPANT_PERMISSION_CONFIRMATION`,
          `added ${OTHER} PARTICIPANT_PERMISSION_CONFIRMATION`,
          `added ${OBSERVER} PARTICIPANT_PERMISSION_OBSERVATION`,
        ],
      ],
      [5, global, [`added ${sandbox.state.participantId} PARTICIPANT_PERMISSION_CONFIRMATION`]],
    ]);
    expect(history.changes[0]?.recordTime).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('stops after its reads when offset checkpoints fill every answer, and says where', async () => {
    const sandbox = createSandbox();
    const network = routeFetchToSandbox({ sandbox });
    const count = HOSTING_MAX_READS * HOSTING_READ_LIMIT + 10;
    await allocateParties(sandbox, count);
    // A participant that puts a checkpoint at every offset fills each list to its limit.
    network.intercept(cantonLikeUpdates(true));
    const [first] = sandbox.state.parties.page('filler-0', '', 1);
    const history = await listHostingChanges(first?.party ?? '');
    expect(history.cut?.reason).toBe('count');
    expect(history.cut?.readUpTo).toBeGreaterThan(HOSTING_READ_LIMIT);
    expect(history.cut?.readUpTo).toBeLessThan(count);
    // What it did read is kept: the party's allocation, near the start.
    expect(history.changes).toHaveLength(1);
  }, 60_000);

  it('reads on from a full answer cut between a checkpoint and its update', async () => {
    const sandbox = createSandbox();
    const network = routeFetchToSandbox({ sandbox });
    // The party's allocation at offset 200: a checkpoint at every offset before it fills the first
    // answer, which ends with the checkpoint at 200, its update cut off.
    await allocateParties(sandbox, HOSTING_READ_LIMIT - 1);
    const party = await sandboxSteps(sandbox).allocateParty('late');
    await allocateParties(sandbox, 10);
    network.intercept(cantonLikeUpdates(true));
    const history = await listHostingChanges(party);
    expect(history.changes.map((change) => change.offset)).toEqual([HOSTING_READ_LIMIT]);
    expect(history.cut).toBeNull();
  });

  it('stops when the participant takes longer than the time bound, and says where', async () => {
    const sandbox = createSandbox();
    const network = routeFetchToSandbox({ sandbox });
    await sandboxSteps(sandbox).allocateParty('slow');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // A participant that never answers the list: only the abort ends the request.
    network.intercept(async (request, sandboxFetch) => {
      if (new URL(request.url).pathname !== '/v2/updates') return sandboxFetch(request);
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => {
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    });
    const reading = listHostingChanges('slow::1220');
    await vi.advanceTimersByTimeAsync(HOSTING_READ_MS);
    expect(await reading).toEqual({
      changes: [],
      prunedUpTo: 0,
      cut: { reason: 'time', readUpTo: 0 },
    });
  });
});
