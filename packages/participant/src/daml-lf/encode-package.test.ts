import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import {
  decodeArchivePayload,
  packageSummary,
  readArchivePayload,
  toPackageSummary,
} from './decode-package';
import { DarError } from './dar-error';
import {
  assembleDar,
  encodeDar,
  encodePackagePayload,
  type ConstantSpec,
  type PackageSpec,
} from './encode-package';
import { readDar } from './read-dar';

/** A package's id is the SHA-256 of its payload. */
const packageIdOf = (payload: Uint8Array) => createHash('sha256').update(payload).digest('hex');
import type {
  DamlType,
  Field,
  Interface,
  Module,
  PrimType,
  Template,
  TypeConName,
} from './package-model';
import { ProtobufReader } from './protobuf-reader';

// ── A spec in the shape the sandbox's built-in package will take ─────────────────────────────

const prim = (name: PrimType, ...args: DamlType[]): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const self = (module: string, name: string): TypeConName => ({ packageId: '', module, name });
const con = (tycon: TypeConName, ...args: DamlType[]): DamlType => ({ kind: 'con', tycon, args });
const tvar = (name: string): DamlType => ({ kind: 'var', name, args: [] });
const numeric = (scale: number) => prim('NUMERIC', { kind: 'nat', value: scale });

const TYPES = 'Sandbox.Demo.Types';
const MAIN = 'Sandbox.Demo.Main';
const COLOR = self(TYPES, 'Color');
const SHAPE = self(TYPES, 'Shape');
const PAIR = self(TYPES, 'Pair');
const ASSET = self(MAIN, 'Asset');
const ASSET_KEY = self(MAIN, 'AssetKey');
const REGISTRY = self(MAIN, 'Registry');

const typesModule: Module = {
  name: TYPES,
  dataTypes: [
    { kind: 'enum', name: 'Color', params: [], serializable: true, constructors: ['Red', 'Blue'] },
    {
      kind: 'variant',
      name: 'Shape',
      params: [],
      serializable: true,
      constructors: [
        { name: 'Circle', type: numeric(10) },
        { name: 'Square', type: prim('INT64') },
        { name: 'Dot', type: prim('UNIT') },
      ],
    },
    {
      kind: 'record',
      name: 'Pair',
      params: ['a', 'b'],
      serializable: true,
      fields: [
        { name: 'first', type: tvar('a') },
        { name: 'second', type: tvar('b') },
      ],
    },
    // Edge shapes: an empty record and a nested (dotted) name.
    { kind: 'record', name: 'Empty.Inner', params: [], serializable: true, fields: [] },
  ],
  synonyms: [{ name: 'Amount', params: [], type: numeric(10) }],
  templates: [],
  interfaces: [],
};

const assetFields: Field[] = [
  { name: 'issuer', type: prim('PARTY') },
  { name: 'owner', type: prim('PARTY') },
  { name: 'name', type: prim('TEXT') },
  { name: 'amount', type: numeric(10) },
  { name: 'zero', type: numeric(0) },
  { name: 'color', type: con(COLOR) },
  { name: 'shape', type: prim('OPTIONAL', con(SHAPE)) },
  { name: 'tags', type: prim('LIST', prim('TEXT')) },
  { name: 'attributes', type: prim('TEXTMAP', prim('INT64')) },
  { name: 'issued', type: prim('DATE') },
  { name: 'updated', type: prim('TIMESTAMP') },
  { name: 'active', type: prim('BOOL') },
  { name: 'amountAlias', type: { kind: 'syn', tysyn: self(TYPES, 'Amount'), args: [] } },
];
const registryFields: Field[] = [
  { name: 'operator', type: prim('PARTY') },
  { name: 'assets', type: prim('LIST', prim('CONTRACT_ID', con(ASSET))) },
];

const record = (name: string, fields: Field[]) =>
  ({ kind: 'record', name, params: [], serializable: true, fields }) as const;

const assetTemplate: Template = {
  name: 'Asset',
  tycon: ASSET,
  fields: assetFields,
  keyType: con(ASSET_KEY),
  choices: [
    {
      name: 'Transfer',
      consuming: true,
      argType: con(self(MAIN, 'Transfer')),
      returnType: prim('CONTRACT_ID', con(ASSET)),
    },
    {
      name: 'Split',
      consuming: true,
      argType: con(self(MAIN, 'Split')),
      returnType: con(PAIR, prim('CONTRACT_ID', con(ASSET)), prim('CONTRACT_ID', con(ASSET))),
    },
    {
      name: 'Inspect',
      consuming: false,
      argType: con(self(MAIN, 'Inspect')),
      returnType: prim('OPTIONAL', prim('TEXT')),
    },
    {
      name: 'Archive',
      consuming: true,
      argType: con(self(MAIN, 'Archive')),
      returnType: prim('UNIT'),
    },
  ],
  implements: [],
};

const registryTemplate: Template = {
  name: 'Registry',
  tycon: REGISTRY,
  fields: registryFields,
  keyType: prim('PARTY'),
  choices: [
    {
      name: 'ListAssets',
      consuming: false,
      argType: con(self(MAIN, 'ListAssets')),
      returnType: prim('LIST', prim('CONTRACT_ID', con(ASSET))),
    },
  ],
  implements: [],
};

const mainModule: Module = {
  name: MAIN,
  dataTypes: [
    record('Asset', assetFields),
    record('AssetKey', [
      { name: 'issuer', type: prim('PARTY') },
      { name: 'name', type: prim('TEXT') },
    ]),
    record('Transfer', [{ name: 'newOwner', type: prim('PARTY') }]),
    record('Split', [{ name: 'splitAmount', type: numeric(10) }]),
    record('Inspect', [{ name: 'viewer', type: prim('PARTY') }]),
    record('Archive', []),
    record('Registry', registryFields),
    record('ListAssets', []),
  ],
  synonyms: [],
  templates: [assetTemplate, registryTemplate],
  interfaces: [],
};

const spec: PackageSpec = {
  name: 'sandbox-demo',
  version: '1.0.0',
  modules: [typesModule, mainModule],
};

/** The spec as the decoder returns it: "this package" references carry the real id. */
function withPackageId<T>(value: T, packageId: string): T {
  if (Array.isArray(value)) {
    return value.map((item: unknown) => withPackageId(item, packageId)) as T;
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]: [string, unknown]) => [
        key,
        key === 'packageId' && item === '' ? packageId : withPackageId(item, packageId),
      ]),
    ) as T;
  }
  return value;
}

/**
 * The interned indices a table entry's nested types point at. Each nested `Type` must be nothing
 * but an `interned_type` (8) reference; this throws otherwise.
 */
function nestedTypeRefs(entry: Uint8Array): number[] {
  const refs: number[] = [];
  const typeRef = (type: ProtobufReader) => {
    const fields: number[] = [];
    while (type.next()) {
      fields.push(type.field);
      if (type.field === 8) refs.push(type.int32());
      else type.skip();
    }
    if (fields.join() !== '8') throw new Error(`nested type with fields ${fields.join()}`);
  };
  // Var 1, Con 2, Builtin 3, Forall 4 and Syn 7 hold their types in field 2; Struct 5 in its fields.
  const outer = new ProtobufReader(entry);
  while (outer.next()) {
    if (outer.field === 6) {
      outer.skip(); // nat
      continue;
    }
    const body = outer.message();
    while (body.next()) {
      if (outer.field === 5 && body.field === 1) {
        // Struct { repeated FieldWithType fields = 1 { Type type = 2 } }
        const field = body.message();
        while (field.next()) {
          if (field.field === 2) typeRef(field.message());
          else field.skip();
        }
      } else if (outer.field !== 5 && body.field === 2) typeRef(body.message());
      else body.skip();
    }
  }
  return refs;
}

// ── Tests ────────────────────────────────────────────────────────────────────────────────────

describe('encodePackagePayload', () => {
  const payload = encodePackagePayload(spec);
  const packageId = packageIdOf(payload);

  it('round-trips modules, data types, templates and choices through the decoder', () => {
    const decoded = decodeArchivePayload(payload, packageId);
    expect(decoded.packageId).toBe(packageId);
    expect(decoded.modules).toEqual(withPackageId(spec.modules, packageId));
  });

  it('writes an LF 2.1 archive with the metadata name and version', () => {
    expect(readArchivePayload(payload).lfVersion).toEqual({ major: 2, minor: '1', patch: 0 });
    const decoded = decodeArchivePayload(payload, packageId);
    expect(decoded).toMatchObject({ name: 'sandbox-demo', version: '1.0.0' });
    expect(decoded.upgradedPackageId).toBeUndefined();
    expect(decoded.importedPackages).toBeUndefined();
    expect(packageSummary(payload, packageId)).toEqual(toPackageSummary(decoded));
  });

  it('interns types: table entries refer only to earlier entries, each entry is unique', () => {
    const entries: Uint8Array[] = [];
    const reader = new ProtobufReader(readArchivePayload(payload).packageBytes);
    while (reader.next()) {
      if (reader.field === 5) entries.push(reader.bytes());
      else reader.skip();
    }
    expect(entries.length).toBeGreaterThan(10);
    expect(new Set(entries.map((bytes) => bytes.join())).size).toBe(entries.length);
    entries.forEach((bytes, index) => {
      for (const ref of nestedTypeRefs(bytes)) expect(ref).toBeLessThan(index);
    });
  });

  it('interns each string and dotted name once', () => {
    const { internedStrings, internedDottedNames } = decodeArchivePayload(payload, packageId);
    expect(new Set(internedStrings).size).toBe(internedStrings.length);
    const joined = internedDottedNames.map((segments) => segments.join('.'));
    expect(new Set(joined).size).toBe(joined.length);
    expect(joined).toEqual(expect.arrayContaining([TYPES, MAIN, 'Empty.Inner']));
  });

  it('is deterministic: the same spec gives the same bytes and id', () => {
    const again = encodePackagePayload(structuredClone(spec));
    expect(again).toEqual(payload);
    expect(packageIdOf(again)).toBe(packageId);
    expect(packageId).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives another id to another spec', () => {
    const other = encodePackagePayload({ ...spec, version: '1.0.1' });
    expect(packageIdOf(other)).not.toBe(packageId);
  });

  it('refers to other packages by their id', () => {
    const foreign: TypeConName = { packageId: 'f'.repeat(64), module: 'DA.Types', name: 'Tuple2' };
    const module: Module = {
      name: 'M',
      dataTypes: [record('R', [{ name: 'pair', type: con(foreign, prim('INT64'), prim('TEXT')) }])],
      synonyms: [],
      templates: [],
      interfaces: [],
    };
    const bytes = encodePackagePayload({ name: 'p', version: '0.1.0', modules: [module] });
    expect(decodeArchivePayload(bytes, packageIdOf(bytes)).modules).toEqual([module]);
  });

  it('encodes structural types (var applications, forall, struct) in synonyms', () => {
    const module: Module = {
      name: 'M',
      dataTypes: [],
      synonyms: [
        {
          name: 'Weird',
          params: ['f'],
          type: {
            kind: 'forall',
            vars: ['x'],
            body: {
              kind: 'struct',
              fields: [{ name: 'apply', type: { kind: 'var', name: 'f', args: [tvar('x')] } }],
            },
          },
        },
      ],
      templates: [],
      interfaces: [],
    };
    const bytes = encodePackagePayload({ name: 'p', version: '0.1.0', modules: [module] });
    expect(decodeArchivePayload(bytes, packageIdOf(bytes)).modules).toEqual([module]);
  });

  describe('rejects what it cannot encode faithfully', () => {
    const encodeMain = (main: Partial<Module>) => () =>
      encodePackagePayload({ ...spec, modules: [typesModule, { ...mainModule, ...main }] });

    it('a reference to a data type the package lacks', () => {
      const dangling = record('Dangling', [{ name: 'x', type: con(self(TYPES, 'Nope')) }]);
      expect(encodeMain({ dataTypes: [...mainModule.dataTypes, dangling] })).toThrow(
        /Sandbox\.Demo\.Types:Nope/,
      );
    });

    it('a template without its record, or with other fields', () => {
      const withoutRecord = mainModule.dataTypes.filter((d) => d.name !== 'Registry');
      expect(encodeMain({ dataTypes: withoutRecord })).toThrow(/Registry.*record/);
      const changed = { ...assetTemplate, fields: assetFields.slice(1) };
      expect(encodeMain({ templates: [changed, registryTemplate] })).toThrow(/Asset.*record/);
    });

    it('instances of foreign interfaces, interfaces without their data type, 2.dev-only types', () => {
      const foreign: TypeConName = { packageId: 'f'.repeat(64), module: 'Other', name: 'IAsset' };
      expect(
        encodeMain({ templates: [{ ...assetTemplate, implements: [foreign] }, registryTemplate] }),
      ).toThrow(/only instances of interfaces of its own package/);
      const iface: TypeConName = self(MAIN, 'IAsset');
      expect(
        encodeMain({
          interfaces: [
            { name: 'IAsset', tycon: iface, choices: [], viewType: prim('UNIT'), requires: [] },
          ],
        }),
      ).toThrow(/data type of kind 'interface'/);
      const big = record('Big', [{ name: 'n', type: prim('BIGNUMERIC') }]);
      expect(encodeMain({ dataTypes: [...mainModule.dataTypes, big] })).toThrow(/BIGNUMERIC/);
    });

    it('definitions in an LF 1 package, and values of a module it lacks', () => {
      expect(() => encodePackagePayload(spec, { lfVersion: { major: 1, minor: '15' } })).toThrow(
        /LF 1 packages are written without definitions/,
      );
      const value: ConstantSpec = {
        module: 'Nope',
        name: 'x',
        type: prim('BOOL'),
        value: { kind: 'unit' },
      };
      expect(() => encodePackagePayload({ ...spec, values: [value] })).toThrow(/no module Nope/);
    });

    it('a numeric scale outside 0 to 37', () => {
      const wide = record('Wide', [{ name: 'n', type: numeric(38) }]);
      expect(encodeMain({ dataTypes: [...mainModule.dataTypes, wide] })).toThrow(/38/);
    });
  });
});

// ── Interfaces, constant values, LF 1 and DARs ──────────────────────────────────────────────

const IFACE = 'Sandbox.Demo.Iface';
const VIEW = self(IFACE, 'View');
const HOLDING = self(IFACE, 'Holding');
const LOCKABLE = self(IFACE, 'Lockable');
const COIN = self(IFACE, 'Coin');
const holdingInterface: Interface = {
  name: 'Holding',
  tycon: HOLDING,
  choices: [
    {
      name: 'Holding_Describe',
      consuming: false,
      argType: con(self(IFACE, 'Holding_Describe')),
      returnType: prim('TEXT'),
    },
    {
      name: 'Holding_Burn',
      consuming: true,
      argType: con(self(IFACE, 'Holding_Burn')),
      returnType: con(self(IFACE, 'Burnt')),
    },
  ],
  viewType: con(VIEW),
  requires: [],
};
const lockableInterface: Interface = {
  name: 'Lockable',
  tycon: LOCKABLE,
  choices: [],
  viewType: prim('UNIT'),
  requires: [HOLDING],
};
const coinFields: Field[] = [
  { name: 'owner', type: prim('PARTY') },
  { name: 'amount', type: prim('INT64') },
];
const interfaceModule: Module = {
  name: IFACE,
  dataTypes: [
    record('View', [{ name: 'owner', type: prim('PARTY') }]),
    { kind: 'interface', name: 'Holding', params: [], serializable: false },
    { kind: 'interface', name: 'Lockable', params: [], serializable: false },
    record('Holding_Describe', []),
    record('Holding_Burn', [{ name: 'amount', type: prim('INT64') }]),
    record('Burnt', [{ name: 'rest', type: prim('CONTRACT_ID', con(HOLDING)) }]),
    record('Coin', coinFields),
    record('Coin_Split', []),
  ],
  synonyms: [],
  templates: [
    {
      name: 'Coin',
      tycon: COIN,
      fields: coinFields,
      keyType: prim('PARTY'),
      choices: [
        {
          name: 'Coin_Split',
          consuming: false,
          argType: con(self(IFACE, 'Coin_Split')),
          returnType: prim('LIST', prim('CONTRACT_ID', con(COIN))),
        },
      ],
      implements: [HOLDING, LOCKABLE],
    },
  ],
  interfaces: [holdingInterface, lockableInterface],
};

describe('encodePackagePayload: interfaces and instances', () => {
  const ifaceSpec: PackageSpec = {
    name: 'iface-demo',
    version: '1.0.0',
    modules: [interfaceModule],
  };
  const payload = encodePackagePayload(ifaceSpec);
  const packageId = packageIdOf(payload);

  it('round-trips interfaces (view, choices, requires) and the templates implementing them', () => {
    const decoded = decodeArchivePayload(payload, packageId);
    expect(decoded.modules).toEqual(withPackageId([interfaceModule], packageId));
    const [module] = decoded.modules;
    expect(module?.interfaces.map((i) => [i.name, i.choices.map((c) => c.consuming)])).toEqual([
      ['Holding', [false, true]],
      ['Lockable', []],
    ]);
    expect(module?.templates[0]?.implements.map((i) => i.name)).toEqual(['Holding', 'Lockable']);
    expect(packageSummary(payload, packageId)).toEqual(toPackageSummary(decoded));
  });

  it('round-trips an instance written in another module of the package', () => {
    const tokenModule: Module = {
      name: 'Sandbox.Demo.Token',
      dataTypes: [record('Token', coinFields)],
      synonyms: [],
      templates: [
        {
          name: 'Token',
          tycon: self('Sandbox.Demo.Token', 'Token'),
          fields: coinFields,
          choices: [],
          implements: [HOLDING],
        },
      ],
      interfaces: [],
    };
    const spread: PackageSpec = { ...ifaceSpec, modules: [interfaceModule, tokenModule] };
    const bytes = encodePackagePayload(spread);
    const decoded = decodeArchivePayload(bytes, packageIdOf(bytes));
    expect(decoded.modules).toEqual(withPackageId(spread.modules, packageIdOf(bytes)));
    expect(decoded.modules[1]?.templates[0]?.implements).toEqual([
      { ...HOLDING, packageId: packageIdOf(bytes) },
    ]);
  });
});

describe('encodePackagePayload: constant values', () => {
  const valueSpec = (values: ConstantSpec[]): PackageSpec => ({
    name: 'values-demo',
    version: '1.0.0',
    modules: [{ name: 'Mod', dataTypes: [], synonyms: [], templates: [], interfaces: [] }],
    values,
  });
  const decode = (values: ConstantSpec[]) => {
    const bytes = encodePackagePayload(valueSpec(values));
    return () => decodeArchivePayload(bytes, packageIdOf(bytes));
  };
  const value = (name: string, type: PrimType, constant: ConstantSpec['value']): ConstantSpec => ({
    module: 'Mod',
    name,
    type: prim(type),
    value: constant,
  });

  it('writes well-typed constants the decoder accepts', () => {
    expect(
      decode([
        value('u', 'UNIT', { kind: 'unit' }),
        value('b', 'BOOL', { kind: 'bool', value: true }),
        value('f', 'BOOL', { kind: 'bool', value: false }),
        value('n', 'INT64', { kind: 'int64', value: -42n }),
        value('t', 'TEXT', { kind: 'text', value: 'hello' }),
      ])().modules.map((m) => m.name),
    ).toEqual(['Mod']);
  });

  it.each([
    ['Bool', 'BOOL', { kind: 'unit' }, '()'],
    ['Text', 'TEXT', { kind: 'bool', value: true }, 'True'],
    ['Int64', 'INT64', { kind: 'text', value: 'x' }, 'a Text literal'],
    ['Text', 'TEXT', { kind: 'int64', value: 1n }, 'a Int64 literal'],
  ] as const)(
    'writes an ill-typed one (%s = %s) that the decoder refuses as VALIDATION_FAILED',
    (shown, type, constant, what) => {
      const error = (() => {
        try {
          decode([value('x', type, constant)])();
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(DarError);
      expect(error).toMatchObject({
        reason: 'VALIDATION_FAILED',
        message: `Type checking failed: Mod:x is declared as ${shown} but defined as ${what}`,
      });
    },
  );
});

describe('encodePackagePayload: LF 1', () => {
  const lf1: PackageSpec = {
    name: 'lf1-demo',
    version: '1.0.0',
    modules: [{ name: 'Mod', dataTypes: [], synonyms: [], templates: [], interfaces: [] }],
  };

  it('writes a daml_lf_1 payload that readers recognise and reject', async () => {
    const payload = encodePackagePayload(lf1, { lfVersion: { major: 1, minor: '15' } });
    expect(readArchivePayload(payload).lfVersion).toEqual({ major: 1, minor: '15', patch: 0 });
    expect(() => decodeArchivePayload(payload, packageIdOf(payload))).toThrow(
      /Daml-LF 1\.15 is not supported/,
    );
    const dar = await encodeDar([lf1], { lfVersion: { major: 1, minor: '15' } });
    await expect(readDar(dar.bytes)).rejects.toMatchObject({
      reason: 'UNSUPPORTED_LF_VERSION',
      details: { packageId: dar.packageIds[0], lfVersion: '1.15' },
    });
  });
});

describe('encodeDar and assembleDar', () => {
  const dep: PackageSpec = { name: 'demo-types', version: '1.0.0', modules: [typesModule] };

  it('give the same bytes every time, whatever the clock says', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-01T10:00:00Z'));
      const first = await encodeDar([spec, dep]);
      vi.setSystemTime(new Date('2027-07-15T18:30:00Z'));
      const second = await encodeDar([structuredClone(spec), dep]);
      expect(second.bytes).toEqual(first.bytes);
    } finally {
      vi.useRealTimers();
    }
    const first = await encodeDar([spec, dep]);
    const assembled = assembleDar(
      [spec, dep].map((s) => {
        const payload = encodePackagePayload(s);
        return { spec: s, payload, packageId: packageIdOf(payload) };
      }),
    );
    expect(assembled).toEqual(first.bytes);
  });

  it('lay the DAR out as damlc does when asked, with the SDK version in the manifest', async () => {
    const { bytes, packageIds } = await encodeDar([spec, dep], {
      sdkVersion: '3.4.0',
      damlcLayout: true,
    });
    const dar = await readDar(bytes);
    const folder = `sandbox-demo-1.0.0-${packageIds[0] ?? ''}/`;
    expect(dar.packages.map((p) => p.dalfName)).toEqual([
      `${folder}sandbox-demo-1.0.0-${packageIds[0] ?? ''}.dalf`,
      `${folder}demo-types-1.0.0-${packageIds[1] ?? ''}.dalf`,
    ]);
    expect(dar.manifest).toMatchObject({ sdkVersion: '3.4.0', name: 'sandbox-demo-1.0.0' });
    expect(dar.packages.map((p) => p.packageId)).toEqual(packageIds);
  });
});
