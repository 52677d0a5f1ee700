import { beforeAll, describe, expect, it } from 'vitest';
import {
  FIXTURE_DAR_NAMES,
  FIXTURE_DAR_REFUSALS,
  fixtureDar,
  type FixtureDarName,
} from '../testing/fixture-dars';
import { DarError, type DarErrorReason } from './dar-error';
import { findDataType, recordFieldsOf, substituteTypeVars } from './find-data-type';
import { formatType } from './format-type';
import type { DamlType, DecodedPackage, Template } from './package-model';
import { readDar, type Dar } from './read-dar';

/**
 * Every generated fixture DAR (fixture-dars.ts), decoded the way the console's Web Worker decodes
 * an upload: each must have an expected outcome here, so a fixture added later without one fails
 * instead of being skipped. read-dar.test.ts checks the decoder's details (hashes, manifest, every
 * type); this file checks what the console shows of each DAR. fixtures.reference.test.ts does the
 * same for Canton's DARs.
 */
const fixture = (name: FixtureDarName) => fixtureDar(name).bytes();

type Expected =
  | { main: { name: string; version: string; lf: string } }
  | { rejected: DarErrorReason; message: RegExp };

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

async function rejection(bytes: Uint8Array): Promise<DarError> {
  const error = await readDar(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DarError)) throw new Error(`expected a DarError, got ${String(error)}`);
  return error;
}

function template(pkg: DecodedPackage, moduleName: string, name: string): Template {
  const found = pkg.modules
    .find((module) => module.name === moduleName)
    ?.templates.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`${pkg.name} has no template ${moduleName}:${name}`);
  return found;
}

const showFields = (fields: readonly { name: string; type: DamlType }[] | undefined) =>
  fields?.map((field) => `${field.name}: ${formatType(field.type)}`);

describe('every fixture DAR', () => {
  it('has an expected outcome, a refusal exactly where the participant refuses it', () => {
    expect([...fixtures].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(fixtures.filter((name) => 'rejected' in EXPECTED[name]).sort()).toEqual(
      Object.keys(FIXTURE_DAR_REFUSALS).sort(),
    );
  });

  it.each(fixtures)('%s decodes, or is rejected with a clear reason', async (name) => {
    const expected = EXPECTED[name];
    if ('main' in expected) {
      const dar = await readDar(fixture(name));
      const { major, minor } = dar.main.lfVersion;
      expect({
        name: dar.main.name,
        version: dar.main.version,
        lf: `${String(major)}.${minor}`,
      }).toEqual(expected.main);
      return;
    }
    const error = await rejection(fixture(name));
    expect(error.reason).toBe(expected.rejected);
    expect(error.message).toMatch(expected.message);
  });
});

describe('the workflows DAR, as the package page shows it', () => {
  let dar: Dar;
  const ping = () => template(dar.main, 'Fixture.Ping', 'Ping');
  beforeAll(async () => {
    dar = await readDar(fixture('workflows'));
  });

  it('has template Ping in module Fixture.Ping', () => {
    expect(dar.main.modules.map((module) => module.name)).toContain('Fixture.Ping');
    expect(showFields(ping().fields)).toEqual(['id: Text', 'initiator: Party', 'responder: Party']);
  });

  it('gives each choice of Ping its consuming flag and argument fields', () => {
    expect(
      ping().choices.map((choice) => ({
        name: choice.name,
        consuming: choice.consuming,
        argument: formatType(choice.argType),
        fields: showFields(recordFieldsOf(dar.packages, choice.argType)),
        returns: formatType(choice.returnType),
      })),
    ).toEqual([
      {
        name: 'Respond',
        consuming: true,
        argument: 'Fixture.Ping:Respond',
        fields: [],
        returns: 'Unit',
      },
      // Archive's argument record is in another package of the DAR, found by its id.
      {
        name: 'Archive',
        consuming: true,
        argument: 'DA.Internal.Template:Archive',
        fields: [],
        returns: 'Unit',
      },
      {
        name: 'AbortPing',
        consuming: true,
        argument: 'Fixture.Ping:AbortPing',
        fields: ['anyone: Party'],
        returns: 'Unit',
      },
    ]);
  });

  it('cannot resolve a record from a package it was not given', () => {
    const archive = ping().choices.find((choice) => choice.name === 'Archive');
    if (!archive) throw new Error('Ping has an Archive choice');
    expect(recordFieldsOf([dar.main], archive.argType)).toBeUndefined();
    expect(recordFieldsOf(dar.packages, archive.argType)).toEqual([]);
  });
});

describe('the definitions DAR: generic records', () => {
  it('substitutes the type arguments into a parameterised record’s fields', async () => {
    const dar = await readDar(fixture('definitions'));
    const dep = dar.packages.find((pkg) => pkg.name === 'fixture-definitions-dep');
    if (!dep) throw new Error('the dependency package is in the DAR');
    const foo = template(dep, 'ExternalDep', 'TemplateFoo');
    const choice = foo.choices.find((c) => c.name === 'SourceTemplate_Args_RetRecord');
    if (!choice) throw new Error('TemplateFoo has SourceTemplate_Args_RetRecord');
    expect(choice.consuming).toBe(true);
    const [choiceArg] = recordFieldsOf(dar.packages, choice.argType) ?? [];
    expect(choiceArg && formatType(choiceArg.type)).toBe('ExternalDep:SomeParamRecord Timestamp');
    // SomeParamRecord a = { foo: a }, applied to Timestamp.
    expect(showFields(choiceArg && recordFieldsOf(dar.packages, choiceArg.type))).toEqual([
      'foo: Timestamp',
    ]);
    const param = foo.fields.find((field) => field.name === 'someRecordTyped');
    expect(showFields(param && recordFieldsOf(dar.packages, param.type))).toEqual([
      'foo: ExternalDep:SomeVariant',
    ]);
    // Not records: a variant, and a type that is no constructor at all.
    const variant = foo.fields.find((field) => field.name === 'someRecordField');
    expect(variant && findDataType(dar.packages, tyconOf(variant.type))?.kind).toBe('variant');
    expect(variant && recordFieldsOf(dar.packages, variant.type)).toBeUndefined();
    expect(recordFieldsOf(dar.packages, { kind: 'prim', prim: 'PARTY', args: [] })).toBeUndefined();
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

function tyconOf(type: DamlType) {
  if (type.kind !== 'con') throw new Error(`not a type constructor: ${formatType(type)}`);
  return type.tycon;
}
