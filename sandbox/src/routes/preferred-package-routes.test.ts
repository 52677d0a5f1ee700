import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixtureDar, type FixtureDarName } from '@ledger-console/participant/testing/fixture-dars';
import { allocateParty } from '../testing/ledger-history';
import {
  createTestSandbox,
  expectDecodeFailure,
  expectError,
  type CallResult,
  type TestSandbox,
} from '../testing/test-client';
import { TEST_SECRET, hs256Token } from '../testing/tokens';

// `upgrade-demo` 1.0.0 and its valid upgrade 1.1.0, built by the project's own encoder.
const V1 = fixtureDar('upgradeV1').main;
const V2 = fixtureDar('upgradeV2').main;
const UPGRADE = 'upgrade-demo';

let t: TestSandbox;
afterEach(() => {
  t.close();
});

const upload = async (name: FixtureDarName, query = '') => {
  const result = await t.call('POST', `/v2/dars${query}`, { rawBody: fixtureDar(name).bytes() });
  expect(result.status, result.text).toBe(200);
};

const updateVetting = async (
  changes: unknown[],
  synchronizerId = '',
  updateVettedPackagesForceFlags: string[] = [],
) => {
  const result = await t.post('/v2/package-vetting/update', {
    changes,
    synchronizerId,
    updateVettedPackagesForceFlags,
  });
  expect(result.status, result.text).toBe(200);
};
const vet = (packageId: string, bounds: Record<string, string> = {}) => ({
  operation: { Vet: { value: { packages: [{ packageId }], ...bounds } } },
});
const unvet = (packageId: string) => ({
  operation: { Unvet: { value: { packages: [{ packageId }] } } },
});

type Requirement = { packageName: string; parties: string[] };
const preferred = (
  packageVettingRequirements: Requirement[],
  options: { synchronizerId?: string; vettingValidAt?: string } = {},
) =>
  t.post('/v2/interactive-submission/preferred-packages', {
    packageVettingRequirements,
    ...options,
  });

const version = (parties: string[], packageName: string, extra: Record<string, string> = {}) => {
  const query = new URLSearchParams([
    ...parties.map((party) => ['parties', party]),
    ['package-name', packageName],
    ...Object.entries(extra),
  ]);
  return t.get(`/v2/interactive-submission/preferred-package-version?${query.toString()}`);
};

/** The one package reference a preferred-packages answer holds, and its synchronizer. */
function onlyReference(result: CallResult) {
  expect(result.status, result.text).toBe(200);
  const { packageReferences, synchronizerId } = result.json as {
    packageReferences: { packageId: string; packageName: string; packageVersion: string }[];
    synchronizerId: string;
  };
  expect(packageReferences).toHaveLength(1);
  return { ...packageReferences[0], synchronizerId };
}

const reference = (pkg: { packageId: string; version: string }) => ({
  packageId: pkg.packageId,
  packageName: UPGRADE,
  packageVersion: pkg.version,
});

describe('preferred packages on one synchronizer', () => {
  let alice: string;
  beforeEach(async () => {
    t = createTestSandbox();
    alice = await allocateParty(t, 'Alice');
  });

  it('names the highest vetted version, and follows vetting and unvetting', async () => {
    await upload('upgradeV1');
    const one = onlyReference(await preferred([{ packageName: UPGRADE, parties: [alice] }]));
    expect(one).toEqual({ ...reference(V1), synchronizerId: t.state.synchronizerId });

    await upload('upgradeV2');
    const both = await preferred([{ packageName: UPGRADE, parties: [alice] }]);
    expect(both.json).toEqual({
      packageReferences: [reference(V2)],
      synchronizerId: t.state.synchronizerId,
    });
    const versionLookup = await version([alice], UPGRADE);
    expect(versionLookup.json).toEqual({
      packagePreference: {
        packageReference: reference(V2),
        synchronizerId: t.state.synchronizerId,
      },
    });

    await updateVetting([unvet(V2.packageId)]);
    expect(onlyReference(await preferred([{ packageName: UPGRADE, parties: [alice] }]))).toEqual({
      ...reference(V1),
      synchronizerId: t.state.synchronizerId,
    });

    await updateVetting([unvet(V1.packageId)]);
    const none = expectError(
      await preferred([{ packageName: UPGRADE, parties: [alice] }]),
      400,
      'NO_PREFERRED_PACKAGES_FOUND',
    );
    expect(none.errorCategory).toBe(9);
    expect(none.context.definite_answer).toBe('false');
    expect(none.cause).toMatch(
      /^Failed to compute package preferences\. Reason: No synchronizer satisfies the vetting requirements\./,
    );
    expect(none.cause).toContain(`No package with package-name '${UPGRADE}'`);
    // The deprecated lookup answers an empty preference instead.
    const empty = await version([alice], UPGRADE);
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('{"packagePreference":null}');

    await updateVetting([vet(V1.packageId)]);
    expect(onlyReference(await preferred([{ packageName: UPGRADE, parties: [alice] }]))).toEqual({
      ...reference(V1),
      synchronizerId: t.state.synchronizerId,
    });
  });

  it('knows stored packages nobody vetted, but prefers none of them', async () => {
    await upload('upgradeV1', '?vetAllPackages=false');
    expectError(
      await preferred([{ packageName: UPGRADE, parties: [alice] }]),
      400,
      'NO_PREFERRED_PACKAGES_FOUND',
    );
  });

  it('reads the vetting bounds at the time asked for, the participant clock by default', async () => {
    await upload('upgradeV1');
    await upload('upgradeV2');
    const at = async (vettingValidAt?: string) =>
      onlyReference(
        await preferred(
          [{ packageName: UPGRADE, parties: [alice] }],
          vettingValidAt === undefined ? {} : { vettingValidAt },
        ),
      ).packageVersion;
    const versionAt = async (vettingValidAt: string) =>
      (await version([alice], UPGRADE, { vetting_valid_at: vettingValidAt })).json.packagePreference
        .packageReference.packageVersion;

    // 1.1.0 becomes valid in the future, from its bound on (inclusive).
    await updateVetting([vet(V2.packageId, { newValidFromInclusive: '2999-01-01T00:00:00Z' })]);
    expect(await at()).toBe('1.0.0');
    expect(await at('2998-12-31T23:59:59.999999Z')).toBe('1.0.0');
    expect(await at('2999-01-01T00:00:00Z')).toBe('1.1.0');
    expect(await at('2999-01-01T01:00:00+01:00')).toBe('1.1.0');
    expect(await versionAt('2999-06-01T00:00:00Z')).toBe('1.1.0');
    expect(
      (await version([alice], UPGRADE)).json.packagePreference.packageReference.packageVersion,
    ).toBe('1.0.0');

    // …and then stops being valid at its end (exclusive).
    await updateVetting([
      vet(V2.packageId, {
        newValidFromInclusive: '2000-01-01T00:00:00Z',
        newValidUntilExclusive: '2100-01-01T00:00:00Z',
      }),
    ]);
    expect(await at()).toBe('1.1.0');
    expect(await at('2099-12-31T23:59:59.999999999Z')).toBe('1.1.0');
    expect(await at('2100-01-01T00:00:00Z')).toBe('1.0.0');
    expect(await at('1999-12-31T23:59:59Z')).toBe('1.0.0');
    expect(await versionAt('2100-01-01T00:00:00Z')).toBe('1.0.0');
  });

  it('answers each package name requested, in request order', async () => {
    await upload('upgradeV1');
    const bob = await allocateParty(t, 'Bob');
    const result = await preferred([
      { packageName: UPGRADE, parties: [alice, bob] },
      { packageName: 'sandbox-demo', parties: [bob] },
    ]);
    expect(result.json).toEqual({
      packageReferences: [
        reference(V1),
        { packageId: t.state.demoPackageId, packageName: 'sandbox-demo', packageVersion: '1.0.0' },
      ],
      synchronizerId: t.state.synchronizerId,
    });
  });

  it('drops a package whose required dependency is not vetted', async () => {
    // fixture-replication depends on fixture-stdlib 1.1.0; fixture-definitions brings 1.0.0.
    await upload('replication');
    await upload('definitions');
    const replication = fixtureDar('replication');
    const stdlib11 = replication.packageNamed('fixture-stdlib');
    const both: Requirement[] = [
      { packageName: 'fixture-replication', parties: [alice] },
      { packageName: 'fixture-stdlib', parties: [alice] },
    ];
    const vetted = await preferred(both);
    expect(vetted.status, vetted.text).toBe(200);
    expect(vetted.json.packageReferences).toEqual([
      {
        packageId: replication.main.packageId,
        packageName: 'fixture-replication',
        packageVersion: '1.0.0',
      },
      { packageId: stdlib11.packageId, packageName: 'fixture-stdlib', packageVersion: '1.1.0' },
    ]);

    // fixture-replication still needs it: the participant unvets it only when forced.
    await updateVetting([unvet(stdlib11.packageId)], '', [
      'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
    ]);
    const dropped = expectError(await preferred(both), 400, 'NO_PREFERRED_PACKAGES_FOUND');
    expect(dropped.cause).toContain(
      'Packages with required dependencies not vetted by all interested parties',
    );
    // Without fixture-stdlib among the requirements, its version is no concern.
    const alone = onlyReference(
      await preferred([{ packageName: 'fixture-replication', parties: [alice] }]),
    );
    expect(alone.packageId).toBe(replication.main.packageId);
    // stdlib 1.0.0 alone is still there for anyone who asks for it.
    const stdlib = onlyReference(
      await preferred([{ packageName: 'fixture-stdlib', parties: [alice] }]),
    );
    expect(stdlib.packageVersion).toBe('1.0.0');
  });

  it('refuses parties this participant does not host', async () => {
    await upload('upgradeV1');
    const stranger = `Stranger::1220${'ab'.repeat(32)}`;
    const unknown = expectError(
      await preferred([{ packageName: UPGRADE, parties: [alice, stranger] }]),
      404,
      'UNKNOWN_INFORMEES',
    );
    expect(unknown.cause).toBe(
      'The participant is not connected to any synchronizer where the given informees are known.',
    );
    expect(unknown.context.unknownInformees).toBe(`Set(${stranger})`);
    expect(unknown.context.definite_answer).toBe('false');
    expectError(await version([stranger], UPGRADE), 404, 'UNKNOWN_INFORMEES');
    // Thousands of them make a bounded error body all the same.
    const crowd = Array.from({ length: 2000 }, (_, i) => `S${String(i)}::1220${'ab'.repeat(32)}`);
    const crowded = await preferred([{ packageName: UPGRADE, parties: crowd }]);
    const listed = expectError(crowded, 404, 'UNKNOWN_INFORMEES').context.unknownInformees ?? '';
    expect(listed).toMatch(/^Set\(S0::.*\.\.\.$/);
    expect(listed.length).toBe(1024);
    expect(crowded.text.length).toBeLessThan(4096);
    // Known to the participant, but hosted elsewhere.
    const remote = `Remote::1220${'cd'.repeat(32)}`;
    t.state.parties.save({
      party: remote,
      isLocal: false,
      identityProviderId: '',
      resourceVersion: 0,
      annotations: {},
    });
    expectError(
      await preferred([{ packageName: UPGRADE, parties: [remote] }]),
      404,
      'UNKNOWN_INFORMEES',
    );
  });

  it('refuses package names no stored package has, before looking at parties', async () => {
    const stranger = `Stranger::1220${'ab'.repeat(32)}`;
    const error = expectError(
      await preferred([
        { packageName: 'sandbox-demo', parties: [alice] },
        { packageName: 'nope', parties: [stranger] },
        { packageName: UPGRADE, parties: [alice] },
      ]),
      404,
      'PACKAGE_NAMES_NOT_FOUND',
    );
    expect(error.cause).toBe(
      `The following package names do not match upgradable packages uploaded on this participant: [nope, ${UPGRADE}].`,
    );
    expect(error.errorCategory).toBe(11);
    expectError(await version([alice], 'nope'), 404, 'PACKAGE_NAMES_NOT_FOUND');
  });

  it('validates requirements as the request validator does', async () => {
    const missing = async (body: unknown, fieldName: string) => {
      const result = await t.post('/v2/interactive-submission/preferred-packages', body);
      expect(expectError(result, 400, 'MISSING_FIELD').context.field_name).toBe(fieldName);
    };
    await missing({}, 'package_vetting_requirements/packageVettingRequirements');
    await missing(
      { packageVettingRequirements: [] },
      'package_vetting_requirements/packageVettingRequirements',
    );
    await missing(
      { packageVettingRequirements: [{ parties: [alice] }] },
      'package_name/packageName',
    );
    await missing({ packageVettingRequirements: [{ packageName: UPGRADE }] }, 'parties');
    const badName = expectError(
      await preferred([{ packageName: 'no such!', parties: [alice] }]),
      400,
      'INVALID_FIELD',
    );
    expect(badName.context).toMatchObject({
      field_name: 'package_name/packageName',
      message: 'non expected character 0x20 in Daml-LF Package Name "no such!"',
    });
    const badParty = expectError(
      await preferred([{ packageName: UPGRADE, parties: ['Alice!'] }]),
      400,
      'INVALID_ARGUMENT',
    );
    expect(badParty.cause).toContain('non expected character 0x21 in Daml-LF Party "Alice!"');
    const badSynchronizer = expectError(
      await preferred([{ packageName: UPGRADE, parties: [alice] }], { synchronizerId: 'local' }),
      400,
      'INVALID_FIELD',
    );
    expect(badSynchronizer.context).toMatchObject({
      field_name: 'synchronizer_id/synchronizerId',
      message: 'Invalid unique identifier `local` with missing namespace.',
    });
    expectDecodeFailure(
      await preferred([{ packageName: UPGRADE, parties: [alice] }], { vettingValidAt: 'soon' }),
      "Invalid value for: body (Text 'soon' could not be parsed at 'vettingValidAt')",
    );
  });

  it('decodes the version lookup query as tapir does', async () => {
    const base = '/v2/interactive-submission/preferred-package-version';
    expectDecodeFailure(
      await t.get(`${base}?parties=${alice}`),
      'Invalid value for: query parameter package-name (missing)',
    );
    expectDecodeFailure(
      await t.get(`${base}?parties=${alice}&package-name=a&package-name=b`),
      'Invalid value for: query parameter package-name (multiple values)',
    );
    expectDecodeFailure(
      await version([alice], UPGRADE, { vetting_valid_at: 'tomorrow' }),
      'Invalid value for: query parameter vetting_valid_at',
    );
    const noParties = await t.get(`${base}?package-name=${UPGRADE}`);
    expect(expectError(noParties, 400, 'MISSING_FIELD').context.field_name).toBe('parties');
  });
});

describe('preferred packages across synchronizers', () => {
  let alpha: string;
  let beta: string;
  beforeEach(() => {
    t = createTestSandbox({ synchronizers: ['alpha', 'beta'] });
    [alpha = '', beta = ''] = t.state.synchronizerIds;
  });

  const allocateOn = async (hint: string, synchronizerId: string) => {
    const { json } = await t.post('/v2/parties', { partyIdHint: hint, synchronizerId });
    return json.partyDetails.party as string;
  };

  it('ranks the synchronizers that satisfy every requirement by id, or takes the one asked for', async () => {
    const alice = await allocateOn('Alice', alpha);
    await allocateOn('Alice', beta);
    await upload('upgradeV1', `?synchronizerId=${alpha}`);
    await upload('upgradeV1', `?synchronizerId=${beta}`);
    await upload('upgradeV2', `?synchronizerId=${beta}`);
    const requirement = [{ packageName: UPGRADE, parties: [alice] }];

    // Both satisfy it: the lowest id wins, whatever the versions (Canton's ranking).
    expect(onlyReference(await preferred(requirement))).toEqual({
      ...reference(V1),
      synchronizerId: alpha,
    });
    expect(onlyReference(await preferred(requirement, { synchronizerId: beta }))).toEqual({
      ...reference(V2),
      synchronizerId: beta,
    });
    const onBeta = await version([alice], UPGRADE, { 'synchronizer-id': beta });
    expect(onBeta.json.packagePreference).toEqual({
      packageReference: reference(V2),
      synchronizerId: beta,
    });

    // One that does not satisfy it is passed over.
    await updateVetting([unvet(V1.packageId)], alpha);
    expect(onlyReference(await preferred(requirement))).toEqual({
      ...reference(V2),
      synchronizerId: beta,
    });
    const noneOnAlpha = expectError(
      await preferred(requirement, { synchronizerId: alpha }),
      400,
      'NO_PREFERRED_PACKAGES_FOUND',
    );
    expect(noneOnAlpha.cause).toContain(alpha);
    expect(noneOnAlpha.cause).not.toContain(beta);
  });

  it('considers only the synchronizers hosting every party', async () => {
    const alice = await allocateOn('Alice', alpha);
    await allocateOn('Alice', beta);
    const bob = await allocateOn('Bob', beta);
    const carol = await allocateOn('Carol', alpha);
    await upload('upgradeV1', `?synchronizerId=${alpha}`);
    await upload('upgradeV2', `?synchronizerId=${beta}`);

    // Alice and Bob share beta only, where 1.1.0 alone is vetted.
    expect(
      onlyReference(await preferred([{ packageName: UPGRADE, parties: [alice, bob] }])),
    ).toEqual({ ...reference(V2), synchronizerId: beta });
    const notThere = expectError(
      await preferred([{ packageName: UPGRADE, parties: [alice, bob] }], { synchronizerId: alpha }),
      400,
      'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
    );
    expect(notThere.cause).toBe(
      `Not all informees are on the specified synchronizer: ${alpha}, but on Set(${beta})`,
    );
    const apart = expectError(
      await preferred([
        { packageName: UPGRADE, parties: [bob] },
        { packageName: 'sandbox-demo', parties: [carol] },
      ]),
      400,
      'INFORMEES_NOT_ACTIVE',
    );
    expect(apart.cause).toBe('There is no common synchronizer where all informees are active');
    const elsewhere = `gamma::1220${'ef'.repeat(32)}`;
    const unknown = expectError(
      await preferred([{ packageName: UPGRADE, parties: [alice] }], { synchronizerId: elsewhere }),
      400,
      'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
    );
    expect(unknown.cause).toBe(
      `Cannot submit transaction to prescribed synchronizer \`${elsewhere}\` because: cannot resolve to physical synchronizer; ensure the node is connected to ${elsewhere}`,
    );
  });
});

describe('preferred packages with authorization', () => {
  it('answers any authenticated caller, whatever its rights', async () => {
    t = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    const admin = await hs256Token('participant_admin');
    const { json } = await t.post('/v2/parties', { partyIdHint: 'Alice' }, { token: admin });
    const alice = json.partyDetails.party as string;
    await t.post('/v2/users', { user: { id: 'nobody' }, rights: [] }, { token: admin });
    const token = await hs256Token('nobody');
    const body = {
      packageVettingRequirements: [{ packageName: 'sandbox-demo', parties: [alice] }],
    };
    const path = '/v2/interactive-submission/preferred-packages';
    const answered = await t.post(path, body, { token });
    expect(answered.json.packageReferences).toEqual([
      { packageId: t.state.demoPackageId, packageName: 'sandbox-demo', packageVersion: '1.0.0' },
    ]);
    const versionPath = `/v2/interactive-submission/preferred-package-version?parties=${encodeURIComponent(alice)}&package-name=sandbox-demo`;
    expect((await t.get(versionPath, { token })).status).toBe(200);
    expectError(await t.post(path, body), 401, 'NA');
    expectError(await t.get(versionPath), 401, 'NA');
  });
});
