import { describe, expect, it } from 'vitest';
import { encodeDar, templatePackageSpec } from './encode-package';
import type {
  DamlType,
  DataType,
  DecodedPackage,
  Field,
  Module,
  PrimType,
  Template,
  TypeConName,
} from './package-model';
import { readDar } from './read-dar';
import {
  checkUpgrades,
  describePackage,
  isUtilityPackage,
  upgradeProblem,
  type UpgradePackageInfo,
  type UpgradePackageSource,
} from './upgrade-check';

// ── A tiny package model, built by hand ──────────────────────────────────────────────────────

const prim = (name: PrimType, ...args: DamlType[]): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const party = prim('PARTY');
const int64 = prim('INT64');
const text = prim('TEXT');
const optional = (type: DamlType) => prim('OPTIONAL', type);
const tvar = (name: string): DamlType => ({ kind: 'var', name, args: [] });
const con = (packageId: string, module: string, name: string, ...args: DamlType[]): DamlType => ({
  kind: 'con',
  tycon: { packageId, module, name },
  args,
});
const field = (name: string, type: DamlType): Field => ({ name, type });
const record = (name: string, fields: Field[], extra: Partial<DataType> = {}): DataType =>
  ({ kind: 'record', name, params: [], serializable: true, fields, ...extra }) as DataType;

type Spec = {
  id: string;
  name?: string;
  version: string;
  lf?: string;
  /** Fields of template `Main:Asset`; undefined drops the template. */
  asset?: Field[];
  /** Fields of the choice `Transfer`'s argument record; undefined drops the choice. */
  transfer?: Field[];
  transferReturns?: DamlType;
  keyType?: DamlType;
  implements?: TypeConName[];
  dataTypes?: DataType[];
  modules?: Module[];
};

/** Package `demo` (module `Main`) with template `Asset` and its choice `Transfer`. */
function pkg(spec: Spec): DecodedPackage {
  const self = (name: string): TypeConName => ({ packageId: spec.id, module: 'Main', name });
  const dataTypes: DataType[] = [];
  const templates: Template[] = [];
  if (spec.asset) {
    dataTypes.push(record('Asset', spec.asset));
    const choices = [];
    if (spec.transfer) {
      dataTypes.push(record('Transfer', spec.transfer));
      choices.push({
        name: 'Transfer',
        consuming: true,
        argType: { kind: 'con', tycon: self('Transfer'), args: [] } as DamlType,
        returnType: spec.transferReturns ?? prim('CONTRACT_ID', con(spec.id, 'Main', 'Asset')),
      });
    }
    templates.push({
      name: 'Asset',
      tycon: self('Asset'),
      fields: spec.asset,
      ...(spec.keyType ? { keyType: spec.keyType } : {}),
      choices,
      implements: spec.implements ?? [],
    });
  }
  dataTypes.push(...(spec.dataTypes ?? []));
  const [major = '2', minor = '1'] = (spec.lf ?? '2.1').split('.');
  return {
    packageId: spec.id,
    lfVersion: { major: Number(major), minor, patch: 0 },
    name: spec.name ?? 'demo',
    version: spec.version,
    modules: spec.modules ?? [{ name: 'Main', dataTypes, synonyms: [], templates, interfaces: [] }],
    internedStrings: [],
    internedDottedNames: [],
  };
}

const ASSET = [field('owner', party), field('amount', int64)];
const TRANSFER = [field('newOwner', party)];
const v1 = pkg({ id: 'v1', version: '1.0.0', asset: ASSET, transfer: TRANSFER });
const v2 = (changes: Partial<Spec>) =>
  pkg({ id: 'v2', version: '2.0.0', asset: ASSET, transfer: TRANSFER, ...changes });

/** Why v2 with `changes` does not upgrade v1. */
const problem = (changes: Partial<Spec>, past = v1) => upgradeProblem(past, v2(changes));

// ── The pair check ───────────────────────────────────────────────────────────────────────────

describe('upgradeProblem', () => {
  it('accepts an identical package and one that appends Optional fields', () => {
    expect(problem({})).toBeUndefined();
    expect(problem({ asset: [...ASSET, field('memo', optional(text))] })).toBeUndefined();
    expect(problem({ transfer: [...TRANSFER, field('note', optional(text))] })).toBeUndefined();
    // New templates, choices and data types are fine too.
    expect(
      problem({ dataTypes: [record('Extra', [field('x', int64)])], transferReturns: undefined }),
    ).toBeUndefined();
  });

  it('accepts references to its own types, whose package id changes with every version', () => {
    // The choice returns ContractId Asset: v1's id in v1, v2's id in v2.
    const withPair = (id: string) => [record('Holder', [field('asset', con(id, 'Main', 'Asset'))])];
    expect(
      upgradeProblem(
        pkg({ id: 'v1', version: '1.0.0', asset: ASSET, dataTypes: withPair('v1') }),
        pkg({ id: 'v2', version: '2.0.0', asset: ASSET, dataTypes: withPair('v2') }),
      ),
    ).toBeUndefined();
    // A type of an unrelated package with the same module and name does not match.
    expect(
      upgradeProblem(
        pkg({ id: 'v1', version: '1.0.0', asset: ASSET, dataTypes: withPair('v1') }),
        pkg({ id: 'v2', version: '2.0.0', asset: ASSET, dataTypes: withPair('other') }),
      ),
    ).toBe('The upgraded data type Holder has changed the types of some of its original fields.');
  });

  it('follows dependencies through their package name and version', () => {
    const info = (packageId: string): UpgradePackageInfo | undefined =>
      ({
        lib1: { name: 'lib', version: '1.0.0', lfVersion: '2.1' },
        lib2: { name: 'lib', version: '2.0.0', lfVersion: '2.1' },
        other: { name: 'other', version: '3.0.0', lfVersion: '2.1' },
      })[packageId];
    const using = (id: string, version: string, lib: string) =>
      pkg({ id, version, asset: [...ASSET, field('tag', con(lib, 'Lib', 'Tag'))] });
    expect(upgradeProblem(using('v1', '1.0.0', 'lib1'), using('v2', '2.0.0', 'lib2'), info)).toBe(
      undefined,
    );
    // Back to an older version of the dependency, or to another package: a changed type.
    const changed =
      'The upgraded template Asset has changed the types of some of its original fields.';
    expect(upgradeProblem(using('v1', '1.0.0', 'lib2'), using('v2', '2.0.0', 'lib1'), info)).toBe(
      changed,
    );
    expect(upgradeProblem(using('v1', '1.0.0', 'lib1'), using('v2', '2.0.0', 'other'), info)).toBe(
      changed,
    );
  });

  it('refuses template changes with the reasons Daml gives', () => {
    expect(problem({ asset: undefined })).toBe(
      'Template Asset appears in package that is being upgraded, but does not appear in the upgrading package.',
    );
    expect(problem({ asset: [field('owner', party)] })).toBe(
      'The upgraded template Asset is missing some of its original fields.',
    );
    expect(problem({ asset: [field('owner', party), field('amount', text)] })).toBe(
      'The upgraded template Asset has changed the types of some of its original fields.',
    );
    expect(problem({ asset: [...ASSET, field('memo', text)] })).toBe(
      'The upgraded template Asset has added new fields, but those fields are not Optional.',
    );
    expect(problem({ asset: [field('amount', int64), field('owner', party)] })).toBe(
      'The upgraded template Asset has changed the order of its fields - any new fields must be added at the end of the record.',
    );
    expect(
      problem({
        asset: [field('owner', party), field('memo', optional(text)), field('amount', int64)],
      }),
    ).toBe(
      'The upgraded template Asset has changed the order of its fields - any new fields must be added at the end of the record.',
    );
  });

  it('refuses choice and key changes', () => {
    expect(problem({ transfer: undefined })).toBe(
      'Choice Transfer appears in package that is being upgraded, but does not appear in the upgrading package.',
    );
    expect(problem({ transfer: [field('newOwner', text)] })).toBe(
      'The upgraded input type of choice Transfer on template Asset has changed the types of some of its original fields.',
    );
    expect(problem({ transfer: [...TRANSFER, field('reason', text)] })).toBe(
      'The upgraded input type of choice Transfer on template Asset has added new fields, but those fields are not Optional.',
    );
    expect(problem({ transferReturns: prim('UNIT') })).toBe(
      'The upgraded choice Transfer cannot change its return type.',
    );
    const keyed = pkg({ id: 'v1', version: '1.0.0', asset: ASSET, keyType: party });
    expect(problem({ transfer: undefined, keyType: party }, keyed)).toBeUndefined();
    expect(problem({ transfer: undefined, keyType: text }, keyed)).toBe(
      'The upgraded template Asset cannot change its key type.',
    );
    expect(problem({ transfer: undefined }, keyed)).toBe(
      'The upgraded template Asset cannot remove its key.',
    );
    expect(problem({ keyType: party })).toBe('The upgraded template Asset cannot add a key.');
  });

  it('lets variants and enums only gain constructors at the end', () => {
    const color = (...constructors: string[]): DataType => ({
      kind: 'enum',
      name: 'Color',
      params: [],
      serializable: true,
      constructors,
    });
    const shape = (...constructors: Field[]): DataType => ({
      kind: 'variant',
      name: 'Shape',
      params: [],
      serializable: true,
      constructors,
    });
    const past = pkg({
      id: 'v1',
      version: '1.0.0',
      dataTypes: [color('Red', 'Blue'), shape(field('Circle', int64), field('Dot', prim('UNIT')))],
    });
    const present = (...dataTypes: DataType[]) =>
      upgradeProblem(past, pkg({ id: 'v2', version: '2.0.0', dataTypes }));
    const circleDot = shape(field('Circle', int64), field('Dot', prim('UNIT')));
    expect(present(color('Red', 'Blue', 'Green'), circleDot)).toBeUndefined();
    expect(present(color('Red'), circleDot)).toBe(
      'The upgraded data type Color has removed an existing variant.',
    );
    expect(present(color('Blue', 'Red'), circleDot)).toBe(
      'The upgraded data type Color has changed the order of its variants - any new variant must be added at the end of the enum.',
    );
    expect(
      present(
        color('Red', 'Blue'),
        shape(field('Circle', int64), field('Dot', prim('UNIT')), field('Line', int64)),
      ),
    ).toBeUndefined();
    expect(
      present(color('Red', 'Blue'), shape(field('Circle', text), field('Dot', prim('UNIT')))),
    ).toBe('The upgraded data type Shape has changed the type of a variant.');
    expect(present(color('Red', 'Blue'), shape(field('Circle', int64)))).toBe(
      'The upgraded data type Shape has removed an existing variant.',
    );
    expect(present(record('Color', [field('red', int64)]), circleDot)).toBe(
      'The upgraded data type Color has changed from a enum to a record. Datatypes cannot change variety via upgrades.',
    );
  });

  it('names variant constructor records, type parameters and serializability', () => {
    // A record constructor `Shape.Rect` of variant `Shape`, as the compiler lays it out.
    const layout = (id: string, rect: Field[]): DataType[] => [
      {
        kind: 'variant',
        name: 'Shape',
        params: [],
        serializable: true,
        constructors: [field('Rect', con(id, 'Main', 'Shape.Rect'))],
      },
      record('Shape.Rect', rect),
    ];
    const past = pkg({ id: 'v1', version: '1.0.0', dataTypes: layout('v1', [field('w', int64)]) });
    const present = (dataTypes: DataType[]) =>
      upgradeProblem(past, pkg({ id: 'v2', version: '2.0.0', dataTypes }));
    expect(present(layout('v2', [field('w', int64), field('h', optional(int64))]))).toBeUndefined();
    expect(present(layout('v2', [field('w', int64), field('h', int64)]))).toBe(
      'The upgraded variant constructor Shape.Rect from variant Shape has added a field.',
    );

    const pair = (params: string[], serializable = true) =>
      record('Pair', [field('first', tvar(params[0] ?? 'a'))], { params, serializable });
    const pairs = (dataType: DataType) =>
      upgradeProblem(
        pkg({ id: 'v1', version: '1.0.0', dataTypes: [pair(['a'])] }),
        pkg({ id: 'v2', version: '2.0.0', dataTypes: [dataType] }),
      );
    // Type variables are matched by position, not by name.
    expect(pairs(pair(['x']))).toBeUndefined();
    expect(pairs(pair(['a', 'b']))).toBe(
      'The upgraded data type Pair has changed the number of type variables it has.',
    );
    expect(pairs(pair(['a'], false))).toBe(
      'The upgraded data type Pair was serializable and is now unserializable. Datatypes cannot change their serializability via upgrades.',
    );
    expect(
      upgradeProblem(
        pkg({ id: 'v1', version: '1.0.0', dataTypes: [pair(['a'])] }),
        pkg({ id: 'v2', version: '2.0.0', dataTypes: [] }),
      ),
    ).toBe(
      'Data type Pair appears in package that is being upgraded, but does not appear in the upgrading package.',
    );
    // Dropping a data type that is not serializable is fine.
    expect(
      upgradeProblem(
        pkg({ id: 'v1', version: '1.0.0', dataTypes: [pair(['a'], false)] }),
        pkg({ id: 'v2', version: '2.0.0', dataTypes: [] }),
      ),
    ).toBeUndefined();
  });

  it('refuses a lower LF version, a missing module and changed interface instances', () => {
    expect(problem({ lf: '2.1' }, pkg({ ...specOf(v1), lf: '2.dev' }))).toBe(
      'The upgraded package uses an older LF version (2.1 < 2.dev)',
    );
    expect(problem({ modules: [] })).toBe(
      'Module Main appears in package that is being upgraded, but does not appear in the upgrading package.',
    );
    const iface: TypeConName = { packageId: 'ifaces', module: 'Iface', name: 'HasOwner' };
    const implementing = pkg({ ...specOf(v1), implements: [iface] });
    expect(problem({ implements: [iface] }, implementing)).toBeUndefined();
    expect(problem({}, implementing)).toBe(
      'Implementation of interface ifaces:Iface:HasOwner by template Asset appears in package that is being upgraded, but does not appear in this package.',
    );
    expect(problem({ implements: [iface] })).toBe(
      'Implementation of interface ifaces:Iface:HasOwner by template Asset appears in this package, but does not appear in package that is being upgraded.',
    );
  });
});

/** The spec `v1` was built from. */
function specOf(built: DecodedPackage): Spec {
  return { id: built.packageId, version: built.version, asset: ASSET, transfer: TRANSFER };
}

// ── Lineages ─────────────────────────────────────────────────────────────────────────────────

/** A source over the given packages, counting how often each is decoded. */
function source(...packages: DecodedPackage[]): UpgradePackageSource & { decodes: string[] } {
  const byId = new Map(packages.map((p) => [p.packageId, p]));
  const decodes: string[] = [];
  return {
    decodes,
    info: (id) => {
      const p = byId.get(id);
      return (
        p && {
          name: p.name,
          version: p.version,
          lfVersion: `${p.lfVersion.major}.${p.lfVersion.minor}`,
        }
      );
    },
    decoded: (id) => {
      decodes.push(id);
      return byId.get(id);
    },
  };
}

describe('checkUpgrades', () => {
  const good = v2({ asset: [...ASSET, field('memo', optional(text))] });
  const bad = v2({ asset: [field('owner', party)] });

  it('passes a compatible lineage and a lone package without decoding anything else', () => {
    const packages = source(v1, good);
    expect(
      checkUpgrades({ newPackageIds: ['v2'], vettedPackageIds: ['v1', 'v2'], packages }),
    ).toBeUndefined();
    const alone = source(v1);
    expect(
      checkUpgrades({ newPackageIds: ['v1'], vettedPackageIds: ['v1'], packages: alone }),
    ).toBeUndefined();
    // A lineage of one needs no check, so nothing is decoded.
    expect(alone.decodes).toEqual([]);
  });

  it('reports the first incompatible pair with both packages', () => {
    expect(
      checkUpgrades({
        newPackageIds: ['v2'],
        vettedPackageIds: ['v1', 'v2'],
        packages: source(v1, bad),
      }),
    ).toEqual({
      code: 'NOT_VALID_UPGRADE_PACKAGE',
      oldPackage: { packageId: 'v1', name: 'demo', version: '1.0.0' },
      newPackage: { packageId: 'v2', name: 'demo', version: '2.0.0' },
      reason: 'The upgraded template Asset is missing some of its original fields.',
    });
  });

  it('checks the new package against the next higher version too', () => {
    // v1.5 slots in between v1 and v2: v2 must upgrade it, and it removes v1.5's new field.
    const v15 = pkg({
      id: 'v15',
      version: '1.5.0',
      asset: [...ASSET, field('x', optional(int64))],
      transfer: TRANSFER,
    });
    const failure = checkUpgrades({
      newPackageIds: ['v15'],
      vettedPackageIds: ['v1', 'v2', 'v15'],
      packages: source(v1, v2({}), v15),
    });
    expect(failure).toMatchObject({
      code: 'NOT_VALID_UPGRADE_PACKAGE',
      oldPackage: { packageId: 'v15' },
      newPackage: { packageId: 'v2' },
    });
  });

  it('refuses two packages with one name and version, ordered by id', () => {
    const twin = pkg({ id: 'a-twin', version: '1.0.0', asset: ASSET });
    expect(
      checkUpgrades({
        newPackageIds: ['a-twin'],
        vettedPackageIds: ['v1', 'a-twin'],
        packages: source(v1, twin),
      }),
    ).toEqual({
      code: 'KNOWN_PACKAGE_VERSION',
      first: { packageId: 'a-twin', name: 'demo', version: '1.0.0' },
      second: { packageId: 'v1', name: 'demo', version: '1.0.0' },
    });
  });

  it('ignores utility packages, unvetted packages and other names', () => {
    const utility = (id: string) =>
      pkg({
        id,
        name: 'daml-prim',
        version: '0.0.0',
        dataTypes: [record('X', [], { serializable: false })],
      });
    expect(isUtilityPackage(utility('u1'))).toBe(true);
    expect(isUtilityPackage(v1)).toBe(false);
    // Two utility packages with one name and version coexist (daml-prim across SDKs).
    expect(
      checkUpgrades({
        newPackageIds: ['u2'],
        vettedPackageIds: ['u1', 'u2'],
        packages: source(utility('u1'), utility('u2')),
      }),
    ).toBeUndefined();
    // An incompatible package that is stored but not vetted is not part of the lineage.
    expect(
      checkUpgrades({ newPackageIds: ['v2'], vettedPackageIds: ['v2'], packages: source(v1, bad) }),
    ).toBeUndefined();
    const other = pkg({ id: 'o', name: 'other', version: '9.0.0' });
    expect(
      checkUpgrades({
        newPackageIds: ['o'],
        vettedPackageIds: ['v1', 'o'],
        packages: source(v1, other),
      }),
    ).toBeUndefined();
  });
});

describe('helpers', () => {
  it("renders packages as Daml's PkgIdWithNameAndVersion", () => {
    expect(describePackage({ packageId: 'abc', name: 'demo', version: '1.0.0' })).toBe(
      'abc (demo v1.0.0)',
    );
  });
});

describe('on packages encoded into DARs and decoded back', () => {
  it('sees what the decoder sees: ids, self references, choice argument records', async () => {
    const spec = (version: string, fields: Field[]) =>
      templatePackageSpec({
        name: 'roundtrip',
        version,
        templates: [
          {
            name: 'Asset',
            fields,
            keyType: party,
            choices: [
              {
                name: 'Transfer',
                argFields: TRANSFER,
                returnType: prim('CONTRACT_ID', con('', 'Main', 'Asset')),
              },
            ],
          },
        ],
      });
    const read = async (version: string, fields: Field[]) => {
      const encoded = await encodeDar([spec(version, fields)]);
      const dar = await readDar(encoded.bytes);
      expect(dar.main.packageId).toBe(encoded.packageIds[0]);
      return dar.main;
    };
    const past = await read('1.0.0', ASSET);
    expect(upgradeProblem(past, await read('1.1.0', [...ASSET, field('m', optional(text))]))).toBe(
      undefined,
    );
    expect(upgradeProblem(past, await read('1.1.0', [field('owner', party)]))).toBe(
      'The upgraded template Asset is missing some of its original fields.',
    );
  });
});
