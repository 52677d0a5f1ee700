/**
 * Encodes a package described by the model of package-model.ts as a Daml-LF 2.1 `ArchivePayload`:
 * the inverse of decode-package.ts for declarations. The sandbox uses it to ship its built-in
 * packages as real archives, so their ids are true hashes and the console decodes them like any
 * uploaded DAR.
 *
 * What is encoded: metadata, modules, type synonyms, record/variant/enum/interface data types,
 * templates (fields, key type, choices with argument and return types, instances of interfaces of
 * the same package, in any of its modules), interfaces (view type, choices, required interfaces, no methods: the model
 * keeps none) and top-level constant values (`x : t = <literal>`, the one kind of definition the
 * decoder checks; see `ConstantSpec`). Strings, dotted names and types are interned, as LF 2
 * requires; every `Type` outside the interned table is an `interned_type` reference, and table
 * entries only refer to earlier entries. An LF 1.x payload can be written too, for packages
 * without definitions only (see `EncodeOptions`): readers must reject those, so tests need them.
 *
 * What is not: interface methods and instances of another package's interface (the model keeps
 * neither methods nor foreign view types), higher-kinded type parameters (the model keeps no
 * kinds: every parameter is `*`), and real expressions. The sandbox runs its built-in templates in
 * TypeScript, never from LF, so every expression a template or choice requires is the placeholder
 * `ERROR @t "…"`: well-typed wherever an expression of type `t` is expected, and failing loudly
 * should an LF engine ever evaluate it.
 *
 * Field numbers come from daml_lf.proto / daml_lf2.proto (reference material in shared/spec).
 */

import { zipSync } from 'fflate';
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
  TypeSynonym,
} from './package-model';
import { BUILTIN_TYPES } from './decode-package';
import { ProtobufWriter } from './protobuf-writer';

export type PackageSpec = {
  /** Package metadata name, e.g. `sandbox-demo`. */
  name: string;
  /** Package metadata version, e.g. `1.0.0`. */
  version: string;
  /**
   * The modules, as the decoder would return them. A `TypeConName` whose `packageId` is `''`
   * means "this package": its id is the hash of the payload, so it cannot be known up front.
   * A template's `tycon` and `fields` must match its module, name and record data type.
   */
  modules: readonly Module[];
  /** Top-level values of the modules, each `name : type = value`. */
  values?: readonly ConstantSpec[];
};

/**
 * A top-level value whose body is a builtin constant. Nothing checks that `value` has `type`:
 * a mismatch is how a test builds a package that parses but does not type-check (as Canton's own
 * `illformed.dar` does with `Mod:x : Bool = ()`).
 */
export type ConstantSpec = {
  /** The module it belongs to: one of the spec's modules. */
  module: string;
  /** Dotted name within the module. */
  name: string;
  type: DamlType;
  value:
    | { kind: 'unit' }
    | { kind: 'bool'; value: boolean }
    | { kind: 'int64'; value: bigint }
    | { kind: 'text'; value: string };
};

export type EncodeOptions = {
  /**
   * The Daml-LF version written; default 2.1. Major 1 (e.g. `{ major: 1, minor: '15' }`) writes
   * a `daml_lf_1` payload, for tests of its rejection: only for specs whose modules define
   * nothing, since LF 1 lays definitions out otherwise (the modules keep just their names).
   */
  lfVersion?: { major: 1 | 2; minor: string };
};

/** The minor version written by default; the decoder reads it back as `2.1`. */
const LF_MINOR_VERSION = '1';

/**
 * The decoder's `BuiltinType` table turned around, minus the 2.dev-only types (codes from 1000
 * up) that LF 2.1 cannot carry.
 */
const BUILTIN_CODES: ReadonlyMap<PrimType, number> = new Map(
  Object.entries(BUILTIN_TYPES)
    .filter(([code]) => Number(code) < 1000)
    .map(([code, prim]) => [prim, Number(code)]),
);

/** `BuiltinCon` (daml_lf2.proto): the constants `()`, `False` and `True`. */
const CON_UNIT = 0;
const CON_FALSE = 1;
const CON_TRUE = 2;

/** `BuiltinFunction.ERROR : ∀a. Text → a`. */
const BUILTIN_ERROR = 1;
/** The largest `NUMERIC` scale. */
const MAX_NAT = 37;

const PLACEHOLDER_MESSAGE =
  'placeholder: this package is executed by the sandbox in TypeScript, not by a Daml-LF engine';

/** Binder names the templates and choices declare; no placeholder refers to them. */
const TEMPLATE_BINDER = 'this';
const CHOICE_ARG_BINDER = 'arg';
const CHOICE_SELF_BINDER = 'self';

const prim = (name: PrimType, ...args: DamlType[]): DamlType => ({
  kind: 'prim',
  prim: name,
  args,
});
const PARTIES = prim('LIST', prim('PARTY'));

/**
 * The `ArchivePayload` bytes of an LF 2.1 package. Deterministic: the same spec always gives the
 * same bytes, hence the same package id.
 *
 * @throws Error when the spec uses what LF 2.1 or this encoder cannot express (see the file
 *   comment), or refers to a data type of this package that the spec does not define.
 */
export function encodePackagePayload(spec: PackageSpec, options: EncodeOptions = {}): Uint8Array {
  const { major, minor } = options.lfVersion ?? { major: 2, minor: LF_MINOR_VERSION };
  const encoder = new PackageEncoder(spec);
  if (major === 1) {
    return new ProtobufWriter()
      .bytes(2, encoder.encodeLf1()) // bytes daml_lf_1
      .string(3, minor) // string minor
      .finish();
  }
  return new ProtobufWriter()
    .string(3, minor) // string minor
    .bytes(4, encoder.encode()) // bytes daml_lf_2
    .finish();
}

// ── Package ────────────────────────────────────────────────────────────────────────────────────

class PackageEncoder {
  private readonly strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();
  private readonly dottedNames: number[][] = [];
  private readonly dottedIndex = new Map<string, number>();
  private readonly types: Uint8Array[] = [];
  private readonly typeIndex = new Map<string, number>();
  /** `Module:Name` of the spec's data types and synonyms, to check self references. */
  private readonly selfDataTypes = new Set<string>();
  private readonly selfSynonyms = new Set<string>();
  /** View types of the spec's interfaces by `Module:Name`: an instance may be in any module. */
  private readonly views = new Map<string, DamlType>();

  constructor(private readonly spec: PackageSpec) {
    for (const module of spec.modules) {
      for (const dataType of module.dataTypes) {
        this.selfDataTypes.add(`${module.name}:${dataType.name}`);
      }
      for (const synonym of module.synonyms) {
        this.selfSynonyms.add(`${module.name}:${synonym.name}`);
      }
      for (const iface of module.interfaces) {
        if (iface.viewType) this.views.set(`${module.name}:${iface.name}`, iface.viewType);
      }
    }
  }

  encode(): Uint8Array {
    // Interned first, so the metadata's strings lead the table whatever the modules hold.
    const name = this.str(this.spec.name);
    const version = this.str(this.spec.version);
    const moduleNames = new Set(this.spec.modules.map((module) => module.name));
    for (const value of this.spec.values ?? []) {
      if (!moduleNames.has(value.module)) {
        throw new Error(
          `Value ${value.module}:${value.name}: the spec has no module ${value.module}`,
        );
      }
    }
    const modules = this.spec.modules.map((module) => this.module(module));
    return this.packageMessage(name, version, modules);
  }

  /**
   * An LF 1 `Package`: the same tables and metadata as LF 2, and modules that hold only their
   * name (`name_interned_dname = 8` in LF 1, as Canton's `dummy-1.15.dar` has it).
   */
  encodeLf1(): Uint8Array {
    const name = this.str(this.spec.name);
    const version = this.str(this.spec.version);
    const modules = this.spec.modules.map((module) => {
      const defines =
        module.dataTypes.length +
        module.synonyms.length +
        module.templates.length +
        module.interfaces.length;
      if (defines > 0 || (this.spec.values ?? []).length > 0) {
        throw new Error(`Module ${module.name}: LF 1 packages are written without definitions`);
      }
      const w = new ProtobufWriter();
      int(w, 8, this.dname(module.name));
      return w.finish();
    });
    return this.packageMessage(name, version, modules);
  }

  private packageMessage(name: number, version: number, modules: readonly Uint8Array[]) {
    const w = new ProtobufWriter();
    for (const module of modules) w.bytes(1, module); // repeated Module modules
    for (const text of this.strings) w.string(2, text); // repeated string interned_strings
    for (const segments of this.dottedNames) {
      // repeated InternedDottedName interned_dotted_names { repeated int32 segments = 1 }
      w.message(3, (d) => d.packed(1, segments));
    }
    // PackageMetadata metadata { name_interned_str = 1, version_interned_str = 2 }
    w.message(4, (m) => {
      int(m, 1, name);
      int(m, 2, version);
    });
    for (const type of this.types) w.bytes(5, type); // repeated Type interned_types
    return w.finish();
  }

  // ── Interning ──

  private str(text: string): number {
    let index = this.stringIndex.get(text);
    if (index === undefined) {
      index = this.strings.push(text) - 1;
      this.stringIndex.set(text, index);
    }
    return index;
  }

  private dname(name: string): number {
    const segments = name.split('.').map((segment) => this.str(segment));
    const key = segments.join(',');
    let index = this.dottedIndex.get(key);
    if (index === undefined) {
      index = this.dottedNames.push(segments) - 1;
      this.dottedIndex.set(key, index);
    }
    return index;
  }

  /**
   * Interns a type and returns its index. Its parts are interned first, so an entry only refers
   * to earlier ones; the entry's bytes are its identity, so equal types share one entry.
   */
  private type(type: DamlType): number {
    const w = new ProtobufWriter();
    this.typeBody(w, type);
    const bytes = w.finish();
    const key = bytes.join(',');
    let index = this.typeIndex.get(key);
    if (index === undefined) {
      index = this.types.push(bytes) - 1;
      this.typeIndex.set(key, index);
    }
    return index;
  }

  /** A `Type` field holding a reference into the interned table (a oneof: 0 is written too). */
  private typeRef(w: ProtobufWriter, field: number, type: DamlType): void {
    const index = this.type(type);
    w.message(field, (t) => t.varint(8, index)); // int32 interned_type
  }

  /** The content of a `Type` message: one case of its `Sum` oneof. */
  private typeBody(w: ProtobufWriter, type: DamlType): void {
    const args = (m: ProtobufWriter, list: readonly DamlType[]) => {
      for (const arg of list) this.typeRef(m, 2, arg); // repeated Type args = 2
    };
    switch (type.kind) {
      case 'var': // Var { var_interned_str = 3, repeated Type args = 2 }
        w.message(1, (v) => {
          args(v, type.args);
          int(v, 3, this.str(type.name));
        });
        break;
      case 'con': // Con { TypeConId tycon = 1, repeated Type args = 2 }
        this.checkSelfReference(type.tycon, this.selfDataTypes, 'data type');
        w.message(2, (c) => {
          c.message(1, (id) => {
            this.typeConId(id, type.tycon);
          });
          args(c, type.args);
        });
        break;
      case 'prim': {
        const code = BUILTIN_CODES.get(type.prim);
        if (code === undefined) {
          throw new Error(`Builtin type ${type.prim} does not exist in Daml-LF 2.1`);
        }
        // Builtin { BuiltinType builtin = 1, repeated Type args = 2 }
        w.message(3, (b) => {
          int(b, 1, code);
          args(b, type.args);
        });
        break;
      }
      case 'forall': // Forall { repeated TypeVarWithKind vars = 1, Type body = 2 }
        w.message(4, (f) => {
          for (const name of type.vars) {
            f.message(1, (v) => {
              this.typeVar(v, name);
            });
          }
          this.typeRef(f, 2, type.body);
        });
        break;
      case 'struct': // Struct { repeated FieldWithType fields = 1 }
        w.message(5, (s) => {
          this.fields(s, 1, type.fields);
        });
        break;
      case 'nat':
        if (!Number.isInteger(type.value) || type.value < 0 || type.value > MAX_NAT) {
          throw new Error(
            `Type-level natural ${type.value} is not an integer from 0 to ${MAX_NAT}`,
          );
        }
        w.zigzag(6, type.value); // sint64 nat
        break;
      case 'syn': // Syn { TypeSynId tysyn = 1, repeated Type args = 2 }
        this.checkSelfReference(type.tysyn, this.selfSynonyms, 'type synonym');
        w.message(7, (s) => {
          s.message(1, (id) => {
            this.typeConId(id, type.tysyn);
          });
          args(s, type.args);
        });
        break;
    }
  }

  /** Catches typos in hand-written specs: LF would reject a dangling reference anyway. */
  private checkSelfReference(name: TypeConName, defined: ReadonlySet<string>, what: string): void {
    if (name.packageId === '' && !defined.has(`${name.module}:${name.name}`)) {
      throw new Error(`Reference to ${name.module}:${name.name}, a ${what} this package lacks`);
    }
  }

  /** `TypeConId`/`TypeSynId { ModuleId module = 1, name_interned_dname = 2 }`. */
  private typeConId(w: ProtobufWriter, name: TypeConName): void {
    // ModuleId { SelfOrImportedPackageId package_id = 1, module_name_interned_dname = 2 }
    w.message(1, (m) => {
      m.message(1, (p) => {
        // A oneof: Unit self_package_id = 1, or int32 imported_package_id_interned_str = 3.
        if (name.packageId === '') p.message(1, noFields);
        else p.varint(3, this.str(name.packageId));
      });
      int(m, 2, this.dname(name.module));
    });
    int(w, 2, this.dname(name.name));
  }

  /** `TypeVarWithKind { var_interned_str = 3, Kind kind = 2 }`, always of kind `*`. */
  private typeVar(w: ProtobufWriter, name: string): void {
    w.message(2, (k) => k.message(1, noFields)); // Kind { Unit star = 1 }
    int(w, 3, this.str(name));
  }

  /** Repeated `FieldWithType { field_interned_str = 3, Type type = 2 }`. */
  private fields(w: ProtobufWriter, field: number, list: readonly Field[]): void {
    for (const { name, type } of list) {
      w.message(field, (f) => {
        this.typeRef(f, 2, type);
        int(f, 3, this.str(name));
      });
    }
  }

  /** `ERROR @type "…"` (see the file comment): `App { fun = TyApp { ERROR, [type] }, [text] }`. */
  private placeholder(w: ProtobufWriter, field: number, type: DamlType): void {
    w.message(field, (expr) =>
      expr.message(15, (app) => {
        app.message(1, (fun) =>
          fun.message(16, (tyApp) => {
            tyApp.message(1, (builtin) => builtin.varint(4, BUILTIN_ERROR));
            this.typeRef(tyApp, 2, type);
          }),
        );
        // BuiltinLit { int32 text_interned_str = 4 }, in a oneof: 0 is written too.
        app.message(2, (arg) =>
          arg.message(6, (lit) => lit.varint(4, this.str(PLACEHOLDER_MESSAGE))),
        );
      }),
    );
  }

  // ── Definitions ──

  private module(module: Module): Uint8Array {
    const records = new Map<string, readonly Field[]>();
    const interfaceTypes = new Set<string>();
    for (const dataType of module.dataTypes) {
      if (dataType.kind === 'record') records.set(dataType.name, dataType.fields);
      if (dataType.kind === 'interface') interfaceTypes.add(dataType.name);
    }
    for (const iface of module.interfaces) {
      const where = `Interface ${module.name}:${iface.name}`;
      const { tycon } = iface;
      if (tycon.packageId !== '' || tycon.module !== module.name || tycon.name !== iface.name) {
        throw new Error(`${where}: its tycon must be {packageId: '', module, name} of itself`);
      }
      // As the compiler writes it: the decoder lists interfaces among the data types too.
      if (!interfaceTypes.has(iface.name)) {
        throw new Error(`${where}: it needs a data type of kind 'interface' of its name`);
      }
      if (!iface.viewType) throw new Error(`${where}: LF 2 interfaces have a view type`);
    }
    const w = new ProtobufWriter();
    int(w, 1, this.dname(module.name)); // name_interned_dname
    // FeatureFlags flags: all set, as the compiler writes them for LF 2.
    w.message(2, (f) => f.bool(1, true).bool(2, true).bool(3, true));
    for (const synonym of module.synonyms) {
      w.message(3, (s) => {
        this.synonym(s, synonym);
      });
    }
    for (const dataType of module.dataTypes) {
      w.message(4, (d) => {
        this.dataType(d, dataType, module.name);
      });
    }
    for (const value of this.spec.values ?? []) {
      if (value.module !== module.name) continue;
      w.message(5, (v) => {
        this.constant(v, value);
      });
    }
    for (const template of module.templates) {
      w.message(6, (t) => {
        this.template(t, template, module.name, records);
      });
    }
    for (const iface of module.interfaces) {
      w.message(8, (i) => {
        this.interfaceDef(i, iface);
      });
    }
    return w.finish();
  }

  /** `DefValue { NameWithType name_with_type = 2 { name_interned_dname = 1, Type type = 2 }, Expr expr = 3 }`. */
  private constant(w: ProtobufWriter, value: ConstantSpec): void {
    w.message(2, (n) => {
      int(n, 1, this.dname(value.name));
      this.typeRef(n, 2, value.type);
    });
    // The `Expr` cases are a oneof: 0 is written too.
    const constant = value.value;
    w.message(3, (expr) => {
      switch (constant.kind) {
        case 'unit':
          expr.varint(5, CON_UNIT); // BuiltinCon builtin_con
          break;
        case 'bool':
          expr.varint(5, constant.value ? CON_TRUE : CON_FALSE);
          break;
        case 'int64': // BuiltinLit { sint64 int64 = 1 }
          expr.message(6, (lit) => lit.zigzag(1, constant.value));
          break;
        case 'text': // BuiltinLit { int32 text_interned_str = 4 }
          expr.message(6, (lit) => lit.varint(4, this.str(constant.value)));
          break;
      }
    });
  }

  /**
   * `DefInterface`: tycon 2, param 4, choices 5, view 6, requires 7. No methods (3): the model
   * keeps none.
   */
  private interfaceDef(w: ProtobufWriter, iface: Interface): void {
    int(w, 2, this.dname(iface.name));
    int(w, 4, this.str(TEMPLATE_BINDER));
    for (const choice of iface.choices) {
      w.message(5, (c) => {
        this.choice(c, choice);
      });
    }
    if (iface.viewType) this.typeRef(w, 6, iface.viewType);
    for (const required of iface.requires) {
      w.message(7, (id) => {
        this.typeConId(id, required);
      });
    }
  }

  /** `DefTypeSyn { name_interned_dname = 2, repeated TypeVarWithKind params = 3, Type type = 4 }`. */
  private synonym(w: ProtobufWriter, synonym: TypeSynonym): void {
    int(w, 2, this.dname(synonym.name));
    for (const param of synonym.params) {
      w.message(3, (v) => {
        this.typeVar(v, param);
      });
    }
    this.typeRef(w, 4, synonym.type);
  }

  /** `DefDataType`: name 2, params 3, serializable 4, then record 5 / variant 6 / enum 7. */
  private dataType(w: ProtobufWriter, dataType: DataType, moduleName: string): void {
    int(w, 2, this.dname(dataType.name));
    for (const param of dataType.params) {
      w.message(3, (v) => {
        this.typeVar(v, param);
      });
    }
    if (dataType.serializable) w.bool(4, true);
    // The cases are a oneof, so an empty record, variant or enum is still written.
    switch (dataType.kind) {
      case 'record':
        w.message(5, (f) => {
          this.fields(f, 1, dataType.fields);
        });
        break;
      case 'variant':
        w.message(6, (f) => {
          this.fields(f, 1, dataType.constructors);
        });
        break;
      case 'enum': {
        // EnumConstructors { repeated int32 constructors_interned_str = 2 }
        const constructors = dataType.constructors.map((name) => this.str(name));
        w.message(7, (e) => {
          if (constructors.length > 0) e.packed(2, constructors);
        });
        break;
      }
      case 'interface':
        if (dataType.params.length > 0 || dataType.serializable) {
          throw new Error(
            `${moduleName}:${dataType.name}: an interface type has no parameters and is not serializable`,
          );
        }
        w.message(8, noFields); // Unit interface
        break;
    }
  }

  /**
   * `DefTemplate`: tycon 1, param 2, signatories 4, choices 6, observers 7, key 9. The precond
   * (3) is left out: LF reads a missing one as `True`.
   */
  private template(
    w: ProtobufWriter,
    template: Template,
    moduleName: string,
    records: ReadonlyMap<string, readonly Field[]>,
  ): void {
    const where = `Template ${moduleName}:${template.name}`;
    const { tycon } = template;
    if (tycon.packageId !== '' || tycon.module !== moduleName || tycon.name !== template.name) {
      throw new Error(`${where}: its tycon must be {packageId: '', module, name} of itself`);
    }
    // The decoder takes a template's fields from the record of the same name, so a mismatch
    // would not survive the round trip (and LF requires that record anyway).
    const record = records.get(template.name);
    if (!record || !this.sameFields(record, template.fields)) {
      throw new Error(`${where}: its fields must be those of the record data type of its name`);
    }
    const instances = template.implements.map((iface) => {
      const view = iface.packageId === '' && this.views.get(`${iface.module}:${iface.name}`);
      if (!view) {
        throw new Error(
          `${where}: only instances of interfaces of its own package can be encoded (${iface.module}:${iface.name})`,
        );
      }
      return { iface, view };
    });
    int(w, 1, this.dname(template.name));
    int(w, 2, this.str(TEMPLATE_BINDER));
    this.placeholder(w, 4, PARTIES); // signatories
    for (const choice of template.choices) {
      w.message(6, (c) => {
        this.choice(c, choice);
      });
    }
    this.placeholder(w, 7, PARTIES); // observers
    const { keyType } = template;
    if (keyType) {
      // DefKey { Type type = 1, Expr maintainers = 3 (key → [Party]), Expr key_expr = 4 }
      w.message(9, (k) => {
        this.typeRef(k, 1, keyType);
        this.placeholder(k, 3, prim('ARROW', keyType, PARTIES));
        this.placeholder(k, 4, keyType);
      });
    }
    for (const { iface, view } of instances) {
      // Implements { TypeConId interface = 1, InterfaceInstanceBody body = 2 { Expr view = 2 } }
      w.message(10, (impl) => {
        impl.message(1, (id) => {
          this.typeConId(id, iface);
        });
        impl.message(2, (body) => {
          this.placeholder(body, 2, view);
        });
      });
    }
  }

  /**
   * `TemplateChoice`: name 2, consuming 3, controllers 4, observers 5, arg binder 6, return type
   * 8, update 9, self binder 10.
   */
  private choice(w: ProtobufWriter, choice: Choice): void {
    int(w, 2, this.str(choice.name));
    if (choice.consuming) w.bool(3, true);
    this.placeholder(w, 4, PARTIES);
    this.placeholder(w, 5, PARTIES);
    // VarWithType arg_binder { var_interned_str = 3, Type type = 2 }
    w.message(6, (binder) => {
      this.typeRef(binder, 2, choice.argType);
      int(binder, 3, this.str(CHOICE_ARG_BINDER));
    });
    this.typeRef(w, 8, choice.returnType);
    this.placeholder(w, 9, prim('UPDATE', choice.returnType));
    int(w, 10, this.str(CHOICE_SELF_BINDER));
  }

  /** Equal names and equal types; interning makes equal types equal indices. */
  private sameFields(a: readonly Field[], b: readonly Field[]): boolean {
    if (a.length !== b.length) return false;
    return a.every((field, i) => {
      const other = b[i];
      return other?.name === field.name && this.type(field.type) === this.type(other.type);
    });
  }
}

/** A proto3 scalar outside a oneof: the default 0 is left out, as protobuf serializers do. */
function int(w: ProtobufWriter, field: number, value: number): void {
  if (value !== 0) w.varint(field, value);
}

/** The content of `Unit`. */
function noFields(): void {
  // `Unit` has no fields: the empty message is the whole encoding.
}

// ── Archives and DARs ──────────────────────────────────────────────────────────────────────────

/** An `Archive` (daml_lf.proto): SHA256 (the default 0, left out), payload 3, hash 4. */
export function encodeArchive(payload: Uint8Array, packageId: string): Uint8Array {
  return new ProtobufWriter().bytes(3, payload).string(4, packageId).finish();
}

export type EncodedDar = {
  /** The zip, ready for `POST /v2/dars`. */
  bytes: Uint8Array;
  /** The package ids, in the order of the specs (the first is the main package). */
  packageIds: string[];
};

export type DarOptions = EncodeOptions & {
  /** `Sdk-Version` of the manifest, which `damlc` always writes; left out by default. */
  sdkVersion?: string;
  /**
   * Put every DALF in a folder named after the main package (`<name>-<version>-<id>/`), as
   * `damlc` lays a DAR out; default: at the root.
   */
  damlcLayout?: boolean;
};

/** One package of a DAR, already encoded: the payload and its id (SHA-256 of the payload). */
export type EncodedPackage = { spec: PackageSpec; payload: Uint8Array; packageId: string };

/**
 * Every zip entry's modification time, as `damlc` writes it: fixed, so that a DAR's bytes depend
 * on its packages only. Local time, which is what the zip format stores.
 */
const ZIP_MTIME = new Date(1980, 0, 1, 0, 0, 0);

/**
 * A DAR of the given packages, the first being the main one: each as an `Archive` DALF named
 * `<name>-<version>-<id>.dalf`, and a manifest as `damlc` writes it (lines wrapped at 72 bytes).
 * The packages may refer to each other by id only, so a spec that depends on another must be
 * encoded after it (use `encodePackagePayload` and its SHA-256 to learn the id). Deterministic:
 * the same specs give the same bytes.
 *
 * Tests use it to upload packages built from the model, e.g. two versions of one package to
 * exercise the upgrade checks (see `templatePackageSpec`).
 */
export async function encodeDar(
  packages: readonly PackageSpec[],
  options: DarOptions = {},
): Promise<EncodedDar> {
  const encoded: EncodedPackage[] = [];
  for (const spec of packages) {
    const payload = encodePackagePayload(spec, options);
    encoded.push({ spec, payload, packageId: await sha256Hex(payload) });
  }
  return { bytes: assembleDar(encoded, options), packageIds: encoded.map((p) => p.packageId) };
}

/**
 * The zip of `encodeDar`, for packages already encoded and hashed: synchronous, for callers that
 * hash by other means (Node's `crypto`). The ids are trusted as given.
 */
export function assembleDar(packages: readonly EncodedPackage[], options: DarOptions = {}) {
  const [main] = packages;
  if (!main) throw new Error('A DAR holds at least one package');
  const folder = options.damlcLayout
    ? `${main.spec.name}-${main.spec.version}-${main.packageId}/`
    : '';
  const files: Record<string, Uint8Array> = {};
  const dalfs: string[] = [];
  for (const { spec, payload, packageId } of packages) {
    const path = `${folder}${spec.name}-${spec.version}-${packageId}.dalf`;
    files[path] = encodeArchive(payload, packageId);
    dalfs.push(path);
  }
  const attributes: [string, string][] = [
    ['Manifest-Version', '1.0'],
    ['Created-By', 'ledger-console sandbox'],
    ['Name', `${main.spec.name}-${main.spec.version}`],
    ...(options.sdkVersion === undefined
      ? []
      : [['Sdk-Version', options.sdkVersion] as [string, string]]),
    ['Main-Dalf', dalfs[0] ?? ''],
    ['Dalfs', dalfs.join(', ')],
    ['Format', 'daml-lf'],
    ['Encryption', 'non-encrypted'],
  ];
  const manifest = `${attributes.map(([key, value]) => wrapManifestLine(`${key}: ${value}`)).join('')}\r\n`;
  files['META-INF/MANIFEST.MF'] = new TextEncoder().encode(manifest);
  return zipSync(files, { mtime: ZIP_MTIME });
}

/** A JAR manifest line: at most 72 bytes, continued on lines that start with a space. */
function wrapManifestLine(line: string): string {
  const parts = [line.slice(0, 72)];
  for (let i = 72; i < line.length; i += 71) parts.push(` ${line.slice(i, i + 71)}`);
  return parts.map((part) => `${part}\r\n`).join('');
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice()));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export type TemplateSpec = {
  name: string;
  fields: readonly Field[];
  keyType?: DamlType;
  choices?: readonly {
    name: string;
    consuming?: boolean;
    /** The fields of the choice's argument record (a data type named after the choice). */
    argFields: readonly Field[];
    returnType: DamlType;
  }[];
};

/**
 * A package of one module whose templates and choice arguments are serializable records, the way
 * the Daml compiler lays them out. Types of this package are referred to with `packageId: ''`.
 *
 * For tests: `encodeDar([templatePackageSpec({ name: 'pkg', version: '2.0.0', … })])` with a
 * field removed from a template that version 1.0.0 had gives a DAR the upgrade checks refuse.
 */
export function templatePackageSpec(options: {
  name: string;
  version: string;
  /** Default `Main`. */
  module?: string;
  templates: readonly TemplateSpec[];
  /** More data types of the module (records, variants, enums). */
  dataTypes?: readonly DataType[];
}): PackageSpec {
  const moduleName = options.module ?? 'Main';
  const record = (name: string, fields: readonly Field[]): DataType => ({
    kind: 'record',
    name,
    params: [],
    serializable: true,
    fields,
  });
  const dataTypes: DataType[] = [];
  const templates: Template[] = [];
  for (const spec of options.templates) {
    dataTypes.push(record(spec.name, spec.fields));
    const choices: Choice[] = (spec.choices ?? []).map((choice) => {
      dataTypes.push(record(choice.name, choice.argFields));
      return {
        name: choice.name,
        consuming: choice.consuming ?? true,
        argType: {
          kind: 'con',
          tycon: { packageId: '', module: moduleName, name: choice.name },
          args: [],
        },
        returnType: choice.returnType,
      };
    });
    templates.push({
      name: spec.name,
      tycon: { packageId: '', module: moduleName, name: spec.name },
      fields: spec.fields,
      ...(spec.keyType ? { keyType: spec.keyType } : {}),
      choices,
      implements: [],
    });
  }
  dataTypes.push(...(options.dataTypes ?? []));
  return {
    name: options.name,
    version: options.version,
    modules: [{ name: moduleName, dataTypes, synonyms: [], templates, interfaces: [] }],
  };
}
