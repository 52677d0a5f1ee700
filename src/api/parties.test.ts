import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import { routeFetchToSandbox } from '@/testing/sandbox-network';
import { seedPartyRecords } from '@/testing/seed-parties';
import { allocateParty, getParties, getParty, updatePartyAnnotations } from './parties';

describe('party requests', () => {
  it('read one party, and null for a party the participant does not know', async () => {
    const { sandbox } = routeFetchToSandbox();
    const [alice] = seedPartyRecords(sandbox, [{ hint: 'alice', annotations: { team: 'ops' } }]);
    const party = alice ?? '';

    expect(await getParty({ party, identityProviderId: '' })).toEqual({
      party,
      isLocal: true,
      identityProviderId: '',
      localMetadata: { resourceVersion: '0', annotations: { team: 'ops' } },
    });
    expect(
      await getParty({ party: `ghost::${sandbox.state.namespace}`, identityProviderId: '' }),
    ).toBeNull();
  });

  it('read several parties at once, leaving out the unknown ones', async () => {
    const { sandbox } = routeFetchToSandbox();
    const [alice, bob] = seedPartyRecords(sandbox, [{ hint: 'alice' }, { hint: 'bob' }]);

    const details = await getParties([bob ?? '', 'ghost::1220ab', alice ?? ''], '');

    expect(details.map((found) => found.party)).toEqual([bob, alice]);
  });

  it('allocate a party with its annotations', async () => {
    const { sandbox } = routeFetchToSandbox();

    const allocated = await allocateParty({
      partyIdHint: 'carol',
      identityProviderId: '',
      synchronizerId: '',
      userId: '',
      localMetadata: { annotations: { team: 'ops' } },
    });

    expect(allocated).toMatchObject({
      party: `carol::${sandbox.state.namespace}`,
      isLocal: true,
      localMetadata: { resourceVersion: '0', annotations: { team: 'ops' } },
    });
  });

  it('merge annotations: changed and new keys are set, keys sent as "" are removed', async () => {
    const { sandbox } = routeFetchToSandbox();
    const [alice] = seedPartyRecords(sandbox, [
      { hint: 'alice', annotations: { team: 'ops', tier: 'gold', site: 'zrh' } },
    ]);
    const loaded = await getParty({ party: alice ?? '', identityProviderId: '' });
    if (!loaded) throw new Error('not found');

    const saved = await updatePartyAnnotations({
      loaded,
      annotations: { team: 'night', tier: '', region: 'eu' },
    });

    expect(saved.localMetadata).toEqual({
      resourceVersion: '1',
      annotations: { team: 'night', site: 'zrh', region: 'eu' },
    });
  });

  it('refuse an update based on an old resourceVersion', async () => {
    const { sandbox } = routeFetchToSandbox();
    const [alice] = seedPartyRecords(sandbox, [{ hint: 'alice' }]);
    const loaded = await getParty({ party: alice ?? '', identityProviderId: '' });
    if (!loaded) throw new Error('not found');
    await updatePartyAnnotations({ loaded, annotations: { team: 'first' } });

    const error = await updatePartyAnnotations({ loaded, annotations: { team: 'second' } }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED');
    expect(sandbox.state.parties.get(alice ?? '')?.annotations).toEqual({ team: 'first' });
  });
});
