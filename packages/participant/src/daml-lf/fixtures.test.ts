import { describe, expect, it } from 'vitest';
import {
  FIXTURE_DAR_NAMES,
  FIXTURE_DAR_REFUSALS,
  fixtureDar,
  type FixtureDarName,
} from '../testing/fixture-dars';
import { substituteTypeVars } from './find-data-type';
import { formatType } from './format-type';
import type { DamlType } from './package-model';
import {
  checkPingAsShown,
  expectDarOutcome,
  expectGenericRecords,
  type DarOutcome,
} from '../testing/dar-checks';
import { readDar } from './read-dar';

/**
 * Every generated fixture DAR (fixture-dars.ts), decoded the way the console's Web Worker decodes
 * an upload: each must have an expected outcome here, so a fixture added later without one fails
 * instead of being skipped. read-dar.test.ts checks the decoder's details (hashes, manifest, every
 * type); this file checks what the console shows of each DAR. fixtures.reference.test.ts does the
 * same for Canton's DARs.
 */
const fixture = (name: FixtureDarName) => fixtureDar(name).bytes();

type Expected = DarOutcome;

const main = (name: string, version = '1.0.0') => ({ main: { name, version, lf: '2.1' } });
const EXPECTED: Record<FixtureDarName, Expected> = {
  workflows: main('fixture-workflows'),
  replication: main('fixture-replication'),
  definitions: main('fixture-definitions'),
  upgradeV1: main('upgrade-demo'),
  upgradeV2: main('upgrade-demo', '1.1.0'),
  upgradeIncompatible: main('upgrade-demo', '2.0.0'),
  large: main('fixture-large'),
  lf1: { rejected: 'UNSUPPORTED_LF_VERSION', message: /Daml-LF 1\.15/ },
  illformed: {
    rejected: 'VALIDATION_FAILED',
    message:
      /^fixture-illformed-1\.0\.0-[0-9a-f]{64}\.dalf: Type checking failed: Mod:x is declared as Bool but defined as \(\)$/,
  },
};

const fixtures = FIXTURE_DAR_NAMES;

describe('every fixture DAR', () => {
  it('has an expected outcome, a refusal exactly where the participant refuses it', () => {
    expect([...fixtures].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(fixtures.filter((name) => 'rejected' in EXPECTED[name]).sort()).toEqual(
      Object.keys(FIXTURE_DAR_REFUSALS).sort(),
    );
  });

  it.each(fixtures)('%s decodes, or is rejected with a clear reason', async (name) => {
    const expected = EXPECTED[name];
    await expectDarOutcome(fixture(name), expected);
  });
});

describe('the workflows DAR, as the package page shows it', () => {
  checkPingAsShown(() => fixture('workflows'), 'Fixture.Ping');
});

describe('the definitions DAR: generic records', () => {
  it('substitutes the type arguments into a parameterised record’s fields', async () => {
    expectGenericRecords(await readDar(fixture('definitions')), 'fixture-definitions-dep');
  });
});

describe('substituteTypeVars', () => {
  const a: DamlType = { kind: 'var', name: 'a', args: [] };
  const int: DamlType = { kind: 'prim', prim: 'INT64', args: [] };
  const list = (t: DamlType): DamlType => ({ kind: 'prim', prim: 'LIST', args: [t] });

  it('replaces bound variables everywhere but under a forall that binds them again', () => {
    const bindings = new Map([['a', int]]);
    expect(formatType(substituteTypeVars(list(a), bindings))).toBe('List Int64');
    expect(
      formatType(
        substituteTypeVars({ kind: 'struct', fields: [{ name: 'x', type: a }] }, bindings),
      ),
    ).toBe('<x: Int64>');
    expect(
      formatType(substituteTypeVars({ kind: 'forall', vars: ['a'], body: list(a) }, bindings)),
    ).toBe('forall a. List a');
  });

  it('applies a bound type to the arguments of an applied variable', () => {
    const f: DamlType = { kind: 'var', name: 'f', args: [int] };
    const optional: DamlType = { kind: 'prim', prim: 'OPTIONAL', args: [] };
    expect(formatType(substituteTypeVars(f, new Map([['f', optional]])))).toBe('Optional Int64');
  });
});
