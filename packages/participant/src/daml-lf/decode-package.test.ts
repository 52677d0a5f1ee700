import { describe, expect, it } from 'vitest';
import { DarError } from './dar-error';
import {
  decodeArchivePayload,
  packageSummary,
  readArchivePayload,
  toPackageSummary,
} from './decode-package';
import { formatType } from './format-type';
import type { DamlType, DecodedPackage, PrimType } from './package-model';
import { ProtobufWriter } from './protobuf-writer';

// Hand-built LF 2 packages, written with the field numbers of daml_lf2.proto, so each type and
// definition shape is covered independently of what the compiler happens to emit.

type Msg = (w: ProtobufWriter) => void;

const SELF_ID = 'a'.repeat(64);
const OTHER_ID = 'b'.repeat(64);
const IMPORTED_ID = 'c'.repeat(64);

/** BuiltinType enum values. */
const B = {
  UNIT: 0,
  BOOL: 1,
  INT64: 2,
  NUMERIC: 5,
  PARTY: 6,
  TEXT: 7,
  CONTRACT_ID: 8,
  OPTIONAL: 9,
  LIST: 10,
  GENMAP: 11,
};

/** Interning tables, filled as the test package is written. */
class Tables {
  readonly strings: string[] = [];
  readonly dotted: number[][] = [];
  readonly types: Msg[] = [];

  str(text: string): number {
    const at = this.strings.indexOf(text);
    if (at >= 0) return at;
    this.strings.push(text);
    return this.strings.length - 1;
  }

  dname(name: string): number {
    const segments = name.split('.').map((s) => this.str(s));
    const at = this.dotted.findIndex((d) => d.join() === segments.join());
    if (at >= 0) return at;
    this.dotted.push(segments);
    return this.dotted.length - 1;
  }
}

/** Type builders: each returns the *content* of a `Type` message. */
function typeBuilders(t: Tables) {
  const packageRef =
    (ref: 'self' | { interned: string } | { importIndex: number }): Msg =>
    (w) => {
      if (ref === 'self') w.message(1, () => undefined);
      else if ('interned' in ref) w.varint(3, t.str(ref.interned));
      else w.varint(4, ref.importIndex);
    };
  const tyconId =
    (module: string, name: string, ref: Parameters<typeof packageRef>[0] = 'self'): Msg =>
    (w) => {
      w.message(1, (m) => m.message(1, packageRef(ref)).varint(2, t.dname(module)));
      w.varint(2, t.dname(name));
    };
  const args = (w: ProtobufWriter, list: Msg[]) => {
    for (const arg of list) w.message(2, arg);
  };
  return {
    tyconId,
    builtin:
      (code: number, ...list: Msg[]): Msg =>
      (w) => {
        w.message(3, (b) => {
          b.varint(1, code);
          args(b, list);
        });
      },
    con:
      (
        module: string,
        name: string,
        ref: Parameters<typeof packageRef>[0] = 'self',
        ...list: Msg[]
      ): Msg =>
      (w) => {
        w.message(2, (c) => {
          c.message(1, tyconId(module, name, ref));
          args(c, list);
        });
      },
    syn:
      (module: string, name: string, ...list: Msg[]): Msg =>
      (w) => {
        w.message(7, (s) => {
          s.message(1, tyconId(module, name));
          args(s, list);
        });
      },
    tvar:
      (name: string, ...list: Msg[]): Msg =>
      (w) => {
        w.message(1, (v) => {
          v.varint(3, t.str(name));
          args(v, list);
        });
      },
    nat:
      (n: number): Msg =>
      (w) =>
        w.zigzag(6, n),
    interned:
      (index: number): Msg =>
      (w) =>
        w.varint(8, index),
    tapp:
      (lhs: Msg, rhs: Msg): Msg =>
      (w) => {
        w.message(9, (a) => a.message(1, lhs).message(2, rhs));
      },
    forall:
      (vars: string[], body: Msg): Msg =>
      (w) => {
        w.message(4, (f) => {
          for (const v of vars)
            f.message(1, (k) =>
              k.varint(3, t.str(v)).message(2, (kind) => kind.message(1, () => undefined)),
            );
          f.message(2, body);
        });
      },
    struct:
      (fields: [string, Msg][]): Msg =>
      (w) => {
        w.message(5, (s) => {
          for (const [name, type] of fields)
            s.message(1, (f) => f.varint(3, t.str(name)).message(2, type));
        });
      },
  };
}

function fieldsMsg(t: Tables, fields: [string, Msg][]): Msg {
  return (w) => {
    for (const [name, type] of fields)
      w.message(1, (f) => f.varint(3, t.str(name)).message(2, type));
  };
}

type PackageParts = {
  tables: Tables;
  modules: Msg[];
  metadata?: Msg;
  imports?: string[];
};

function encodePackage({ tables, modules, metadata, imports }: PackageParts): Uint8Array {
  // Render everything that interns strings first: the tables must be complete when written.
  const render = (msg: Msg) => {
    const inner = new ProtobufWriter();
    msg(inner);
    return inner.finish();
  };
  const moduleBytes = modules.map(render);
  const metadataBytes = metadata && render(metadata);
  const typeBytes = tables.types.map(render);
  const w = new ProtobufWriter();
  for (const module of moduleBytes) w.bytes(1, module);
  for (const s of tables.strings) w.string(2, s);
  for (const d of tables.dotted) w.message(3, (n) => n.packed(1, d));
  if (metadataBytes) w.bytes(4, metadataBytes);
  for (const type of typeBytes) w.bytes(5, type);
  if (imports) {
    w.message(9, (p) => {
      for (const id of imports) p.string(1, id);
    });
  }
  return w.finish();
}

function archivePayload(packageBytes: Uint8Array, minor = '2', major: 1 | 2 = 2): Uint8Array {
  const w = new ProtobufWriter().string(3, minor);
  return (major === 2 ? w.bytes(4, packageBytes) : w.bytes(2, packageBytes)).finish();
}

/** The test package: one module with every kind of definition and every type shape. */
function buildRichPackage(): Uint8Array {
  const t = new Tables();
  const ty = typeBuilders(t);
  const M = 'Main.Sub';
  const meta: Msg = (w) => {
    w.varint(1, t.str('rich-package')).varint(2, t.str('1.2.3'));
    w.message(3, (u) => u.varint(1, t.str(OTHER_ID)));
  };
  // Interned type 0 = Text, 1 = List (interned 0): interned types may refer to earlier ones.
  t.types.push(ty.builtin(B.TEXT), ty.builtin(B.LIST, ty.interned(0)));

  const dataType =
    (name: string, body: Msg, params: string[] = [], serializable = true): Msg =>
    (w) => {
      w.varint(2, t.dname(name));
      for (const p of params) w.message(3, (k) => k.varint(3, t.str(p)));
      w.bool(4, serializable);
      body(w);
    };
  const record = (name: string, fields: [string, Msg][], params: string[] = []) =>
    dataType(name, (w) => w.message(5, fieldsMsg(t, fields)), params);
  const choice =
    (name: string, consuming: boolean, arg: Msg, ret: Msg): Msg =>
    (w) => {
      w.message(1, (loc) => loc.message(2, (r) => r.varint(1, 3)));
      w.varint(2, t.str(name));
      w.bool(3, consuming);
      w.message(4, (e) => e.varint(2, t.str('controllers'))); // an expression we must skip
      w.message(6, (b) => b.varint(3, t.str('arg')).message(2, arg));
      w.message(8, ret);
      w.message(9, (e) => e.message(23, (u) => u.message(6, () => undefined)));
      w.varint(10, t.str('self'));
    };
  const assetCon = ty.con(M, 'Asset');

  const module: Msg = (w) => {
    w.varint(1, t.dname(M));
    w.message(2, (f) => f.bool(1, true).bool(2, true).bool(3, true));
    // synonyms: Alias a = List a
    w.message(3, (s) => {
      s.varint(2, t.dname('Alias'));
      s.message(3, (k) => k.varint(3, t.str('a')));
      s.message(4, ty.builtin(B.LIST, ty.tvar('a')));
    });
    w.message(
      4,
      record('Asset', [
        ['owner', ty.builtin(B.PARTY)],
        ['amount', ty.builtin(B.NUMERIC, ty.nat(10))],
        ['tags', ty.interned(1)],
        ['self', ty.builtin(B.OPTIONAL, ty.builtin(B.CONTRACT_ID, assetCon))],
        ['other', ty.con('Other.Mod', 'Thing', { interned: OTHER_ID })],
        ['imported', ty.con('Imp', 'Thing', { importIndex: 0 })],
        ['map', ty.tapp(ty.tapp(ty.builtin(B.GENMAP), ty.builtin(B.TEXT)), ty.builtin(B.INT64))],
        ['alias', ty.syn(M, 'Alias', ty.builtin(B.PARTY))],
        ['struct', ty.struct([['x', ty.builtin(B.INT64)]])],
      ]),
    );
    w.message(4, record('Box', [['value', ty.tvar('a')]], ['a']));
    w.message(
      4,
      dataType('Shape', (d) =>
        d.message(
          6,
          fieldsMsg(t, [
            ['Circle', ty.builtin(B.INT64)],
            ['Square', ty.builtin(B.UNIT)],
          ]),
        ),
      ),
    );
    w.message(
      4,
      dataType('Color', (d) => d.message(7, (e) => e.packed(2, [t.str('Red'), t.str('Green')]))),
    );
    w.message(4, record('Transfer', [['newOwner', ty.builtin(B.PARTY)]]));
    w.message(4, record('Peek', []));
    w.message(
      4,
      dataType('IAsset', (d) => d.message(8, () => undefined), [], false),
    );
    w.message(4, record('IAssetView', [['owner', ty.builtin(B.PARTY)]]));
    // values: constants whose declared type fits, and one the check must not judge (a con type)
    const value =
      (name: string, type: Msg, expr: Msg): Msg =>
      (v) => {
        v.message(2, (n) => n.varint(1, t.dname(name)).message(2, type));
        v.message(3, expr);
      };
    w.message(
      5,
      value('yes', ty.builtin(B.BOOL), (e) => e.varint(5, 2)),
    );
    w.message(
      5,
      value('unit', ty.builtin(B.UNIT), (e) => e.message(1, () => undefined).varint(5, 0)),
    );
    w.message(
      5,
      value('text', ty.interned(0), (e) => e.message(6, (l) => l.varint(4, t.str('hi')))),
    );
    w.message(
      5,
      value('opaque', assetCon, (e) => e.varint(5, 0)),
    );
    w.message(
      5,
      value('fn', ty.builtin(B.INT64), (e) => e.varint(2, t.str('y'))),
    );
    // template Asset with key Party, implementing IAsset
    w.message(6, (tpl) => {
      tpl.varint(1, t.dname('Asset'));
      tpl.varint(2, t.str('this'));
      tpl.message(4, (e) => e.varint(2, t.str('this')));
      tpl.message(
        6,
        choice('Transfer', true, ty.con(M, 'Transfer'), ty.builtin(B.CONTRACT_ID, assetCon)),
      );
      tpl.message(6, choice('Peek', false, ty.con(M, 'Peek'), ty.forall(['r'], ty.tvar('r'))));
      tpl.message(9, (k) =>
        k.message(1, ty.builtin(B.PARTY)).message(4, (e) => e.varint(2, t.str('k'))),
      );
      tpl.message(10, (i) => i.message(1, ty.tyconId(M, 'IAsset')).message(2, () => undefined));
    });
    w.message(8, (i) => {
      i.varint(2, t.dname('IAsset'));
      i.message(3, (m) => m.varint(2, t.str('method')).message(3, ty.builtin(B.TEXT)));
      i.message(5, choice('Poke', false, ty.builtin(B.UNIT), ty.builtin(B.INT64)));
      i.message(6, ty.con(M, 'IAssetView'));
      i.message(7, ty.tyconId('Base', 'IBase', { interned: OTHER_ID }));
    });
    // an exception definition, skipped
    w.message(7, (x) => x.varint(1, t.dname('Oops')));
  };
  // Intern the module name first so that index 0 is not the module (exercises lookups).
  t.str('padding');
  return archivePayload(
    encodePackage({ tables: t, modules: [module], metadata: meta, imports: [IMPORTED_ID] }),
  );
}

const prim = (name: PrimType, ...args: DamlType[]): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const self = (module: string, name: string) => ({ packageId: SELF_ID, module, name });

describe('decodeArchivePayload', () => {
  const pkg: DecodedPackage = decodeArchivePayload(buildRichPackage(), SELF_ID);
  const module = pkg.modules[0];
  if (!module) throw new Error('the test package has a module');

  it('reads the metadata, the LF version and the interned tables', () => {
    expect(pkg).toMatchObject({
      packageId: SELF_ID,
      name: 'rich-package',
      version: '1.2.3',
      upgradedPackageId: OTHER_ID,
      lfVersion: { major: 2, minor: '2', patch: 0 },
      importedPackages: [IMPORTED_ID],
    });
    expect(pkg.internedStrings).toContain('rich-package');
    expect(pkg.internedDottedNames).toContainEqual(['Main', 'Sub']);
    expect(module.name).toBe('Main.Sub');
  });

  it('decodes records with every type shape, resolving interned and self references', () => {
    const asset = module.dataTypes.find((d) => d.name === 'Asset');
    expect(asset).toEqual({
      name: 'Asset',
      params: [],
      serializable: true,
      kind: 'record',
      fields: [
        { name: 'owner', type: prim('PARTY') },
        { name: 'amount', type: prim('NUMERIC', { kind: 'nat', value: 10 }) },
        { name: 'tags', type: prim('LIST', prim('TEXT')) },
        {
          name: 'self',
          type: prim(
            'OPTIONAL',
            prim('CONTRACT_ID', { kind: 'con', tycon: self('Main.Sub', 'Asset'), args: [] }),
          ),
        },
        {
          name: 'other',
          type: {
            kind: 'con',
            tycon: { packageId: OTHER_ID, module: 'Other.Mod', name: 'Thing' },
            args: [],
          },
        },
        {
          name: 'imported',
          type: {
            kind: 'con',
            tycon: { packageId: IMPORTED_ID, module: 'Imp', name: 'Thing' },
            args: [],
          },
        },
        // TApp (TApp GenMap Text) Int64 is folded into one application.
        { name: 'map', type: prim('GENMAP', prim('TEXT'), prim('INT64')) },
        {
          name: 'alias',
          type: { kind: 'syn', tysyn: self('Main.Sub', 'Alias'), args: [prim('PARTY')] },
        },
        { name: 'struct', type: { kind: 'struct', fields: [{ name: 'x', type: prim('INT64') }] } },
      ],
    });
  });

  it('decodes parameterised records, variants, enums and interface data types', () => {
    const byName = new Map(module.dataTypes.map((d) => [d.name, d]));
    expect(byName.get('Box')).toMatchObject({
      kind: 'record',
      params: ['a'],
      fields: [{ name: 'value', type: { kind: 'var', name: 'a', args: [] } }],
    });
    expect(byName.get('Shape')).toMatchObject({
      kind: 'variant',
      constructors: [
        { name: 'Circle', type: prim('INT64') },
        { name: 'Square', type: prim('UNIT') },
      ],
    });
    expect(byName.get('Color')).toMatchObject({ kind: 'enum', constructors: ['Red', 'Green'] });
    expect(byName.get('IAsset')).toMatchObject({ kind: 'interface', serializable: false });
    expect(byName.get('Peek')).toMatchObject({ kind: 'record', fields: [] });
  });

  it('decodes type synonyms', () => {
    expect(module.synonyms).toEqual([
      { name: 'Alias', params: ['a'], type: prim('LIST', { kind: 'var', name: 'a', args: [] }) },
    ]);
  });

  it('decodes templates: argument fields from the record, key, choices and interface instances', () => {
    expect(module.templates).toHaveLength(1);
    const [template] = module.templates;
    expect(template?.name).toBe('Asset');
    expect(template?.tycon).toEqual(self('Main.Sub', 'Asset'));
    expect(template?.fields.map((f) => f.name)).toEqual(
      module.dataTypes.find((d) => d.name === 'Asset' && d.kind === 'record') && [
        'owner',
        'amount',
        'tags',
        'self',
        'other',
        'imported',
        'map',
        'alias',
        'struct',
      ],
    );
    expect(template?.keyType).toEqual(prim('PARTY'));
    expect(template?.implements).toEqual([self('Main.Sub', 'IAsset')]);
    expect(
      template?.choices.map((c) => [
        c.name,
        c.consuming,
        formatType(c.argType),
        formatType(c.returnType),
      ]),
    ).toEqual([
      ['Transfer', true, 'Main.Sub:Transfer', 'ContractId Main.Sub:Asset'],
      ['Peek', false, 'Main.Sub:Peek', 'forall r. r'],
    ]);
  });

  it('decodes interfaces with their choices, view and required interfaces', () => {
    expect(module.interfaces).toEqual([
      {
        name: 'IAsset',
        tycon: self('Main.Sub', 'IAsset'),
        choices: [
          { name: 'Poke', consuming: false, argType: prim('UNIT'), returnType: prim('INT64') },
        ],
        viewType: { kind: 'con', tycon: self('Main.Sub', 'IAssetView'), args: [] },
        requires: [{ packageId: OTHER_ID, module: 'Base', name: 'IBase' }],
      },
    ]);
  });

  it('summarises the same names whether from bytes or from the decoded package', () => {
    const summary = packageSummary(buildRichPackage(), SELF_ID);
    expect(summary).toEqual(toPackageSummary(pkg));
    expect(summary.modules).toEqual([
      {
        name: 'Main.Sub',
        templates: [{ name: 'Asset', choices: ['Transfer', 'Peek'] }],
        interfaces: [{ name: 'IAsset', choices: ['Poke'] }],
      },
    ]);
  });
});

describe('readArchivePayload', () => {
  it('reports the LF version of LF 1 and LF 2 payloads without decoding them', () => {
    const lf1 = readArchivePayload(archivePayload(Uint8Array.from([1, 2, 3]), '15', 1));
    expect(lf1.lfVersion).toEqual({ major: 1, minor: '15', patch: 0 });
    expect(lf1.packageBytes).toEqual(Uint8Array.from([1, 2, 3]));
    const dev = new ProtobufWriter()
      .string(3, 'dev')
      .varint(5, 4)
      .bytes(4, new Uint8Array())
      .finish();
    expect(readArchivePayload(dev).lfVersion).toEqual({ major: 2, minor: 'dev', patch: 4 });
  });

  it('rejects a payload without a package', () => {
    expect(() => readArchivePayload(new ProtobufWriter().string(3, '1').finish())).toThrow(
      expect.objectContaining({ reason: 'CORRUPT_ARCHIVE' }),
    );
  });
});

describe('decodeArchivePayload rejects', () => {
  /** A package with one module built by `module`, sharing tables `t`. */
  function payloadWith(
    build: (t: Tables, ty: ReturnType<typeof typeBuilders>) => Msg,
    withMetadata = true,
  ): Uint8Array {
    const t = new Tables();
    const ty = typeBuilders(t);
    const module = build(t, ty);
    const metadata: Msg = (w) => w.varint(1, t.str('p')).varint(2, t.str('1.0.0'));
    return archivePayload(
      encodePackage({ tables: t, modules: [module], ...(withMetadata ? { metadata } : {}) }),
    );
  }

  function decodeError(payload: Uint8Array): DarError {
    try {
      decodeArchivePayload(payload, SELF_ID);
    } catch (error) {
      expect(error).toBeInstanceOf(DarError);
      return error as DarError;
    }
    throw new Error('expected decoding to fail');
  }

  it('LF 1.x payloads as UNSUPPORTED_LF_VERSION, naming the version', () => {
    const error = decodeError(archivePayload(Uint8Array.from([0x0a, 0x00]), '15', 1));
    expect(error.reason).toBe('UNSUPPORTED_LF_VERSION');
    expect(error.details).toEqual({ packageId: SELF_ID, lfVersion: '1.15' });
    expect(error.message).toMatch(/Daml-LF 1\.15 is not supported/);
  });

  it('truncated bytes as CORRUPT_ARCHIVE', () => {
    const payload = buildRichPackage();
    const error = decodeError(payload.subarray(0, payload.length - 7));
    expect(error.reason).toBe('CORRUPT_ARCHIVE');
    expect(error.details.packageId).toBe(SELF_ID);
  });

  it('an interned string index out of range as CORRUPT_ARCHIVE', () => {
    const error = decodeError(
      payloadWith((t) => (w) => w.varint(1, t.dname('M')).message(4, (d) => d.varint(2, 99))),
    );
    expect(error.reason).toBe('CORRUPT_ARCHIVE');
    expect(error.message).toMatch(/interned dotted name 99 does not exist/);
  });

  it('an unknown builtin type as CORRUPT_ARCHIVE', () => {
    const error = decodeError(
      payloadWith((t, ty) => (w) => {
        w.varint(1, t.dname('M'));
        w.message(4, (d) =>
          d.varint(2, t.dname('R')).message(5, fieldsMsg(t, [['f', ty.builtin(12)]])),
        );
      }),
    );
    expect(error.message).toMatch(/unknown builtin type 12/);
  });

  it('an interned type that refers to itself as CORRUPT_ARCHIVE', () => {
    const error = decodeError(
      payloadWith((t, ty) => {
        t.types.push(ty.builtin(B.LIST, ty.interned(0)));
        return (w) => {
          w.varint(1, t.dname('M'));
          w.message(4, (d) =>
            d.varint(2, t.dname('R')).message(5, fieldsMsg(t, [['f', ty.interned(0)]])),
          );
        };
      }),
    );
    expect(error.message).toMatch(/interned type 0 refers to itself/);
  });

  it('absurdly deep types as CORRUPT_ARCHIVE rather than a stack overflow', () => {
    const error = decodeError(
      payloadWith((t, ty) => {
        let deep: Msg = ty.builtin(B.TEXT);
        for (let i = 0; i < 600; i++) deep = ty.builtin(B.LIST, deep);
        return (w) => {
          w.varint(1, t.dname('M'));
          w.message(4, (d) => d.varint(2, t.dname('R')).message(5, fieldsMsg(t, [['f', deep]])));
        };
      }),
    );
    expect(error.message).toMatch(/nest deeper than/);
  });

  it('a package without metadata as CORRUPT_ARCHIVE', () => {
    const error = decodeError(payloadWith((t) => (w) => w.varint(1, t.dname('M')), false));
    expect(error.message).toMatch(/no metadata/);
  });

  it('a template without a record of its name as VALIDATION_FAILED', () => {
    const error = decodeError(
      payloadWith(
        (t) => (w) => w.varint(1, t.dname('M')).message(6, (x) => x.varint(1, t.dname('T'))),
      ),
    );
    expect(error.reason).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(/Template M:T has no record data type/);
  });

  it.each([
    [
      'True declared as Unit',
      B.UNIT,
      (w: ProtobufWriter) => w.varint(5, 2),
      /declared as Unit but defined as True/,
    ],
    [
      'a text literal declared as Int64',
      B.INT64,
      (w: ProtobufWriter) => w.message(6, (l) => l.varint(4, 0)),
      /declared as Int64 but defined as a Text literal/,
    ],
  ])(
    'a constant of the wrong builtin type (%s) as VALIDATION_FAILED',
    (_name, declared, expr, message) => {
      const error = decodeError(
        payloadWith((t, ty) => (w) => {
          w.varint(1, t.dname('M'));
          w.message(5, (v) =>
            v
              .message(2, (n) => n.varint(1, t.dname('x')).message(2, ty.builtin(declared)))
              .message(3, expr),
          );
        }),
      );
      expect(error.reason).toBe('VALIDATION_FAILED');
      expect(error.message).toMatch(message);
    },
  );
});
