/**
 * The DARs the default tests, e2e journeys and benchmarks upload: built here, by the project's own
 * Daml-LF encoder, so that a clone needs nothing beside it. They cover what the Canton team's DARs
 * cover (those stay the reference suite's, `*.reference.test.ts`):
 *
 * - `workflows` (like `canton-builtin-admin-workflow-ping.dar`): a main package and its
 *   dependencies, laid out and listed in the manifest as `damlc` does; templates whose choices'
 *   types live in other packages of the DAR (`Archive`, `Either`), consuming and non-consuming;
 * - `replication` (like the party-replication DAR): another main package sharing the prim
 *   dependencies (same ids) but with another version of `fixture-stdlib`;
 * - `definitions` (like `DamlDefinitionsServiceMain.dar`): every builtin field type, template
 *   keys (simple and compound), non-consuming choices, an interface with a view and choices, and a
 *   template implementing it, in a dependency package;
 * - `upgradeV1`, `upgradeV2` (a valid upgrade: an Optional field appended) and
 *   `upgradeIncompatible` (a field dropped) of one package, `upgrade-demo`;
 * - `illformed` (like `illformed.dar`): parses, but does not type-check (`Mod:x : Bool = ()`);
 * - `lf1` (like `dummy-1.15.dar`): a package in Daml-LF 1.15, which Canton 3 refuses;
 * - `large`: thirty packages of some size, for the benchmarks' decoding timings.
 *
 * Deterministic (the same bytes every run, so package ids are stable) and built once per process,
 * on first use. Node only: ids are hashed with `node:crypto`, so that everything is synchronous.
 */

import { createHash } from 'node:crypto';
import {
  assembleDar,
  encodePackagePayload,
  type DarOptions,
  type EncodedPackage,
  type PackageSpec,
} from '../daml-lf/encode-package';
import type {
  Choice,
  DamlType,
  DataType,
  Field,
  Interface,
  Module,
  PrimType,
  Template,
  TypeConName,
} from '../daml-lf/package-model';

export type FixtureDarName =
  | 'workflows'
  | 'replication'
  | 'definitions'
  | 'upgradeV1'
  | 'upgradeV2'
  | 'upgradeIncompatible'
  | 'illformed'
  | 'lf1'
  | 'large';

export const FIXTURE_DAR_NAMES: readonly FixtureDarName[] = [
  'workflows',
  'replication',
  'definitions',
  'upgradeV1',
  'upgradeV2',
  'upgradeIncompatible',
  'illformed',
  'lf1',
  'large',
];

/** What a participant answers to each fixture on upload (when nothing else is stored). */
export const FIXTURE_DAR_REFUSALS: Partial<Record<FixtureDarName, string>> = {
  illformed: 'DAR_VALIDATION_ERROR',
  lf1: 'ALLOWED_LANGUAGE_VERSIONS',
};

/** The manifest's `Sdk-Version` of every multi-package fixture. */
export const FIXTURE_SDK_VERSION = '0.0.0-ledger-console-fixtures';

export type FixturePackage = { packageId: string; name: string; version: string };

export type FixtureDar = {
  /** The file name a user would pick, e.g. `fixture-workflows-1.0.0.dar`. */
  file: string;
  main: FixturePackage;
  /** Main first, then the dependencies, in the manifest's order. */
  packages: readonly FixturePackage[];
  /** `<name> <version>` of the main package, as the console titles a package. */
  title: string;
  /** Size of the DAR in bytes. */
  size: number;
  /** A fresh copy each call, backed by its own ArrayBuffer (a worker may detach what it gets). */
  bytes(): Uint8Array<ArrayBuffer>;
  /** The package of this name in the DAR; throws when there is none. */
  packageNamed(name: string): FixturePackage;
};

const built = new Map<FixtureDarName, FixtureDar>();

/** The fixture DAR of this name, built on first use. */
export function fixtureDar(name: FixtureDarName): FixtureDar {
  let dar = built.get(name);
  if (!dar) {
    dar = buildFixtureDar(name);
    built.set(name, dar);
  }
  return dar;
}

/** The package id the encoder gives a spec: SHA-256 of its payload. */
export function fixturePackageId(spec: PackageSpec): string {
  return sha256(encodePackagePayload(spec));
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Builds the fixture DAR of this name anew; `fixtureDar` keeps the first build. */
export function buildFixtureDar(name: FixtureDarName): FixtureDar {
  switch (name) {
    case 'workflows':
      return dar(workflowsSpec(), [PRIM_TYPES, PRIM_TEMPLATE, stdlib('1.0.0')]);
    case 'replication':
      return dar(replicationSpec(), [PRIM_TYPES, PRIM_TEMPLATE, stdlib('1.1.0')]);
    case 'definitions': {
      const dep = definitionsDepSpec();
      return dar(definitionsMainSpec(fixturePackageId(dep)), [
        dep,
        PRIM_TYPES,
        PRIM_TEMPLATE,
        stdlib('1.0.0'),
      ]);
    }
    case 'upgradeV1':
      return dar(upgradeDemo('1.0.0', [OWNER, AMOUNT]), []);
    case 'upgradeV2':
      return dar(upgradeDemo('1.1.0', [OWNER, AMOUNT, field('memo', opt(prim('TEXT')))]), []);
    case 'upgradeIncompatible':
      return dar(upgradeDemo('2.0.0', [OWNER]), []);
    case 'illformed':
      return dar(
        {
          name: 'fixture-illformed',
          version: '1.0.0',
          modules: [emptyModule('Mod')],
          // Canton's illformed.dar, exactly: a value whose body is not of its declared type.
          values: [{ module: 'Mod', name: 'x', type: prim('BOOL'), value: { kind: 'unit' } }],
        },
        [],
      );
    case 'lf1':
      return dar({ name: 'fixture-lf1', version: '1.0.0', modules: [emptyModule('Mod')] }, [], {
        lfVersion: { major: 1, minor: '15' },
      });
    case 'large':
      return largeDar();
  }
}

function dar(main: PackageSpec, deps: readonly PackageSpec[], options: DarOptions = {}) {
  const specs = [main, ...deps];
  const encoded: EncodedPackage[] = specs.map((spec) => {
    const payload = encodePackagePayload(spec, options);
    return { spec, payload, packageId: sha256(payload) };
  });
  const multi = deps.length > 0;
  const zip = assembleDar(encoded, {
    ...options,
    ...(multi ? { damlcLayout: true, sdkVersion: FIXTURE_SDK_VERSION } : {}),
  });
  const packages = encoded.map(({ spec, packageId }) => ({
    packageId,
    name: spec.name,
    version: spec.version,
  }));
  const [first] = packages;
  if (!first) throw new Error('unreachable: a DAR has its main package');
  return {
    file: `${main.name}-${main.version}.dar`,
    main: first,
    packages,
    title: `${main.name} ${main.version}`,
    size: zip.byteLength,
    bytes: () => new Uint8Array(zip),
    packageNamed(name: string) {
      const found = packages.find((pkg) => pkg.name === name);
      if (!found) throw new Error(`${main.name} has no package ${name}`);
      return found;
    },
  } satisfies FixtureDar;
}

// ── Spec helpers ─────────────────────────────────────────────────────────────────────────────

const prim = (name: PrimType, ...args: DamlType[]): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const con = (tycon: TypeConName, ...args: DamlType[]): DamlType => ({ kind: 'con', tycon, args });
const field = (name: string, type: DamlType): Field => ({ name, type });
const opt = (type: DamlType) => prim('OPTIONAL', type);
const list = (type: DamlType) => prim('LIST', type);
const cid = (type: DamlType) => prim('CONTRACT_ID', type);
const numeric = (scale: number) => prim('NUMERIC', { kind: 'nat', value: scale });
const PARTY = prim('PARTY');
const TEXT = prim('TEXT');
const INT64 = prim('INT64');
const UNIT = prim('UNIT');
const self = (module: string, name: string): TypeConName => ({ packageId: '', module, name });
const record = (name: string, fields: readonly Field[], params: string[] = []): DataType => ({
  kind: 'record',
  name,
  params,
  serializable: true,
  fields,
});
const emptyModule = (name: string): Module => ({
  name,
  dataTypes: [],
  synonyms: [],
  templates: [],
  interfaces: [],
});

type ChoiceSpec = {
  name: string;
  consuming?: boolean;
  /** The fields of a record of the choice's name; or a type of another package. */
  arg: readonly Field[] | DamlType;
  returns: DamlType;
};

type TemplateSpec = {
  name: string;
  fields: readonly Field[];
  key?: DamlType;
  choices: readonly ChoiceSpec[];
  implements?: readonly string[];
};

type InterfaceSpec = { name: string; view: DamlType; choices: readonly ChoiceSpec[] };

/** A module of templates and interfaces with the records the compiler makes for them. */
function moduleOf(
  name: string,
  {
    dataTypes = [],
    templates = [],
    interfaces = [],
  }: {
    dataTypes?: readonly DataType[];
    templates?: readonly TemplateSpec[];
    interfaces?: readonly InterfaceSpec[];
  },
): Module {
  const types: DataType[] = [...dataTypes];
  const choice = (spec: ChoiceSpec): Choice => {
    let argType: DamlType;
    if (Array.isArray(spec.arg)) {
      types.push(record(spec.name, spec.arg as readonly Field[]));
      argType = con(self(name, spec.name));
    } else {
      argType = spec.arg as DamlType;
    }
    return {
      name: spec.name,
      consuming: spec.consuming ?? true,
      argType,
      returnType: spec.returns,
    };
  };
  const ifaces: Interface[] = interfaces.map((spec) => {
    types.push({ kind: 'interface', name: spec.name, params: [], serializable: false });
    return {
      name: spec.name,
      tycon: self(name, spec.name),
      choices: spec.choices.map(choice),
      viewType: spec.view,
      requires: [],
    };
  });
  const tpls: Template[] = templates.map((spec) => {
    types.push(record(spec.name, spec.fields));
    return {
      name: spec.name,
      tycon: self(name, spec.name),
      fields: spec.fields,
      ...(spec.key ? { keyType: spec.key } : {}),
      choices: spec.choices.map(choice),
      implements: (spec.implements ?? []).map((iface) => self(name, iface)),
    };
  });
  return { name, dataTypes: types, synonyms: [], templates: tpls, interfaces: ifaces };
}

// ── The shared dependencies ──────────────────────────────────────────────────────────────────

/** Like daml-prim's `DA.Types`: the tuple and `Either`, generic records and variants. */
const PRIM_TYPES: PackageSpec = {
  name: 'fixture-prim-DA-Types',
  version: '1.0.0',
  modules: [
    moduleOf('DA.Types', {
      dataTypes: [
        record(
          'Tuple2',
          [
            field('_1', { kind: 'var', name: 'a', args: [] }),
            field('_2', { kind: 'var', name: 'b', args: [] }),
          ],
          ['a', 'b'],
        ),
        {
          kind: 'variant',
          name: 'Either',
          params: ['a', 'b'],
          serializable: true,
          constructors: [
            field('Left', { kind: 'var', name: 'a', args: [] }),
            field('Right', { kind: 'var', name: 'b', args: [] }),
          ],
        },
      ],
    }),
  ],
};
/** Like daml-stdlib's `DA.Internal.Template`: the argument of every template's `Archive`. */
const PRIM_TEMPLATE: PackageSpec = {
  name: 'fixture-prim-DA-Internal-Template',
  version: '1.0.0',
  modules: [moduleOf('DA.Internal.Template', { dataTypes: [record('Archive', [])] })],
};
const PRIM_TYPES_ID = fixturePackageId(PRIM_TYPES);
const PRIM_TEMPLATE_ID = fixturePackageId(PRIM_TEMPLATE);
const TUPLE2: TypeConName = { packageId: PRIM_TYPES_ID, module: 'DA.Types', name: 'Tuple2' };
const EITHER: TypeConName = { packageId: PRIM_TYPES_ID, module: 'DA.Types', name: 'Either' };
const ARCHIVE_ARG = con({
  packageId: PRIM_TEMPLATE_ID,
  module: 'DA.Internal.Template',
  name: 'Archive',
});
const ARCHIVE: ChoiceSpec = { name: 'Archive', arg: ARCHIVE_ARG, returns: UNIT };

/**
 * Like daml-stdlib, in two versions: the workflows DAR brings 1.0.0, the replication DAR 1.1.0
 * (a valid upgrade: one more data type), so one participant can hold both.
 */
function stdlib(version: '1.0.0' | '1.1.0'): PackageSpec {
  const dataTypes: DataType[] = [record('RelTime', [field('microseconds', INT64)])];
  const modules = [moduleOf('DA.Time.Types', { dataTypes })];
  if (version === '1.1.0') {
    const weekday: DataType = {
      kind: 'enum',
      name: 'DayOfWeek',
      params: [],
      serializable: true,
      constructors: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    };
    modules.push(moduleOf('DA.Date.Types', { dataTypes: [weekday] }));
  }
  return { name: 'fixture-stdlib', version, modules };
}
const REL_TIME = (stdlibVersion: '1.0.0' | '1.1.0') =>
  con({
    packageId: fixturePackageId(stdlib(stdlibVersion)),
    module: 'DA.Time.Types',
    name: 'RelTime',
  });

// ── workflows and replication ────────────────────────────────────────────────────────────────

function workflowsSpec(): PackageSpec {
  const PING = 'Fixture.Ping';
  const BONG = 'Fixture.Bong';
  const proposal = con(self(BONG, 'BongProposal'));
  const bong = con(self(BONG, 'Bong'));
  const id = field('id', TEXT);
  const initiator = field('initiator', PARTY);
  const responder = field('responder', PARTY);
  const validators = field('validators', list(PARTY));
  return {
    name: 'fixture-workflows',
    version: '1.0.0',
    modules: [
      moduleOf(PING, {
        templates: [
          {
            name: 'Ping',
            fields: [id, initiator, responder],
            choices: [
              { name: 'Respond', arg: [], returns: UNIT },
              ARCHIVE,
              { name: 'AbortPing', arg: [field('anyone', PARTY)], returns: UNIT },
            ],
          },
        ],
      }),
      moduleOf(BONG, {
        templates: [
          {
            name: 'BongProposal',
            fields: [id, initiator, validators, responder],
            choices: [
              { name: 'Accept', arg: [], returns: con(EITHER, cid(proposal), cid(bong)) },
              { name: 'AbortBongProposal', arg: [field('anyone', PARTY)], returns: UNIT },
              ARCHIVE,
            ],
          },
          {
            name: 'Bong',
            fields: [
              id,
              initiator,
              validators,
              responder,
              field('observers', list(PARTY)),
              field('timeout', prim('TIMESTAMP')),
            ],
            choices: [
              { name: 'Ack', consuming: false, arg: [field('validator', PARTY)], returns: UNIT },
              { name: 'AbortBong', arg: [field('anyone', PARTY)], returns: UNIT },
              ARCHIVE,
            ],
          },
        ],
      }),
      emptyModule('FixtureWorkflows'),
    ],
  };
}

function replicationSpec(): PackageSpec {
  const MODULE = 'Fixture.PartyReplication';
  const agreement = con(self(MODULE, 'PartyReplicationAgreement'));
  return {
    name: 'fixture-replication',
    version: '1.0.0',
    modules: [
      moduleOf(MODULE, {
        templates: [
          {
            name: 'PartyReplicationProposal',
            fields: [
              field('partyId', TEXT),
              field('sourceParticipant', PARTY),
              field('targetParticipant', PARTY),
              field('sequencerUids', list(TEXT)),
              field('topologySerial', INT64),
              field('waitFor', REL_TIME('1.1.0')),
            ],
            choices: [
              { name: 'Accept', arg: [field('sequencerUid', TEXT)], returns: cid(agreement) },
              { name: 'Reject', arg: [field('reason', TEXT)], returns: UNIT },
              ARCHIVE,
            ],
          },
          {
            name: 'PartyReplicationAgreement',
            fields: [
              field('partyId', TEXT),
              field('sourceParticipant', PARTY),
              field('targetParticipant', PARTY),
              field('sequencerUid', TEXT),
            ],
            choices: [{ name: 'Done', arg: [field('participant', PARTY)], returns: UNIT }, ARCHIVE],
          },
        ],
      }),
    ],
  };
}

// ── definitions ──────────────────────────────────────────────────────────────────────────────

const EXTERNAL = 'ExternalDep';

function definitionsDepSpec(): PackageSpec {
  const a: DamlType = { kind: 'var', name: 'a', args: [] };
  const someVariant = con(self(EXTERNAL, 'SomeVariant'));
  const paramRecord = (arg: DamlType) => con(self(EXTERNAL, 'SomeParamRecord'), arg);
  const iface = con(self(EXTERNAL, 'MyInterface'));
  return {
    name: 'fixture-definitions-dep',
    version: '1.0.0',
    modules: [
      moduleOf(EXTERNAL, {
        dataTypes: [
          {
            kind: 'variant',
            name: 'SomeVariant',
            params: [],
            serializable: true,
            constructors: [
              field('SomeNumber', INT64),
              field('SomeWord', TEXT),
              field('Nothing', UNIT),
            ],
          },
          record('SomeParamRecord', [field('foo', a)], ['a']),
          record('AnotherRecord', [field('someText', TEXT)]),
          record('MyInterfaceViewType', [field('name', TEXT), field('value', INT64)]),
        ],
        interfaces: [
          {
            name: 'MyInterface',
            view: con(self(EXTERNAL, 'MyInterfaceViewType')),
            choices: [
              { name: 'MyNonConsumingChoice', consuming: false, arg: [], returns: INT64 },
              {
                name: 'MyChoice',
                arg: [field('argument1', prim('BOOL')), field('argument2', INT64)],
                returns: con(TUPLE2, cid(iface), INT64),
              },
              ARCHIVE,
            ],
          },
        ],
        templates: [
          {
            name: 'TemplateFoo',
            fields: [
              field('owner', PARTY),
              field('someRecordField', someVariant),
              field('someRecordTyped', paramRecord(someVariant)),
            ],
            key: PARTY,
            choices: [
              ARCHIVE,
              { name: 'TemplateFoo_NoArgs_RetUnit', consuming: false, arg: [], returns: UNIT },
              {
                name: 'SourceTemplate_Args_RetRecord',
                arg: [field('choiceArg', paramRecord(prim('TIMESTAMP')))],
                returns: con(self(EXTERNAL, 'AnotherRecord')),
              },
            ],
          },
          {
            name: 'TemplateBar',
            fields: [field('owner', PARTY), field('anotherParty', PARTY), field('firstKey', INT64)],
            key: con(TUPLE2, PARTY, paramRecord(INT64)),
            choices: [ARCHIVE],
            implements: ['MyInterface'],
          },
        ],
      }),
    ],
  };
}

function definitionsMainSpec(depId: string): PackageSpec {
  const dep = (name: string): TypeConName => ({ packageId: depId, module: EXTERNAL, name });
  return {
    name: 'fixture-definitions',
    version: '1.0.0',
    modules: [
      moduleOf('MainApp', {
        templates: [
          {
            name: 'AllBuiltinTypesTemplate',
            fields: [
              field('someParty', PARTY),
              field('someInt', INT64),
              field('someDecimal', numeric(10)),
              field('someNumeric7', numeric(7)),
              field('someText', TEXT),
              field('someBool', prim('BOOL')),
              field('someDate', prim('DATE')),
              field('someTime', prim('TIMESTAMP')),
              field('relTime', REL_TIME('1.0.0')),
            ],
            choices: [ARCHIVE],
          },
          {
            name: 'MainTemplate',
            fields: [
              field('owner', PARTY),
              field('externalRecord', con(dep('SomeVariant'))),
              field('someMap', prim('GENMAP', TEXT, con(dep('AnotherRecord')))),
              field('someTextMap', prim('TEXTMAP', INT64)),
              field('maybeTags', opt(list(TEXT))),
            ],
            choices: [
              ARCHIVE,
              {
                name: 'MainTemplate_Rename',
                arg: [field('newName', TEXT)],
                returns: cid(con(self('MainApp', 'MainTemplate'))),
              },
            ],
          },
        ],
      }),
    ],
  };
}

// ── upgrades ─────────────────────────────────────────────────────────────────────────────────

const OWNER = field('owner', PARTY);
const AMOUNT = field('amount', INT64);

/** `upgrade-demo` at `version`: one template `Asset` of these fields, with a `Transfer` choice. */
function upgradeDemo(version: string, fields: readonly Field[]): PackageSpec {
  return {
    name: 'upgrade-demo',
    version,
    modules: [
      moduleOf('Main', {
        templates: [
          {
            name: 'Asset',
            fields,
            choices: [
              {
                name: 'Transfer',
                arg: [field('newOwner', PARTY)],
                returns: cid(con(self('Main', 'Asset'))),
              },
            ],
          },
        ],
      }),
    ],
  };
}

// ── large ────────────────────────────────────────────────────────────────────────────────────

const LARGE_DEPENDENCIES = 29;
const LARGE_MODULES = 6;
const LARGE_TEMPLATES = 8;

/**
 * Thirty packages, each of several modules of templates with a dozen fields and a few choices:
 * about the package count and decoding work of Canton's builtin DARs, for the benchmarks.
 */
function largeDar(): FixtureDar {
  const packageOf = (name: string, refs: readonly TypeConName[]): PackageSpec => ({
    name,
    version: '1.0.0',
    modules: Array.from({ length: LARGE_MODULES }, (_, m) => {
      const moduleName = `Large.Module${String(m)}`;
      const detail = self(moduleName, 'Detail');
      return moduleOf(moduleName, {
        dataTypes: [
          record('Detail', [field('label', TEXT), field('weight', numeric(10))]),
          {
            kind: 'variant',
            name: 'State',
            params: [],
            serializable: true,
            constructors: [field('Open', UNIT), field('Closed', TEXT), field('Moved', PARTY)],
          },
        ],
        templates: Array.from({ length: LARGE_TEMPLATES }, (_, t) => {
          const template = `Item${String(t)}`;
          return {
            name: template,
            fields: [
              field('owner', PARTY),
              field('observers', list(PARTY)),
              field('name', TEXT),
              field('count', INT64),
              field('price', numeric(10)),
              field('created', prim('TIMESTAMP')),
              field('due', prim('DATE')),
              field('tags', prim('TEXTMAP', TEXT)),
              field('details', list(con(detail))),
              field('state', con(self(moduleName, 'State'))),
              field('note', opt(TEXT)),
              ...refs.map((ref, i) => field(`ref${String(i)}`, opt(con(ref)))),
            ],
            key: con(TUPLE2, PARTY, TEXT),
            choices: [
              {
                name: `${template}_Transfer`,
                arg: [field('newOwner', PARTY)],
                returns: cid(con(self(moduleName, template))),
              },
              {
                name: `${template}_Inspect`,
                consuming: false,
                arg: [],
                returns: list(con(detail)),
              },
              {
                name: `${template}_Close`,
                arg: [field('reason', TEXT), field('at', prim('TIMESTAMP'))],
                returns: UNIT,
              },
              ARCHIVE,
            ],
          };
        }),
      });
    }),
  });
  const deps = Array.from({ length: LARGE_DEPENDENCIES - 2 }, (_, i) =>
    packageOf(`fixture-large-dep-${String(i).padStart(2, '0')}`, []),
  );
  // The main package refers to a type of each dependency, as an application uses its libraries.
  const refs = deps.map((spec): TypeConName => ({
    packageId: fixturePackageId(spec),
    module: 'Large.Module0',
    name: 'Detail',
  }));
  return dar(packageOf('fixture-large', refs), [...deps, PRIM_TYPES, PRIM_TEMPLATE]);
}
