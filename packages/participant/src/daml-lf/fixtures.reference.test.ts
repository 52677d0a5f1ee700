import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { referenceDir, referencePath } from '../testing/reference-dir';
import {
  checkPingAsShown,
  expectDarOutcome,
  expectGenericRecords,
  type DarOutcome,
} from '../testing/dar-checks';
import { readDar } from './read-dar';

/**
 * Every DAR of Canton's in $CANTON_REFERENCE_DIR, decoded the way the console's Web Worker decodes
 * an upload: each must have an expected outcome here, so a DAR added later without one fails
 * instead of being skipped. fixtures.test.ts checks the same on the project's generated DARs.
 */
const dir = referenceDir();
const fixture = (name: string) =>
  new Uint8Array(readFileSync(referencePath('fixtures', 'dars', name)));

type Expected = DarOutcome;

const EXPECTED: Record<string, Expected> = {
  'canton-builtin-admin-workflow-ping.dar': {
    main: { name: 'canton-builtin-admin-workflow-ping', version: '3.4.0', lf: '2.2' },
  },
  'canton-builtin-admin-workflow-party-replication-alpha.dar': {
    main: {
      name: 'canton-builtin-admin-workflow-party-replication-alpha',
      version: '3.5.0',
      lf: '2.2',
    },
  },
  'DamlDefinitionsServiceMain.dar': {
    main: { name: 'DamlDefinitionsServiceMain', version: '3.4.0', lf: '2.dev' },
  },
  'dummy-1.15.dar': {
    rejected: 'UNSUPPORTED_LF_VERSION',
    message: /Daml-LF 1\.15/,
  },
  'illformed.dar': {
    rejected: 'VALIDATION_FAILED',
    message: /^archive\.dalf: Type checking failed: Mod:x is declared as Bool but defined as \(\)$/,
  },
};

/** By name, so that the skipped checks are counted when no folder is given. */
const fixtures = Object.keys(EXPECTED);

describe.skipIf(!dir)('every Canton DAR', () => {
  it('has an expected outcome', () => {
    const present = readdirSync(referencePath('fixtures', 'dars')).filter((name) =>
      name.endsWith('.dar'),
    );
    expect(present.sort()).toEqual([...fixtures].sort());
  });

  it.each(fixtures)('%s decodes, or is rejected with a clear reason', async (name) => {
    const expected = EXPECTED[name];
    if (!expected) throw new Error(`no expectation for ${name}`);
    await expectDarOutcome(fixture(name), expected);
  });
});

describe.skipIf(!dir)('the ping DAR, as the package page shows it', () => {
  checkPingAsShown(() => fixture('canton-builtin-admin-workflow-ping.dar'), 'Canton.Internal.Ping');
});

describe.skipIf(!dir)('DamlDefinitionsServiceMain.dar: generic records', () => {
  it('substitutes the type arguments into a parameterised record’s fields', async () => {
    expectGenericRecords(
      await readDar(fixture('DamlDefinitionsServiceMain.dar')),
      'DamlDefinitionsServiceDep',
    );
  });
});
