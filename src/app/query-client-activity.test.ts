import type { MutationOptions, QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { identityProviderMutations } from '@/api/identity-providers';
import { darMutations } from '@/api/dars';
import { getParticipantId, participantQueries } from '@/api/participant';
import { partyMutations, type PartyDetails } from '@/api/parties';
import { userMutations, userQueries, type User } from '@/api/users';
import { activityPlace } from '@/features/activity/activity-place';
import { flushActivity, readActivity } from '@/features/activity/activity-store';
import { type ActivityEntry } from '@/lib/activity/activity-log';
import { activityMeta, NOTHING, valueOf } from '@/lib/activity/activity-spec';
import { MemoryStorage } from '@/testing/memory-storage';
import { routeFetchToSandbox, type Sandbox } from '@/testing/sandbox-network';
import { fixtureDar } from '@/testing/seed-packages';
import { seedParties } from '@/testing/seed-parties';
import { createQueryClient } from './query-client';

const actAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });

/** Runs a mutation through the app's mutation cache, as useMutation would. */
function run<TData, TVariables>(
  queryClient: QueryClient,
  // The factories' option types differ in their context; the cache takes them all.
  options: MutationOptions<TData, Error, TVariables>,
  variables: TVariables,
): Promise<TData> {
  return queryClient.getMutationCache().build(queryClient, options).execute(variables);
}

async function logOf(count: number): Promise<ActivityEntry[]> {
  const place = activityPlace(await getParticipantId());
  return vi.waitFor(() => {
    flushActivity();
    const entries = readActivity(place);
    expect(entries).toHaveLength(count);
    return entries;
  });
}

let sandbox: Sandbox;
let queryClient: QueryClient;

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  ({ sandbox } = routeFetchToSandbox());
  queryClient = createQueryClient({ retries: 0 });
});

describe('recording admin mutations', () => {
  it('records users: create, grant, revoke, update, delete; "before" only where it was loaded', async () => {
    const [alice] = await seedParties(sandbox, ['alice']);
    const party = alice ?? '';
    const ref = { userId: 'ops', identityProviderId: '' };

    await run(queryClient, userMutations.create(), {
      user: { id: 'ops', primaryParty: '', isDeactivated: false, identityProviderId: '' },
      rights: [actAs(party)],
    });
    // A screen replacing the factory's meta (as the rights form does) is recorded all the same.
    await run(
      queryClient,
      { ...userMutations.grantRights(), meta: { invalidates: [] } },
      { ...ref, rights: [{ kind: { CanReadAsAnyParty: { value: {} } } }] },
    );
    await queryClient.query(userQueries.rights(ref));
    await run(queryClient, userMutations.revokeRights(), { ...ref, rights: [actAs(party)] });
    const loaded: User = await queryClient.query(userQueries.detail(ref));
    await run(queryClient, userMutations.update(), {
      user: { ...loaded, primaryParty: party },
      updateMask: { paths: ['primary_party'], unknownFields: { fields: {} } },
    });
    await run(queryClient, userMutations.delete(), ref);

    const [deleted, updated, revoked, granted, created] = await logOf(5);
    expect(created).toMatchObject({
      action: 'user.create',
      actor: { kind: 'anonymous' },
      call: { method: 'POST', path: '/v2/users' },
      subjects: [
        { kind: 'user', userId: 'ops', identityProviderId: '' },
        { kind: 'party', party },
      ],
      before: { kind: 'none' },
      result: { kind: 'ok' },
    });
    expect(created?.after).toEqual({
      kind: 'json',
      text: `{"user":{"id":"ops","identityProviderId":"","primaryParty":"","isDeactivated":false,"annotations":{}},"rights":["CanActAs:${party}"]}`,
    });
    expect(granted).toMatchObject({
      action: 'user.rights.grant',
      call: { method: 'POST', path: '/v2/users/ops/rights' },
      before: {
        kind: 'unknown',
        reason: 'not loaded in this console before the call, or out of date',
      },
      after: {
        kind: 'json',
        text: '{"requested":["CanReadAsAnyParty"],"newlyGranted":["CanReadAsAnyParty"]}',
      },
    });
    expect(revoked).toMatchObject({
      action: 'user.rights.revoke',
      call: { method: 'PATCH', path: '/v2/users/ops/rights' },
      subjects: [
        { kind: 'user', userId: 'ops' },
        { kind: 'party', party },
      ],
      after: {
        kind: 'json',
        text: `{"requested":["CanActAs:${party}"],"newlyRevoked":["CanActAs:${party}"]}`,
      },
    });
    expect(JSON.parse(revoked?.before.kind === 'json' ? revoked.before.text : '')).toEqual({
      rights: expect.arrayContaining([`CanActAs:${party}`, 'CanReadAsAnyParty']) as unknown,
    });
    expect(updated).toMatchObject({
      action: 'user.update',
      call: { method: 'PATCH', path: '/v2/users/ops' },
      before: { kind: 'json', text: expect.stringContaining('"primaryParty":""') as unknown },
      after: {
        kind: 'json',
        text: expect.stringContaining(`"primaryParty":"${party}"`) as unknown,
      },
    });
    expect(deleted).toMatchObject({
      action: 'user.delete',
      call: { method: 'DELETE', path: '/v2/users/ops' },
      // The update invalidated the detail loaded before it, and nothing refetched it.
      before: { kind: 'unknown' },
      after: { kind: 'none' },
    });
  });

  it('records a failure with its code, and says the "after" is unknown', async () => {
    const options = userMutations.delete();
    await expect(
      run(
        queryClient,
        { ...options, meta: { ...options.meta, errorDisplay: 'inline' } },
        { userId: 'ghost', identityProviderId: '' },
      ),
    ).rejects.toThrow();

    const [failed] = await logOf(1);
    expect(failed).toMatchObject({
      action: 'user.delete',
      subjects: [{ kind: 'user', userId: 'ghost' }],
      before: { kind: 'unknown' },
      after: { kind: 'unknown', reason: 'the call failed; see its result' },
      result: { kind: 'error', code: 'USER_NOT_FOUND', status: 404 },
    });
  });

  it('records parties, identity providers and a DAR upload; not a validation', async () => {
    const details: PartyDetails = await run(queryClient, partyMutations.allocate(), {
      partyIdHint: 'dana',
      identityProviderId: '',
      synchronizerId: '',
      userId: '',
    });
    await run(queryClient, partyMutations.updateAnnotations(), {
      loaded: details,
      annotations: { team: 'ops' },
    });
    const config = {
      identityProviderId: 'globex',
      isDeactivated: false,
      issuer: 'https://globex.example.com',
      jwksUrl: 'https://globex.example.com/jwks.json',
      audience: '',
    };
    await run(queryClient, identityProviderMutations.create(), config);
    await run(queryClient, identityProviderMutations.update(), {
      identityProviderConfig: { ...config, isDeactivated: true },
      updateMask: { paths: ['is_deactivated'], unknownFields: { fields: {} } },
    });
    await run(queryClient, identityProviderMutations.delete(), 'globex');
    const bytes = fixtureDar('workflows').bytes().buffer;
    await run(queryClient, darMutations.validate(), { bytes, synchronizerId: '' });
    await run(queryClient, darMutations.upload(), {
      bytes,
      synchronizerId: '',
      vetAllPackages: true,
    });

    const [uploaded, idpDeleted, idpUpdated, idpCreated, partyUpdated, allocated] = await logOf(6);
    expect(allocated).toMatchObject({
      action: 'party.allocate',
      subjects: [{ kind: 'party', party: details.party }],
      before: { kind: 'none' },
    });
    expect(partyUpdated).toMatchObject({
      action: 'party.update',
      call: { method: 'PATCH', path: `/v2/parties/${encodeURIComponent(details.party)}` },
      before: { kind: 'json', text: expect.stringContaining('"annotations":{}') as unknown },
      after: { kind: 'json', text: expect.stringContaining('"patch":{"team":"ops"}') as unknown },
    });
    expect(idpCreated).toMatchObject({
      action: 'idp.create',
      subjects: [{ kind: 'identity-provider', identityProviderId: 'globex' }],
    });
    // Neither the list nor the config's page was loaded here.
    expect(idpUpdated).toMatchObject({
      action: 'idp.update',
      call: { method: 'PATCH', path: '/v2/idps/globex' },
      before: { kind: 'unknown' },
      after: { kind: 'json', text: expect.stringContaining('"isDeactivated":true') as unknown },
    });
    expect(idpDeleted).toMatchObject({ action: 'idp.delete', result: { kind: 'ok' } });
    expect(uploaded).toMatchObject({
      action: 'dar.upload',
      call: { method: 'POST', path: '/v2/dars?vetAllPackages=true' },
      after: {
        kind: 'json',
        text: `{"darBytes":${String(bytes.byteLength)},"vetAllPackages":true,"synchronizerId":""}`,
      },
      result: { kind: 'ok' },
    });
  });

  it('records calls that settle before the code writing entries has loaded, in order', async () => {
    await queryClient.query(participantQueries.participantId());
    // No round trip: each settles within microtasks of its start, while the import is in flight.
    const instant = (userId: string): MutationOptions<string, Error, string> => ({
      mutationFn: (id) => Promise.resolve(id),
      meta: {
        activity: activityMeta<string, string>({
          action: 'user.delete',
          call: (id) => ({ method: 'DELETE', path: `/v2/users/${id}` }),
          subjects: (id) => [{ kind: 'user', userId: id, identityProviderId: '' }],
          before: () => NOTHING,
          after: (id) => valueOf(id),
        }),
      },
      mutationKey: ['test', userId],
    });
    await Promise.all([
      run(queryClient, instant('first'), 'first'),
      run(queryClient, instant('second'), 'second'),
    ]);

    const [second, first] = await logOf(2);
    expect(first).toMatchObject({ call: { path: '/v2/users/first' }, result: { kind: 'ok' } });
    expect(second).toMatchObject({ call: { path: '/v2/users/second' }, result: { kind: 'ok' } });
  });
});
