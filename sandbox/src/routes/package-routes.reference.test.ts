import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { referenceDir, referencePath } from '@ledger-console/participant/testing/reference-dir';
import { createTestSandbox, expectError, type TestSandbox } from '../testing/test-client';

/**
 * The package endpoints against the Canton team's own DARs (in $CANTON_REFERENCE_DIR): what the
 * default suite checks with the project's generated DARs must hold for real `damlc` output too.
 */
const darsDir = () => referencePath('fixtures', 'dars');
const dar = (name: string) => new Uint8Array(readFileSync(referencePath('fixtures', 'dars', name)));
const PING = 'canton-builtin-admin-workflow-ping.dar';
const PING_MAIN = 'de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54';
const PARTY_REPLICATION = 'canton-builtin-admin-workflow-party-replication-alpha.dar';
/** The two DARs a participant refuses, with the code it answers. */
const REJECTED: Record<string, string> = {
  'illformed.dar': 'DAR_VALIDATION_ERROR',
  'dummy-1.15.dar': 'ALLOWED_LANGUAGE_VERSIONS',
};

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
const sortedIds = (ids: readonly string[]) => [...ids].sort();
const packageIdsOf = (json: unknown) => (json as { packageIds: string[] }).packageIds;
type Vetted = { packages: { packageId: string; packageName: string; packageVersion: string }[] };
const onlyVetted = (json: unknown): Vetted => {
  const [entry, ...rest] = (json as { vettedPackages: Vetted[] }).vettedPackages;
  expect(rest).toEqual([]);
  if (!entry) throw new Error('no VettedPackages');
  return entry;
};

describe.skipIf(!referenceDir())("package endpoints with Canton's DARs", () => {
  let t: TestSandbox;
  beforeEach(() => {
    t = createTestSandbox();
  });
  afterEach(() => {
    t.close();
  });
  const upload = (bytes: Uint8Array, query = '') =>
    t.call('POST', `/v2/dars${query}`, { rawBody: bytes });
  const listVetting = async (body: unknown = {}) =>
    (await t.post('/v2/package-vetting/list', body)).json;

  it('stores the ping DAR’s 30 packages under their true ids and vets them by name', async () => {
    const bytes = dar(PING);
    expect((await upload(bytes)).status).toBe(200);
    const expected = idsInDar(bytes);
    expect(expected).toHaveLength(30);
    expect(expected).toContain(PING_MAIN);
    expect(sortedIds(packageIdsOf((await t.get('/v2/packages')).json))).toEqual(
      sortedIds([t.state.demoPackageId, ...expected]),
    );
    const fetched = await t.get(`/v2/packages/${PING_MAIN}`);
    expect(createHash('sha256').update(fetched.bytes).digest('hex')).toBe(PING_MAIN);
    expect(onlyVetted(await listVetting()).packages.find((p) => p.packageId === PING_MAIN)).toEqual(
      {
        packageId: PING_MAIN,
        validFromInclusive: null,
        validUntilExclusive: null,
        packageName: 'canton-builtin-admin-workflow-ping',
        packageVersion: '3.4.0',
      },
    );
    const byIdOrPrefix = await listVetting({
      packageMetadataFilter: { packageIds: [PING_MAIN], packageNamePrefixes: ['daml-prim-GHC-'] },
    });
    expect(onlyVetted(byIdOrPrefix).packages).toHaveLength(4);
  });

  it('finds a name-only vetting reference ambiguous across two daml-stdlib versions', async () => {
    await upload(dar(PING));
    await upload(dar(PARTY_REPLICATION), '?vetAllPackages=false');
    const twoStdlibs = await t.post('/v2/package-vetting/update', {
      changes: [{ operation: { Vet: { value: { packages: [{ packageName: 'daml-stdlib' }] } } } }],
    });
    expectError(twoStdlibs, 400, 'AMBIGUOUS_VETTING_REFERENCE');
  });

  it('refuses illformed.dar and the LF 1.15 DAR with the codes Canton uses', async () => {
    const illformed = expectError(await upload(dar('illformed.dar')), 400, 'DAR_VALIDATION_ERROR');
    expect(illformed.context.validationError).toContain('Mod:x is declared as Bool');
    const lf1 = expectError(await upload(dar('dummy-1.15.dar')), 400, 'ALLOWED_LANGUAGE_VERSIONS');
    expect(lf1.cause).toMatch(
      /^Disallowed language version in package [0-9a-f]{64}: .* but got 1\.15$/,
    );
  });

  it('lets every valid Canton DAR be uploaded into one participant, and validated again', async () => {
    // The ping and party-replication DARs share their stdlib packages (same ids), and
    // DamlDefinitionsServiceMain brings another daml-prim 0.0.0: a utility package, exempt.
    const names = readdirSync(darsDir()).filter(
      (name) => name.endsWith('.dar') && !(name in REJECTED),
    );
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const name of names) {
      const response = await upload(dar(name));
      expect(response.status, `${name}: ${response.text}`).toBe(200);
    }
    for (const name of names) {
      const check = await t.call('POST', '/v2/dars/validate', { rawBody: dar(name) });
      expect(check.status, `${name}: ${check.text}`).toBe(200);
    }
  });

  it('uploads each Canton DAR alone with its true package ids, or refuses it', async () => {
    const names = readdirSync(darsDir()).filter((name) => name.endsWith('.dar'));
    expect(names.length).toBeGreaterThanOrEqual(5);
    for (const name of names) {
      const sandbox = createTestSandbox();
      try {
        const bytes = dar(name);
        const response = await sandbox.call('POST', '/v2/dars', { rawBody: bytes });
        const builtIn = [sandbox.state.demoPackageId];
        const refusal = REJECTED[name];
        if (refusal) {
          expectError(response, 400, refusal);
          expect(packageIdsOf((await sandbox.get('/v2/packages')).json)).toEqual(builtIn);
          continue;
        }
        expect(response.status, `${name}: ${response.text}`).toBe(200);
        const expected = idsInDar(bytes);
        expect(sortedIds(packageIdsOf((await sandbox.get('/v2/packages')).json))).toEqual(
          sortedIds([...builtIn, ...expected]),
        );
        for (const id of expected) {
          const served = await sandbox.get(`/v2/packages/${id}`);
          expect(createHash('sha256').update(served.bytes).digest('hex')).toBe(id);
        }
      } finally {
        sandbox.close();
      }
    }
  });
});
