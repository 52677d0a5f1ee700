import { unzipSync } from 'fflate';
import { beforeAll, expect, it } from 'vitest';
import { DarError, type DarErrorReason } from '../daml-lf/dar-error';
import { decodeArchive } from '../daml-lf/decode-archive';
import { packageSummary, toPackageSummary } from '../daml-lf/decode-package';
import { findDataType, recordFieldsOf } from '../daml-lf/find-data-type';
import { formatType } from '../daml-lf/format-type';
import type { DamlType, DecodedPackage, Template } from '../daml-lf/package-model';
import { readDar, type Dar } from '../daml-lf/read-dar';

/**
 * Checks the decoder's tests run on either DAR set: the project's generated DARs (fixture-dars.ts)
 * in the default suite, Canton's own in the reference suite (*.reference.test.ts), so that both
 * sets are held to exactly the same expectations.
 */

export async function expectDarError(
  promise: Promise<unknown>,
  reason: DarErrorReason,
): Promise<DarError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DarError);
  expect((error as DarError).reason, (error as DarError).message).toBe(reason);
  return error as DarError;
}

export function findModule(pkg: DecodedPackage, name: string) {
  const module = pkg.modules.find((m) => m.name === name);
  if (!module) throw new Error(`${pkg.name} has no module ${name}`);
  return module;
}

/** Each template of a module with its sorted choices, non-consuming ones marked. */
export function choicesByTemplate(pkg: DecodedPackage, moduleName: string) {
  return Object.fromEntries(
    findModule(pkg, moduleName).templates.map((t) => [
      t.name,
      t.choices.map((c) => `${c.name}${c.consuming ? '' : ' (nonconsuming)'}`).sort(),
    ]),
  );
}

export function findTemplate(pkg: DecodedPackage, moduleName: string, name: string): Template {
  const template = findModule(pkg, moduleName).templates.find((t) => t.name === name);
  if (!template) throw new Error(`${moduleName} has no template ${name}`);
  return template;
}

export const showFields = (fields: readonly { name: string; type: DamlType }[] | undefined) =>
  fields?.map((field) => `${field.name}: ${formatType(field.type)}`);

/** Every package id a type mentions. */
function referencedPackages(type: DamlType, into: Set<string>): void {
  switch (type.kind) {
    case 'con':
      into.add(type.tycon.packageId);
      break;
    case 'syn':
      into.add(type.tysyn.packageId);
      break;
    case 'forall':
      referencedPackages(type.body, into);
      return;
    case 'struct':
      for (const field of type.fields) referencedPackages(field.type, into);
      return;
    case 'nat':
      return;
    default:
  }
  for (const arg of type.args) referencedPackages(arg, into);
}

/**
 * Registers, inside the caller's `describe`, the checks every valid DAR passes: ids and hashes,
 * LF 2 only, closed type references, summaries. Returns the decoded DAR for the caller's own.
 */
export function checkValidDar(bytes: () => Uint8Array): () => Dar {
  let dar: Dar;
  beforeAll(async () => {
    dar = await readDar(bytes());
  });

  it('gives every package the id in its DALF file name, with a verified hash', async () => {
    expect(dar.packages[0]).toBe(dar.main);
    expect(dar.main.dalfName).toBe(dar.manifest.mainDalf);
    for (const pkg of dar.packages) {
      const fromName = /-([0-9a-f]{64})\.dalf$/.exec(pkg.dalfName)?.[1];
      expect(pkg.packageId, pkg.dalfName).toBe(fromName);
      const archive = await decodeArchive(
        unzipSync(bytes(), { filter: (f) => f.name === pkg.dalfName })[pkg.dalfName] ??
          new Uint8Array(),
      );
      expect(archive).toMatchObject({
        packageId: pkg.packageId,
        computedHash: pkg.packageId,
        hashMatches: true,
      });
    }
    expect(new Set(dar.packages.map((p) => p.dalfName)).size).toBe(dar.packages.length);
    expect([...dar.manifest.dalfs].sort()).toEqual(dar.packages.map((p) => p.dalfName).sort());
  });

  it('decodes only LF 2 packages with a name and version', () => {
    for (const pkg of dar.packages) {
      expect(pkg.lfVersion.major).toBe(2);
      expect(pkg.name).not.toBe('');
      expect(pkg.version).toMatch(/^\d+(\.\d+)*$/);
    }
  });

  it('resolves every type reference to a package in the DAR', () => {
    const ids = new Set(dar.packages.map((p) => p.packageId));
    const referenced = new Set<string>();
    for (const pkg of dar.packages) {
      for (const module of pkg.modules) {
        for (const dataType of module.dataTypes) {
          const types =
            dataType.kind === 'record' || dataType.kind === 'variant'
              ? dataType.kind === 'record'
                ? dataType.fields
                : dataType.constructors
              : [];
          for (const { type } of types) referencedPackages(type, referenced);
        }
        for (const template of module.templates) {
          for (const choice of template.choices) {
            referencedPackages(choice.argType, referenced);
            referencedPackages(choice.returnType, referenced);
          }
        }
      }
    }
    expect(referenced.size).toBeGreaterThan(0);
    // Types of the package itself and of other packages of the DAR, none of another DAR.
    for (const id of referenced) expect(ids, id).toContain(id);
  });

  it('summarises each package from its payload exactly as from the decoded package', () => {
    for (const pkg of dar.packages) {
      expect(packageSummary(pkg.payload, pkg.packageId)).toEqual(toPackageSummary(pkg));
    }
  });

  return () => dar;
}

/** What becomes of a DAR the console decodes: its main package, or the refusal. */
export type DarOutcome =
  | { main: { name: string; version: string; lf: string } }
  | { rejected: DarErrorReason; message: RegExp };

export async function expectDarOutcome(bytes: Uint8Array, expected: DarOutcome): Promise<void> {
  if ('main' in expected) {
    const dar = await readDar(bytes);
    const { major, minor } = dar.main.lfVersion;
    expect({
      name: dar.main.name,
      version: dar.main.version,
      lf: `${String(major)}.${minor}`,
    }).toEqual(expected.main);
    return;
  }
  const error = await readDar(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DarError)) throw new Error(`expected a DarError, got ${String(error)}`);
  expect(error.reason).toBe(expected.rejected);
  expect(error.message).toMatch(expected.message);
}

/**
 * The choices of the Ping template (module `pingModule`) as the package page shows them. Canton's
 * ping DAR and the workflows fixture both have it; Archive's argument record is in another
 * package of the DAR, found by its id.
 */
export function expectPingChoicesAsShown(dar: Dar, pingModule: string): void {
  const ping = findTemplate(dar.main, pingModule, 'Ping');
  expect(
    ping.choices.map((choice) => ({
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
      argument: `${pingModule}:Respond`,
      fields: [],
      returns: 'Unit',
    },
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
      argument: `${pingModule}:AbortPing`,
      fields: ['anyone: Party'],
      returns: 'Unit',
    },
  ]);
}

/**
 * The checks of Canton's DamlDefinitionsService DARs, which the definitions fixture copies:
 * builtin types, references into the dependency package `depName`, keys, interfaces.
 */
export function checkDefinitionsDar(bytes: () => Uint8Array, depName: string): void {
  let dar: Dar;
  let dep: DecodedPackage;
  beforeAll(async () => {
    dar = await readDar(bytes());
    const found = dar.packages.find((p) => p.name === depName);
    if (!found) throw new Error('the dependency package is in the DAR');
    dep = found;
  });

  it('decodes every builtin field type of AllBuiltinTypesTemplate', () => {
    const template = findTemplate(dar.main, 'MainApp', 'AllBuiltinTypesTemplate');
    expect(template.fields.map((f) => `${f.name}: ${formatType(f.type)}`)).toEqual([
      'someParty: Party',
      'someInt: Int64',
      'someDecimal: Numeric 10',
      'someNumeric7: Numeric 7',
      'someText: Text',
      'someBool: Bool',
      'someDate: Date',
      'someTime: Timestamp',
      'relTime: DA.Time.Types:RelTime',
    ]);
  });

  it('resolves references into the dependency package by id', () => {
    const template = findTemplate(dar.main, 'MainApp', 'MainTemplate');
    const field = (name: string) => template.fields.find((f) => f.name === name)?.type;
    expect(field('externalRecord')).toEqual({
      kind: 'con',
      tycon: { packageId: dep.packageId, module: 'ExternalDep', name: 'SomeVariant' },
      args: [],
    });
    const someMap = field('someMap');
    expect(someMap && formatType(someMap)).toBe('GenMap Text ExternalDep:AnotherRecord');
  });

  it('decodes keys, nonconsuming choices and interface instances', () => {
    const foo = findTemplate(dep, 'ExternalDep', 'TemplateFoo');
    expect(foo.keyType && formatType(foo.keyType)).toBe('Party');
    expect(foo.choices.map((c) => [c.name, c.consuming])).toEqual([
      ['Archive', true],
      ['TemplateFoo_NoArgs_RetUnit', false],
      ['SourceTemplate_Args_RetRecord', true],
    ]);
    const bar = findTemplate(dep, 'ExternalDep', 'TemplateBar');
    expect(bar.keyType && formatType(bar.keyType)).toBe(
      'DA.Types:Tuple2 Party (ExternalDep:SomeParamRecord Int64)',
    );
    expect(bar.implements).toEqual([
      { packageId: dep.packageId, module: 'ExternalDep', name: 'MyInterface' },
    ]);
  });

  it('decodes the interface, its view and its choices', () => {
    const [iface] = findModule(dep, 'ExternalDep').interfaces;
    expect(iface?.name).toBe('MyInterface');
    expect(iface?.viewType && formatType(iface.viewType)).toBe('ExternalDep:MyInterfaceViewType');
    expect(iface?.choices.map((c) => [c.name, c.consuming, formatType(c.returnType)])).toEqual([
      ['MyNonConsumingChoice', false, 'Int64'],
      ['MyChoice', true, 'DA.Types:Tuple2 (ContractId ExternalDep:MyInterface) Int64'],
      ['Archive', true, 'Unit'],
    ]);
    const dataType = findModule(dep, 'ExternalDep').dataTypes.find((d) => d.name === 'MyInterface');
    expect(dataType?.kind).toBe('interface');
  });
}

/** A parameterised record of the definitions DAR's dependency `depName`, as the composer shows it. */
export function expectGenericRecords(dar: Dar, depName: string): void {
  const dep = dar.packages.find((pkg) => pkg.name === depName);
  if (!dep) throw new Error('the dependency package is in the DAR');
  const foo = findTemplate(dep, 'ExternalDep', 'TemplateFoo');
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
}

function tyconOf(type: DamlType) {
  if (type.kind !== 'con') throw new Error(`not a type constructor: ${formatType(type)}`);
  return type.tycon;
}

/**
 * The Ping template of a ping-workflow DAR (Canton's admin workflow, or the fixture shaped like it):
 * its fields, its three consuming choices, and choice arguments a form can be built from, with
 * `Archive` resolved into the DAR's template package by id.
 */
export function checkPingModule(
  loadDar: () => Dar,
  { module, templatePackage }: { module: string; templatePackage: string },
): void {
  it('decodes template Ping with its fields and its three consuming choices', () => {
    const dar = loadDar();
    const ping = findTemplate(dar.main, module, 'Ping');
    expect(ping.tycon).toEqual({ packageId: dar.main.packageId, module, name: 'Ping' });
    expect(showFields(ping.fields)).toEqual(['id: Text', 'initiator: Party', 'responder: Party']);
    expect(ping.keyType).toBeUndefined();
    expect(ping.implements).toEqual([]);
    expect(
      ping.choices.map((c) => [
        c.name,
        c.consuming,
        formatType(c.argType),
        formatType(c.returnType),
      ]),
    ).toEqual([
      ['Respond', true, `${module}:Respond`, 'Unit'],
      ['Archive', true, 'DA.Internal.Template:Archive', 'Unit'],
      ['AbortPing', true, `${module}:AbortPing`, 'Unit'],
    ]);
  });

  it('gives choice arguments as records a form can be built from', () => {
    const dar = loadDar();
    const ping = findModule(dar.main, module);
    const record = (name: string) => ping.dataTypes.find((d) => d.name === name);
    expect(record('Respond')).toMatchObject({ kind: 'record', fields: [], serializable: true });
    expect(record('AbortPing')).toMatchObject({
      kind: 'record',
      fields: [{ name: 'anyone', type: { kind: 'prim', prim: 'PARTY', args: [] } }],
    });
    // Archive lives in another package of the DAR, resolved by id.
    const archive = findTemplate(dar.main, module, 'Ping').choices.find(
      (c) => c.name === 'Archive',
    );
    const archivePackage = dar.packages.find((p) => p.name === templatePackage);
    expect(archivePackage).toBeDefined();
    expect(archive?.argType).toEqual({
      kind: 'con',
      tycon: {
        packageId: archivePackage?.packageId,
        module: 'DA.Internal.Template',
        name: 'Archive',
      },
      args: [],
    });
  });
}

/** A ping-workflow DAR as the package page shows it: the Ping template, its choices, and the
 * record lookups that need the DAR's other packages. */
export function checkPingAsShown(bytes: () => Uint8Array, pingModule: string): void {
  let dar: Dar;
  const ping = () => findTemplate(dar.main, pingModule, 'Ping');
  beforeAll(async () => {
    dar = await readDar(bytes());
  });

  it(`has template Ping in module ${pingModule}`, () => {
    expect(dar.main.modules.map((module) => module.name)).toContain(pingModule);
    expect(showFields(ping().fields)).toEqual(['id: Text', 'initiator: Party', 'responder: Party']);
  });

  it('gives each choice of Ping its consuming flag and argument fields', () => {
    expectPingChoicesAsShown(dar, pingModule);
  });

  it('cannot resolve a record from a package it was not given', () => {
    const archive = ping().choices.find((choice) => choice.name === 'Archive');
    if (!archive) throw new Error('Ping has an Archive choice');
    expect(recordFieldsOf([dar.main], archive.argType)).toBeUndefined();
    expect(recordFieldsOf(dar.packages, archive.argType)).toEqual([]);
  });
}

/**
 * Reads a DAR five times and prints the timings (a figure for the closing notes, not a limit:
 * targets live in bench/); resolves with the package count so callers can check what was read.
 */
export async function reportReadTime(name: string, bytes: Uint8Array): Promise<number> {
  const timings: number[] = [];
  let packages = 0;
  for (let run = 0; run < 5; run++) {
    const start = performance.now();
    packages = (await readDar(bytes)).packages.length;
    timings.push(performance.now() - start);
  }
  const [first, ...rest] = timings.map((ms) => ms.toFixed(1));
  console.log(
    `readDar(${name}, ${(bytes.byteLength / 1024).toFixed(0)} KiB, ${String(packages)} packages): ` +
      `first run ${String(first)} ms, then ${rest.join(' / ')} ms`,
  );
  return packages;
}
