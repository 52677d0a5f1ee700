import { createHash } from 'node:crypto';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  decodeArchivePayload,
  readArchivePayload,
} from '@ledger-console/participant/daml-lf/decode-package';
import {
  encodeDar,
  templatePackageSpec,
  type TemplateSpec,
} from '@ledger-console/participant/daml-lf/encode-package';
import type { DamlType, Field, PrimType } from '@ledger-console/participant/daml-lf/package-model';
import {
  FIXTURE_DAR_NAMES,
  FIXTURE_DAR_REFUSALS,
  fixtureDar,
  type FixtureDarName,
} from '@ledger-console/participant/testing/fixture-dars';
import {
  createTestSandbox,
  expectDecodeFailure,
  expectError,
  sandboxPerTest,
  type CallResult,
  type TestSandbox,
} from '../testing/test-client';
import { TEST_SECRET, hs256Token } from '../testing/tokens';

// The project's own fixture DARs (fixture-dars.ts); Canton's are checked in the reference suite.
const dar = (name: FixtureDarName) => fixtureDar(name).bytes();
const ALLOW_UNVETTED = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';
const WORKFLOWS = fixtureDar('workflows');
const PING = WORKFLOWS.bytes();
const PING_MAIN = WORKFLOWS.main.packageId;
/** How many packages the workflows DAR holds, its main one included. */
const PING_COUNT = WORKFLOWS.packages.length;

/** The package ids a DAR holds, read from its DALF names rather than from our own decoder. */
function idsInDar(bytes: Uint8Array): string[] {
  const ids: string[] = [];
  unzipSync(bytes, {
    filter: (file) => {
      const match = /-([0-9a-f]{64})\.dalf$/.exec(file.name);
      if (match?.[1]) ids.push(match[1]);
      return false;
    },
  });
  return ids.sort();
}

type VettedPackage = {
  packageId: string;
  validFromInclusive: string | null;
  validUntilExclusive: string | null;
  packageName: string;
  packageVersion: string;
};
type Vetted = {
  packages: VettedPackage[];
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
};
const vettingPage = (result: CallResult) =>
  result.json as { vettedPackages: Vetted[]; nextPageToken: string };
const vettingUpdate = (result: CallResult) =>
  result.json as { pastVettedPackages: Vetted | null; newVettedPackages: Vetted };
/** The one VettedPackages entry the sandbox's single participant and synchronizer can have. */
function onlyVetted(result: CallResult): Vetted {
  const [entry, ...rest] = vettingPage(result).vettedPackages;
  expect(rest).toEqual([]);
  if (!entry) throw new Error(`no VettedPackages in ${result.text}`);
  return entry;
}
const packageIdsOf = (result: CallResult) => (result.json as { packageIds: string[] }).packageIds;
const sortedIds = (ids: readonly string[]) => [...ids].sort();

const t = sandboxPerTest();

const upload = (bytes: Uint8Array, query = '', path = '/v2/dars', token?: string) =>
  t.call('POST', `${path}${query}`, { rawBody: bytes, ...(token === undefined ? {} : { token }) });
const listVetting = (body: unknown = {}, token?: string) =>
  t.post('/v2/package-vetting/list', body, token === undefined ? {} : { token });
const updateVetting = (body: unknown, path = '/v2/package-vetting/update') => t.post(path, body);
const vet = (packageId: string, bounds: Record<string, unknown> = {}) => ({
  operation: { Vet: { value: { packages: [{ packageId }], ...bounds } } },
});
const unvet = (ref: Record<string, string>) => ({
  operation: { Unvet: { value: { packages: [ref] } } },
});

describe('DAR upload and package listing', () => {
  it('stores every package of the DAR under its true id and serves its payload', async () => {
    // Before any upload the participant knows only the built-in package.
    expect((await t.get('/v2/packages')).json).toEqual({ packageIds: [t.state.demoPackageId] });
    const uploaded = await upload(PING);
    expect(uploaded.status).toBe(200);
    expect(uploaded.json).toEqual({});

    const expected = idsInDar(PING);
    expect(expected).toHaveLength(PING_COUNT);
    expect(expected).toEqual(sortedIds(WORKFLOWS.packages.map((p) => p.packageId)));
    expect(expected).toContain(PING_MAIN);
    expect(expected).not.toContain(t.state.demoPackageId);
    // Exactly the DAR's packages were added next to the built-in one.
    expect(sortedIds(packageIdsOf(await t.get('/v2/packages')))).toEqual(
      sortedIds([t.state.demoPackageId, ...expected]),
    );

    const fetched = await t.get(`/v2/packages/${PING_MAIN}`);
    expect(fetched.status).toBe(200);
    expect(fetched.contentType).toBe('application/octet-stream');
    expect(fetched.headers.get('Canton-Package-Hash')).toBe(PING_MAIN);
    // The body is the ArchivePayload the id hashes, not the Archive wrapper or the DAR.
    expect(createHash('sha256').update(fetched.bytes).digest('hex')).toBe(PING_MAIN);
    expect(readArchivePayload(fetched.bytes).lfVersion).toMatchObject({ major: 2 });

    expect((await t.get(`/v2/packages/${PING_MAIN}/status`)).json).toEqual({
      packageStatus: 'PACKAGE_STATUS_REGISTERED',
    });
  });

  it('accepts the same DAR again, also through the older POST /v2/packages', async () => {
    await upload(PING);
    const before = packageIdsOf(await t.get('/v2/packages'));
    // Serial 1 vetted the built-in package at startup, serial 2 the first upload.
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);
    expect((await upload(PING)).json).toEqual({});
    expect((await upload(PING, '', '/v2/packages')).json).toEqual({});
    expect(packageIdsOf(await t.get('/v2/packages'))).toEqual(before);
    // Nothing new to vet, so no new topology transaction either.
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);
  });

  it('answers PACKAGE_NOT_FOUND, INVALID_ARGUMENT and UNSPECIFIED for unknown or bad ids', async () => {
    const unknown = 'a'.repeat(64);
    const missing = expectError(await t.get(`/v2/packages/${unknown}`), 404, 'PACKAGE_NOT_FOUND');
    expect(missing.cause).toBe('Could not find package.');
    expect(missing.resources).toEqual([['PACKAGE', unknown]]);
    expect(missing.context.definite_answer).toBe('false');

    const bad = expectError(await t.get('/v2/packages/not!valid'), 400, 'INVALID_ARGUMENT');
    expect(bad.cause).toBe(
      'The submitted request has invalid arguments: Invalid package id: non expected character 0x21 in Daml-LF Package ID "not!valid"',
    );
    expectError(await t.get(`/v2/packages/${'a'.repeat(65)}/status`), 400, 'INVALID_ARGUMENT');

    expect((await t.get(`/v2/packages/${unknown}/status`)).json).toEqual({
      packageStatus: 'PACKAGE_STATUS_UNSPECIFIED',
    });
  });

  it('rejects broken DARs with the code Canton uses', async () => {
    const empty = expectError(await upload(new Uint8Array()), 400, 'INVALID_DAR');
    expect(empty.cause).toBe('Dar file is corrupt');
    expect(empty.errorCategory).toBe(8);

    const garbage = new TextEncoder().encode('this is not a zip file at all');
    expectError(await upload(garbage), 400, 'INVALID_DAR');

    const illformed = expectError(await upload(dar('illformed')), 400, 'DAR_VALIDATION_ERROR');
    expect(illformed.cause).toBe('Package validation failed.');
    expect(illformed.context.validationError).toContain('Mod:x is declared as Bool');

    const lf1 = expectError(await upload(dar('lf1')), 400, 'ALLOWED_LANGUAGE_VERSIONS');
    expect(lf1.cause).toMatch(
      /^Disallowed language version in package [0-9a-f]{64}: .* but got 1\.15$/,
    );

    // A zip whose DALF is not an Archive.
    const manifest = 'Manifest-Version: 1.0\nMain-Dalf: a.dalf\nDalfs: a.dalf\nFormat: daml-lf\n\n';
    const corrupt = zipSync({
      'META-INF/MANIFEST.MF': strToU8(manifest),
      'a.dalf': strToU8('nope'),
    });
    const parse = expectError(await upload(corrupt), 400, 'DAR_PARSE_ERROR');
    expect(parse.cause).toBe('Failed to parse the dar file content.');

    const listed = zipSync({
      'META-INF/MANIFEST.MF': strToU8(manifest.replace('Dalfs: a.dalf', 'Dalfs: a.dalf, b.dalf')),
      'a.dalf': strToU8('nope'),
    });
    expect(expectError(await upload(listed), 400, 'INVALID_ZIP_ENTRY').context.name).toBe('b.dalf');

    // None of the broken DARs stored anything: only the built-in package is there.
    expect(packageIdsOf(await t.get('/v2/packages'))).toEqual([t.state.demoPackageId]);
  });

  it('decodes the query like tapir and refuses unknown synchronizers', async () => {
    expectDecodeFailure(
      await upload(PING, '?vetAllPackages=yes'),
      'Invalid value for: query parameter vetAllPackages',
    );
    const elsewhere = expectError(
      await upload(PING, '?synchronizerId=other::1220ab'),
      400,
      'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER',
    );
    expect(elsewhere.errorCategory).toBe(9);
    expect(
      (await upload(PING, `?synchronizerId=${encodeURIComponent(t.state.synchronizerId)}`)).status,
    ).toBe(200);
  });

  it('validates without persisting or vetting anything', async () => {
    const packagesBefore = (await t.get('/v2/packages')).json;
    const vettingBefore = await listVetting();
    expect(packagesBefore).toEqual({ packageIds: [t.state.demoPackageId] });
    expect(onlyVetted(vettingBefore).topologySerial).toBe(1);
    expect(onlyVetted(vettingBefore).packages.map((p) => p.packageId)).toEqual([
      t.state.demoPackageId,
    ]);

    const validated = await t.call('POST', '/v2/dars/validate', { rawBody: PING });
    expect(validated.status).toBe(200);
    expect(validated.text).toBe('');
    expect((await t.get('/v2/packages')).json).toEqual(packagesBefore);
    expect((await listVetting()).json).toEqual(vettingBefore.json);
    expectError(
      await t.call('POST', '/v2/dars/validate', { rawBody: dar('illformed') }),
      400,
      'DAR_VALIDATION_ERROR',
    );
    expectError(
      await t.call('POST', '/v2/dars/validate', { rawBody: new Uint8Array() }),
      400,
      'INVALID_DAR',
    );
  });
});

describe('package vetting', () => {
  it('lists the uploaded packages as vetted on the one synchronizer, with filters', async () => {
    await upload(PING);
    const all = await listVetting();
    expect(vettingPage(all).nextPageToken).toBe('');
    expect(vettingPage(all).vettedPackages).toHaveLength(1);
    const entry = onlyVetted(all);
    expect(entry).toMatchObject({
      participantId: t.state.participantId,
      synchronizerId: t.state.synchronizerId,
      // The built-in package's vetting at startup was serial 1; the upload is one more.
      topologySerial: 2,
    });
    // The built-in package stays vetted next to exactly the DAR's packages.
    expect(sortedIds(entry.packages.map((p) => p.packageId))).toEqual(
      sortedIds([t.state.demoPackageId, ...idsInDar(PING)]),
    );
    expect(entry.packages.find((p) => p.packageId === PING_MAIN)).toEqual({
      packageId: PING_MAIN,
      validFromInclusive: null,
      validUntilExclusive: null,
      packageName: 'fixture-workflows',
      packageVersion: '1.0.0',
    });
    const names = entry.packages.map((p) => p.packageName);
    expect(names).toEqual([...names].sort());

    const byPrefix = await listVetting({
      packageMetadataFilter: { packageNamePrefixes: ['fixture-work'] },
    });
    expect(onlyVetted(byPrefix).packages.map((p) => p.packageId)).toEqual([PING_MAIN]);
    const byIdOrPrefix = await listVetting({
      packageMetadataFilter: { packageIds: [PING_MAIN], packageNamePrefixes: ['fixture-prim-'] },
    });
    // The main package by id, and its two fixture-prim-* dependencies by name.
    expect(onlyVetted(byIdOrPrefix).packages).toHaveLength(3);
    const elsewhere = await listVetting({
      topologyStateFilter: { synchronizerIds: ['x::1220ab'] },
    });
    expect(vettingPage(elsewhere).vettedPackages).toEqual([]);
    const here = await listVetting({
      topologyStateFilter: { participantIds: [t.state.participantId] },
    });
    expect(vettingPage(here).vettedPackages).toHaveLength(1);
    const unknown = await listVetting({ packageMetadataFilter: { packageIds: ['f'.repeat(64)] } });
    expect(vettingPage(unknown).vettedPackages).toEqual([]);
  });

  it('pages by synchronizer and participant, at most 100 per page', async () => {
    await upload(PING);
    const first = await listVetting({ pageSize: 1 });
    expect(vettingPage(first).vettedPackages).toHaveLength(1);
    expect(vettingPage(first).nextPageToken).toBe('');
    expect((await listVetting({ pageSize: 100 })).status).toBe(200);
    expectError(await listVetting({ pageSize: 101 }), 400, 'INVALID_ARGUMENT');
    expectError(await listVetting({ pageSize: -1 }), 400, 'INVALID_ARGUMENT');
    expectError(await listVetting({ pageToken: 'garbage!' }), 400, 'INVALID_ARGUMENT');
    expectDecodeFailure(
      await listVetting({ pageSize: 'ten' }),
      `Invalid value for: body (Got value '"ten"' with wrong type, expecting Int at 'pageSize')`,
    );
  });

  it('leaves packages unvetted with vetAllPackages=false', async () => {
    await upload(PING, '?vetAllPackages=false');
    expect(sortedIds(packageIdsOf(await t.get('/v2/packages')))).toEqual(
      sortedIds([t.state.demoPackageId, ...idsInDar(PING)]),
    );
    // Vetting is still just the built-in package's, with no new topology transaction.
    const vetted = onlyVetted(await listVetting());
    expect(vetted.topologySerial).toBe(1);
    expect(vetted.packages.map((p) => p.packageId)).toEqual([t.state.demoPackageId]);
    // Its dependencies are stored but not vetted: Canton's VettingIT expects a refusal.
    const alone = expectError(
      await updateVetting({ changes: [vet(PING_MAIN)], dryRun: true }),
      400,
      'TOPOLOGY_DEPENDENCIES_NOT_VETTED',
    );
    expect(alone.cause).toBe('Package vetting failed due to dependencies not being vetted');
    const first = await updateVetting({
      changes: [vet(PING_MAIN)],
      expectedTopologySerial: { serial: { Prior: { value: 1 } } },
      updateVettedPackagesForceFlags: [ALLOW_UNVETTED],
    });
    expect(first.status).toBe(200);
    expect(vettingUpdate(first).pastVettedPackages?.topologySerial).toBe(1);
    expect(vettingUpdate(first).pastVettedPackages?.packages.map((p) => p.packageId)).toEqual([
      t.state.demoPackageId,
    ]);
    expect(vettingUpdate(first).newVettedPackages.topologySerial).toBe(2);
    expect(
      sortedIds(vettingUpdate(first).newVettedPackages.packages.map((p) => p.packageId)),
    ).toEqual(sortedIds([t.state.demoPackageId, PING_MAIN]));
  });

  it('refuses to unvet a dependency of a vetted package unless forced', async () => {
    await upload(PING);
    const dependency = WORKFLOWS.packages.find((pkg) => pkg.packageId !== PING_MAIN);
    if (!dependency) throw new Error('the workflows DAR has dependencies');
    const change = { changes: [unvet({ packageId: dependency.packageId })] };
    for (const dryRun of [true, false]) {
      const refused = expectError(
        await updateVetting({ ...change, dryRun }),
        400,
        'TOPOLOGY_DEPENDENCIES_NOT_VETTED',
      );
      expect(refused.context).toMatchObject({ unvetted: `Set(${dependency.packageId})` });
    }
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);
    const forced = await updateVetting({
      ...change,
      updateVettedPackagesForceFlags: [ALLOW_UNVETTED],
    });
    expect(forced.status, forced.text).toBe(200);
    expect(onlyVetted(await listVetting()).packages.map((p) => p.packageId)).not.toContain(
      dependency.packageId,
    );
    // Unvetting the package that needed it, with it, breaks nothing.
    const both = await updateVetting({ changes: [unvet({ packageId: PING_MAIN })] });
    expect(both.status, both.text).toBe(200);
  });

  it('unvets and vets with serial checks and dry runs', async () => {
    await upload(PING);
    // Serial 1 vetted the built-in package at startup, serial 2 the upload.
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);
    const dry = await updateVetting({
      changes: [unvet({ packageName: 'fixture-workflows' })],
      dryRun: true,
      expectedTopologySerial: { serial: { Prior: { value: 2 } } },
    });
    expect(dry.status).toBe(200);
    expect(vettingUpdate(dry).pastVettedPackages?.topologySerial).toBe(2);
    // The built-in package plus the DAR's, then minus the one unvetted by name.
    expect(vettingUpdate(dry).pastVettedPackages?.packages).toHaveLength(1 + PING_COUNT);
    expect(vettingUpdate(dry).newVettedPackages.topologySerial).toBe(3);
    const dryIds = vettingUpdate(dry).newVettedPackages.packages.map((p) => p.packageId);
    expect(dryIds).toHaveLength(PING_COUNT);
    expect(dryIds).not.toContain(PING_MAIN);
    expect(dryIds).toContain(t.state.demoPackageId);
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);

    const stale = await updateVetting({
      changes: [unvet({ packageId: PING_MAIN })],
      expectedTopologySerial: { serial: { Prior: { value: 7 } } },
    });
    const mismatch = expectError(stale, 400, 'TOPOLOGY_SERIAL_MISMATCH');
    expect(mismatch.errorCategory).toBe(9);
    expect(mismatch.cause).toBe(
      'The provided serial Some(7) did not match the expected serial Some(2).',
    );
    expectError(
      await updateVetting({
        changes: [unvet({ packageId: PING_MAIN })],
        expectedTopologySerial: { serial: { NoPrior: {} } },
      }),
      400,
      'TOPOLOGY_SERIAL_MISMATCH',
    );

    const unvetted = await updateVetting({
      changes: [unvet({ packageId: PING_MAIN })],
      expectedTopologySerial: { serial: { Prior: { value: 2 } } },
    });
    expect(vettingUpdate(unvetted).newVettedPackages.topologySerial).toBe(3);
    const ids = onlyVetted(await listVetting()).packages.map((p) => p.packageId);
    expect(ids).not.toContain(PING_MAIN);
    expect(onlyVetted(await listVetting()).topologySerial).toBe(3);

    // The deprecated path behaves the same; bounds come back as Java prints instants.
    const bounded = await updateVetting(
      {
        changes: [
          vet(PING_MAIN, {
            newValidFromInclusive: '2025-01-01T10:00:00.120Z',
            newValidUntilExclusive: '2026-01-01T00:00:00+01:00',
          }),
        ],
        expectedTopologySerial: { serial: { Prior: { value: 3 } } },
      },
      '/v2/package-vetting',
    );
    expect(vettingUpdate(bounded).newVettedPackages.topologySerial).toBe(4);
    const main = vettingUpdate(bounded).newVettedPackages.packages.find(
      (p) => p.packageId === PING_MAIN,
    );
    expect(main).toMatchObject({
      validFromInclusive: '2025-01-01T10:00:00.120Z',
      validUntilExclusive: '2025-12-31T23:00:00Z',
    });

    // Setting the same bounds again is no change, so no new serial.
    const again = await updateVetting({
      changes: [
        vet(PING_MAIN, {
          newValidFromInclusive: '2025-01-01T10:00:00.12Z',
          newValidUntilExclusive: '2025-12-31T23:00:00Z',
        }),
      ],
    });
    expect(vettingUpdate(again).newVettedPackages.topologySerial).toBe(4);
  });

  it('rejects unresolved, ambiguous and malformed changes', async () => {
    await upload(PING);
    const serialBefore = onlyVetted(await listVetting()).topologySerial;
    expect(serialBefore).toBe(2);
    const ghost = expectError(
      await updateVetting({ changes: [vet('b'.repeat(64))] }),
      404,
      'UNRESOLVED_VETTING_REFERENCE',
    );
    expect(ghost.cause).toContain('does not match any package in the package store');
    const versionOnly = {
      operation: { Vet: { value: { packages: [{ packageVersion: '1.0.0' }] } } },
    };
    const noIdOrName = expectError(
      await updateVetting({ changes: [versionOnly] }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(noIdOrName.cause).toContain('package_id or package_name');
    // Two uploads of different fixture-stdlib versions make a name-only reference ambiguous.
    await upload(dar('replication'), '?vetAllPackages=false');
    const twoStdlibs = await updateVetting({
      changes: [
        { operation: { Vet: { value: { packages: [{ packageName: 'fixture-stdlib' }] } } } },
      ],
    });
    expectError(twoStdlibs, 400, 'AMBIGUOUS_VETTING_REFERENCE');
    expectError(await updateVetting({ changes: [] }), 400, 'MISSING_FIELD');
    expectError(await updateVetting({ changes: [{}] }), 400, 'MISSING_FIELD');
    const backwards = await updateVetting({
      changes: [
        vet(PING_MAIN, {
          newValidFromInclusive: '2026-01-01T00:00:00Z',
          newValidUntilExclusive: '2025-01-01T00:00:00Z',
        }),
      ],
    });
    expectError(backwards, 400, 'INVALID_ARGUMENT');
    const badTime = await updateVetting({
      changes: [vet(PING_MAIN, { newValidFromInclusive: 'tomorrow' })],
    });
    expect(badTime.status).toBe(400);
    expect(badTime.contentType).toContain('text/plain');
    expectError(
      await updateVetting({ changes: [vet(PING_MAIN)], synchronizerId: 'other::1220ab' }),
      400,
      'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER',
    );
    // Nothing of the failed requests took effect.
    expect(onlyVetted(await listVetting()).topologySerial).toBe(serialBefore);
  });

  it('answers the deprecated GET listing as for an empty request', async () => {
    await upload(PING);
    const listed = await t.get('/v2/package-vetting');
    expect(listed.status).toBe(200);
    // The built-in package and the DAR's, exactly as POST /list answers `{}`.
    expect(onlyVetted(listed).packages).toHaveLength(1 + PING_COUNT);
    expect(listed.json).toEqual((await listVetting()).json);
  });
});

describe('package vetting with two synchronizers', () => {
  let two: TestSandbox;
  let alpha = '';
  let beta = '';
  beforeEach(() => {
    two = createTestSandbox({ synchronizers: ['alpha', 'beta'] });
    [alpha = '', beta = ''] = two.state.synchronizerIds;
  });
  afterEach(() => {
    two.close();
  });
  const uploadTo = (bytes: Uint8Array, query = '', path = '/v2/dars') =>
    two.call('POST', `${path}${query}`, { rawBody: bytes });
  const list = async (body: unknown = {}) =>
    vettingPage(await two.post('/v2/package-vetting/list', body));
  const idsOn = async (synchronizerId: string) => {
    const [entry, ...rest] = (
      await list({ topologyStateFilter: { synchronizerIds: [synchronizerId] } })
    ).vettedPackages;
    expect(rest).toEqual([]);
    return sortedIds(entry?.packages.map((p) => p.packageId) ?? []);
  };

  it('vets the built-in package on every synchronizer, one entry each in id order', async () => {
    const { vettedPackages, nextPageToken } = await list();
    expect(nextPageToken).toBe('');
    expect(vettedPackages.map((entry) => [entry.synchronizerId, entry.topologySerial])).toEqual([
      [alpha, 1],
      [beta, 1],
    ]);
    for (const entry of vettedPackages) {
      expect(entry.participantId).toBe(two.state.participantId);
      expect(entry.packages.map((p) => p.packageId)).toEqual([two.state.demoPackageId]);
    }
    // Paged one synchronizer at a time, in the same order.
    const first = await list({ pageSize: 1 });
    expect(first.vettedPackages.map((entry) => entry.synchronizerId)).toEqual([alpha]);
    expect(first.nextPageToken).not.toBe('');
    const second = await list({ pageSize: 1, pageToken: first.nextPageToken });
    expect(second.vettedPackages.map((entry) => entry.synchronizerId)).toEqual([beta]);
    expect(second.nextPageToken).toBe('');
  });

  it('uploads vet on the named synchronizer only, and cannot pick one by themselves', async () => {
    const ambiguous = expectError(
      await uploadTo(PING),
      400,
      'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
    );
    expect(ambiguous.errorCategory).toBe(9);
    expect(ambiguous.cause).toBe(
      `Cannot autodetect synchronizer: currently connected synchronizers ${alpha}, ${beta}`,
    );
    // The synchronizer is picked before the DAR is read, and nothing was stored.
    expectError(
      await uploadTo(new Uint8Array(0)),
      400,
      'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
    );
    expect(packageIdsOf(await two.get('/v2/packages'))).toEqual([two.state.demoPackageId]);
    expectError(
      await uploadTo(PING, '?synchronizerId=gamma::1220ab'),
      400,
      'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER',
    );

    expect((await uploadTo(PING, `?synchronizerId=${encodeURIComponent(beta)}`)).status).toBe(200);
    expect(await idsOn(alpha)).toEqual([two.state.demoPackageId]);
    expect(await idsOn(beta)).toEqual(sortedIds([two.state.demoPackageId, ...idsInDar(PING)]));
    const serials = (await list()).vettedPackages.map((entry) => entry.topologySerial);
    expect(serials).toEqual([1, 2]);
  });

  it('stores without vetting when vetAllPackages=false, whatever the synchronizer', async () => {
    expect((await uploadTo(PING, '?vetAllPackages=false')).status).toBe(200);
    expect(
      (await uploadTo(PING, '?vetAllPackages=false&synchronizerId=gamma::1220ab')).status,
    ).toBe(200);
    expect(sortedIds(packageIdsOf(await two.get('/v2/packages')))).toEqual(
      sortedIds([two.state.demoPackageId, ...idsInDar(PING)]),
    );
    expect(await idsOn(alpha)).toEqual([two.state.demoPackageId]);
    expect(await idsOn(beta)).toEqual([two.state.demoPackageId]);
  });

  it('validates against a named synchronizer only', async () => {
    expectError(
      await uploadTo(PING, '', '/v2/dars/validate'),
      400,
      'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
    );
    const valid = await uploadTo(
      PING,
      `?synchronizerId=${encodeURIComponent(alpha)}`,
      '/v2/dars/validate',
    );
    expect(valid.status).toBe(200);
  });

  it('updates the vetting of the named synchronizer; none named is an error', async () => {
    await uploadTo(PING, `?synchronizerId=${encodeURIComponent(alpha)}`);
    expectError(
      await two.post('/v2/package-vetting/update', { changes: [vet(PING_MAIN)] }),
      400,
      'PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER',
    );
    expectError(
      await two.post('/v2/package-vetting/update', {
        changes: [vet(PING_MAIN)],
        synchronizerId: 'gamma::1220ab',
      }),
      400,
      'PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER',
    );
    const onBeta = await two.post('/v2/package-vetting/update', {
      changes: [vet(PING_MAIN)],
      synchronizerId: beta,
      expectedTopologySerial: { serial: { Prior: { value: 1 } } },
      updateVettedPackagesForceFlags: [ALLOW_UNVETTED],
    });
    expect(onBeta.status, onBeta.text).toBe(200);
    expect(vettingUpdate(onBeta).pastVettedPackages).toMatchObject({
      synchronizerId: beta,
      topologySerial: 1,
    });
    expect(vettingUpdate(onBeta).newVettedPackages).toMatchObject({
      synchronizerId: beta,
      topologySerial: 2,
    });
    expect(await idsOn(beta)).toEqual(sortedIds([two.state.demoPackageId, PING_MAIN]));
    // Unvetting on alpha leaves beta alone.
    const offAlpha = await two.post('/v2/package-vetting/update', {
      changes: [unvet({ packageId: PING_MAIN })],
      synchronizerId: alpha,
    });
    expect(offAlpha.status, offAlpha.text).toBe(200);
    expect(await idsOn(alpha)).not.toContain(PING_MAIN);
    expect(await idsOn(beta)).toContain(PING_MAIN);
  });
});

// ── Smart-contract upgrade checks ──

const lf = (name: PrimType, ...args: DamlType[]): DamlType => ({ kind: 'prim', prim: name, args });
const lfField = (name: string, type: DamlType): Field => ({ name, type });
const ASSET_FIELDS = [lfField('owner', lf('PARTY')), lfField('amount', lf('INT64'))];
const NOTE: TemplateSpec = { name: 'Note', fields: [lfField('author', lf('PARTY'))] };
/** Version `version` of package `upgrade-demo`: template Asset (with a choice), maybe Note. */
const demoVersion = (version: string, assetFields: Field[], templates: TemplateSpec[] = [NOTE]) =>
  templatePackageSpec({
    name: 'upgrade-demo',
    version,
    templates: [
      {
        name: 'Asset',
        fields: assetFields,
        choices: [
          {
            name: 'Transfer',
            argFields: [lfField('newOwner', lf('PARTY'))],
            returnType: lf('CONTRACT_ID', {
              kind: 'con',
              tycon: { packageId: '', module: 'Main', name: 'Asset' },
              args: [],
            }),
          },
        ],
      },
      ...templates,
    ],
  });
const V1 = demoVersion('1.0.0', ASSET_FIELDS);
/** Appends an Optional field: a valid upgrade. */
const V2 = demoVersion('2.0.0', [...ASSET_FIELDS, lfField('memo', lf('OPTIONAL', lf('TEXT')))]);
/** Drops Asset's `amount`. */
const V2_NO_FIELD = demoVersion('2.0.0', [lfField('owner', lf('PARTY'))]);
/** Drops the template Note. */
const V2_NO_TEMPLATE = demoVersion('2.0.0', ASSET_FIELDS, []);

const label = (packageId: string, version: string) => `${packageId} (upgrade-demo v${version})`;
const vettedIds = async () => onlyVetted(await listVetting()).packages.map((p) => p.packageId);
const validate = (bytes: Uint8Array) => t.call('POST', '/v2/dars/validate', { rawBody: bytes });

describe('upgrade checks', () => {
  it('vets a valid upgrade and refuses DARs that drop a field or a template', async () => {
    const v1 = await encodeDar([V1]);
    const v2 = await encodeDar([V2]);
    const noField = await encodeDar([V2_NO_FIELD]);
    const noTemplate = await encodeDar([V2_NO_TEMPLATE]);
    const [v1Id = '', v2Id = '', noFieldId = '', noTemplateId = ''] = [
      ...v1.packageIds,
      ...v2.packageIds,
      ...noField.packageIds,
      ...noTemplate.packageIds,
    ];
    expect((await upload(v1.bytes)).status).toBe(200);

    const dropped = expectError(await upload(noField.bytes), 400, 'NOT_VALID_UPGRADE_PACKAGE');
    expect(dropped.errorCategory).toBe(8);
    expect(dropped.grpcCodeValue).toBe(3);
    expect(dropped.cause).toBe(
      `Upgrade checks indicate that ${label(noFieldId, '2.0.0')} cannot be an upgrade of ${label(v1Id, '1.0.0')}. Reason: The upgraded template Asset is missing some of its original fields.`,
    );
    expect(dropped.context).toMatchObject({
      oldPackage: label(v1Id, '1.0.0'),
      newPackage: label(noFieldId, '2.0.0'),
      upgradeError: 'The upgraded template Asset is missing some of its original fields.',
    });
    const gone = expectError(await upload(noTemplate.bytes), 400, 'NOT_VALID_UPGRADE_PACKAGE');
    expect(gone.cause).toContain(
      'Reason: Template Note appears in package that is being upgraded, but does not appear in the upgrading package.',
    );
    // Stored first, then refused at vetting: the packages stay, unvetted, and no topology
    // transaction happened (serial 2 is the upload of v1).
    const stored = packageIdsOf(await t.get('/v2/packages'));
    expect(stored).toEqual(expect.arrayContaining([noFieldId, noTemplateId]));
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);
    expect(sortedIds(await vettedIds())).toEqual(sortedIds([t.state.demoPackageId, v1Id]));

    // The valid upgrade is vetted next to v1; the unvetted packages of the same version are not
    // part of the lineage.
    expect((await upload(v2.bytes)).status).toBe(200);
    expect(sortedIds(await vettedIds())).toEqual(sortedIds([t.state.demoPackageId, v1Id, v2Id]));
    // And a v1 again is accepted: every package of it is vetted already.
    expect((await upload(v1.bytes)).status).toBe(200);
  });

  it('checks the DAR against the vetted packages on /v2/dars/validate, storing nothing', async () => {
    const v1 = await encodeDar([V1]);
    const [v1Id = ''] = v1.packageIds;
    expect((await upload(v1.bytes)).status).toBe(200);
    const before = packageIdsOf(await t.get('/v2/packages'));

    const valid = await validate((await encodeDar([V2])).bytes);
    expect(valid.status).toBe(200);
    expect(valid.text).toBe('');
    const noField = await encodeDar([V2_NO_FIELD]);
    const dropped = expectError(await validate(noField.bytes), 400, 'NOT_VALID_UPGRADE_PACKAGE');
    expect(dropped.cause).toBe(
      `Upgrade checks indicate that ${label(noField.packageIds[0] ?? '', '2.0.0')} cannot be an upgrade of ${label(v1Id, '1.0.0')}. Reason: The upgraded template Asset is missing some of its original fields.`,
    );
    const gone = expectError(
      await validate((await encodeDar([V2_NO_TEMPLATE])).bytes),
      400,
      'NOT_VALID_UPGRADE_PACKAGE',
    );
    expect(gone.cause).toMatch(/Reason: Template Note appears in package that is being upgraded/);
    // Another package with v1's name and version.
    const twin = await encodeDar([demoVersion('1.0.0', ASSET_FIELDS, [])]);
    const [twinId = ''] = twin.packageIds;
    const known = expectError(await validate(twin.bytes), 400, 'KNOWN_PACKAGE_VERSION');
    const [first, second] = [twinId, v1Id].sort();
    expect(known.cause).toBe(
      `Tried to vet two packages with the same name and version: ${label(first ?? '', '1.0.0')} and ${label(second ?? '', '1.0.0')}.`,
    );
    expect(known.context).toMatchObject({
      firstPackage: label(first ?? '', '1.0.0'),
      secondPackage: label(second ?? '', '1.0.0'),
    });
    expect(known.errorCategory).toBe(8);

    expect(packageIdsOf(await t.get('/v2/packages'))).toEqual(before);
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);
  });

  it('stores incompatible packages with vetAllPackages=false; vetting them needs the force flag', async () => {
    const v1 = await encodeDar([V1]);
    const noField = await encodeDar([V2_NO_FIELD]);
    const [v1Id = ''] = v1.packageIds;
    const [noFieldId = ''] = noField.packageIds;
    await upload(v1.bytes);
    expect((await upload(noField.bytes, '?vetAllPackages=false')).status).toBe(200);
    expect(packageIdsOf(await t.get('/v2/packages'))).toContain(noFieldId);

    for (const dryRun of [true, false]) {
      const refused = expectError(
        await updateVetting({ changes: [vet(noFieldId)], dryRun }),
        400,
        'NOT_VALID_UPGRADE_PACKAGE',
      );
      expect(refused.cause).toBe(
        `Upgrade checks indicate that ${label(noFieldId, '2.0.0')} cannot be an upgrade of ${label(v1Id, '1.0.0')}. Reason: The upgraded template Asset is missing some of its original fields.`,
      );
    }
    expect(onlyVetted(await listVetting()).topologySerial).toBe(2);
    // Re-vetting what is vetted already (new bounds) checks nothing new.
    const bounds = await updateVetting({
      changes: [vet(v1Id, { newValidFromInclusive: '2030-01-01T00:00:00Z' })],
    });
    expect(bounds.status, bounds.text).toBe(200);

    const forced = await updateVetting({
      changes: [vet(noFieldId)],
      updateVettedPackagesForceFlags: [
        'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
      ],
    });
    expect(forced.status, forced.text).toBe(200);
    expect(await vettedIds()).toContain(noFieldId);

    // A second 2.0.0 now meets the forced one: same name and version.
    const v2 = await encodeDar([V2]);
    const [v2Id = ''] = v2.packageIds;
    const twin = expectError(await upload(v2.bytes), 400, 'KNOWN_PACKAGE_VERSION');
    const [first = '', second = ''] = [v2Id, noFieldId].sort();
    expect(twin.cause).toBe(
      `Tried to vet two packages with the same name and version: ${label(first, '2.0.0')} and ${label(second, '2.0.0')}.`,
    );
  });

  it('lets every fixture DAR but the refused ones and the incompatible upgrade into one participant', async () => {
    // They share their prim packages (same ids) and bring two fixture-stdlib versions, the later
    // a valid upgrade of the earlier; upgrade-demo 1.1.0 is a valid upgrade of 1.0.0.
    const fixtures = FIXTURE_DAR_NAMES.filter(
      (name) => !(name in FIXTURE_DAR_REFUSALS) && name !== 'upgradeIncompatible',
    );
    expect(fixtures.length).toBeGreaterThanOrEqual(6);
    for (const name of fixtures) {
      const response = await upload(dar(name));
      expect(response.status, `${name}: ${response.text}`).toBe(200);
    }
    for (const name of fixtures) {
      const check = await validate(dar(name));
      expect(check.status, `${name}: ${check.text}`).toBe(200);
    }
    const refused = expectError(
      await validate(dar('upgradeIncompatible')),
      400,
      'NOT_VALID_UPGRADE_PACKAGE',
    );
    expect(refused.cause).toContain(
      'The upgraded template Asset is missing some of its original fields.',
    );
  });
});

describe('package authorization', () => {
  it('lets any user read packages and vetting, and only admins change them', async () => {
    const jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    try {
      const admin = await hs256Token('participant_admin');
      await jwt.post('/v2/users', { user: { id: 'reader' } }, { token: admin });
      const reader = await hs256Token('reader');
      const as = (token: string) => ({ rawBody: PING, token });

      expectError(await jwt.call('POST', '/v2/dars', as(reader)), 403, 'NA');
      expectError(await jwt.call('POST', '/v2/packages', as(reader)), 403, 'NA');
      expectError(await jwt.call('POST', '/v2/dars/validate', as(reader)), 403, 'NA');
      expectError(await jwt.call('POST', '/v2/dars', { rawBody: PING }), 401, 'NA');
      expect((await jwt.call('POST', '/v2/dars', as(admin))).status).toBe(200);

      expect(sortedIds(packageIdsOf(await jwt.get('/v2/packages', { token: reader })))).toEqual(
        sortedIds([jwt.state.demoPackageId, ...idsInDar(PING)]),
      );
      expect((await jwt.get(`/v2/packages/${PING_MAIN}`, { token: reader })).status).toBe(200);
      expect((await jwt.get(`/v2/packages/${PING_MAIN}/status`, { token: reader })).status).toBe(
        200,
      );
      expect((await jwt.post('/v2/package-vetting/list', {}, { token: reader })).status).toBe(200);
      expectError(await jwt.get('/v2/packages'), 401, 'NA');

      const change = { changes: [unvet({ packageId: PING_MAIN })] };
      expectError(
        await jwt.post('/v2/package-vetting/update', change, { token: reader }),
        403,
        'NA',
      );
      expectError(await jwt.post('/v2/package-vetting', change, { token: reader }), 403, 'NA');
      expect((await jwt.post('/v2/package-vetting/update', change, { token: admin })).status).toBe(
        200,
      );
    } finally {
      jwt.close();
    }
  });
});

describe('the built-in sandbox-demo package', () => {
  it('is listed from startup', async () => {
    expect(t.state.demoPackageId).toMatch(/^[0-9a-f]{64}$/);
    expect(packageIdsOf(await t.get('/v2/packages'))).toContain(t.state.demoPackageId);
  });

  it('serves a real Daml-LF 2.1 payload whose sha256 is its id', async () => {
    const id = t.state.demoPackageId;
    const fetched = await t.get(`/v2/packages/${id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.contentType).toBe('application/octet-stream');
    expect(fetched.headers.get('Canton-Package-Hash')).toBe(id);
    expect(createHash('sha256').update(fetched.bytes).digest('hex')).toBe(id);

    const decoded = decodeArchivePayload(fetched.bytes, id);
    expect(decoded).toMatchObject({
      packageId: id,
      name: 'sandbox-demo',
      version: '1.0.0',
      lfVersion: { major: 2, minor: '1' },
    });
    expect(decoded.modules.map((m) => m.name).sort()).toEqual([
      'Demo.Account',
      'Demo.Fanout',
      'Demo.Holding',
      'Demo.Iou',
      'Demo.Template',
    ]);
    const templateIn = (module: string, name: string) =>
      decoded.modules.find((m) => m.name === module)?.templates.find((tpl) => tpl.name === name);
    const iou = templateIn('Demo.Iou', 'Iou');
    expect(iou?.tycon).toEqual({ packageId: id, module: 'Demo.Iou', name: 'Iou' });
    expect(iou?.choices.map((choice) => choice.name).sort()).toEqual(
      ['Iou_Transfer', 'Iou_Split', 'Iou_Merge', 'Iou_AddObserver', 'Archive'].sort(),
    );
    expect(iou?.keyType).toBeUndefined();
    expect(iou?.implements).toEqual([{ packageId: id, module: 'Demo.Holding', name: 'Holding' }]);
    const holding = decoded.modules.find((m) => m.name === 'Demo.Holding')?.interfaces[0];
    expect(holding?.name).toBe('Holding');
    expect(holding?.viewType).toEqual({
      kind: 'con',
      tycon: { packageId: id, module: 'Demo.Holding', name: 'HoldingView' },
      args: [],
    });
    expect(holding?.choices.map((choice) => [choice.name, choice.consuming])).toEqual([
      ['Holding_Transfer', true],
      ['Holding_GetView', false],
      ['Archive', true],
    ]);
    const account = templateIn('Demo.Account', 'Account');
    expect(account).toBeDefined();
    expect(account?.keyType).toBeDefined();
  });

  it('is registered and vetted on the one synchronizer', async () => {
    const id = t.state.demoPackageId;
    expect((await t.get(`/v2/packages/${id}/status`)).json).toEqual({
      packageStatus: 'PACKAGE_STATUS_REGISTERED',
    });
    const builtIn = {
      packageId: id,
      validFromInclusive: null,
      validUntilExclusive: null,
      packageName: 'sandbox-demo',
      packageVersion: '1.0.0',
    };
    const all = onlyVetted(await listVetting());
    expect(all).toEqual({
      packages: [builtIn],
      participantId: t.state.participantId,
      synchronizerId: t.state.synchronizerId,
      topologySerial: 1,
    });
    // Still found by the package filters after an upload added more.
    await upload(PING);
    const byPrefix = await listVetting({
      packageMetadataFilter: { packageNamePrefixes: ['sandbox-'] },
    });
    expect(onlyVetted(byPrefix).packages).toEqual([builtIn]);
    const byId = await listVetting({ packageMetadataFilter: { packageIds: [id] } });
    expect(onlyVetted(byId).packages).toEqual([builtIn]);
  });
});

describe('every fixture DAR', () => {
  it.each(FIXTURE_DAR_NAMES)(
    '%s uploads with its true package ids, or is refused',
    async (name) => {
      const sandbox = createTestSandbox();
      try {
        const bytes = dar(name);
        const response = await sandbox.call('POST', '/v2/dars', { rawBody: bytes });
        const refusal = FIXTURE_DAR_REFUSALS[name];
        const builtIn = [sandbox.state.demoPackageId];
        if (refusal) {
          expectError(response, 400, refusal);
          expect(packageIdsOf(await sandbox.get('/v2/packages'))).toEqual(builtIn);
          return;
        }
        expect(response.status, response.text).toBe(200);
        const expected = idsInDar(bytes);
        expect(expected).toEqual(sortedIds(fixtureDar(name).packages.map((p) => p.packageId)));
        expect(sortedIds(packageIdsOf(await sandbox.get('/v2/packages')))).toEqual(
          sortedIds([...builtIn, ...expected]),
        );
        for (const id of expected) {
          const served = await sandbox.get(`/v2/packages/${id}`);
          expect(createHash('sha256').update(served.bytes).digest('hex')).toBe(id);
        }
      } finally {
        sandbox.close();
      }
    },
  );
});
