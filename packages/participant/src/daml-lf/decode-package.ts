/**
 * Decodes a Daml-LF 2.x `ArchivePayload` (the bytes `GET /v2/packages/{id}` returns, and what a
 * `.dalf`'s `Archive` wraps) into the readable model of package-model.ts.
 *
 * Only declarations are decoded: metadata, the interned tables, and per module its data types,
 * type synonyms, templates (fields, key type, choices) and interfaces (choices, view). Expressions
 * (signatories, choice bodies, value definitions...) are skipped by length without being parsed,
 * which is most of a package's bytes. Interned types are decoded lazily, on first reference, so
 * the thousands that only value definitions use are never touched.
 *
 * Field numbers come from daml_lf.proto / daml_lf2.proto (reference material in shared/spec).
 */

import { DarError } from './dar-error';
import { formatType } from './format-type';
import type {
  Choice,
  DamlType,
  DataType,
  DecodedPackage,
  Field,
  Interface,
  LfVersion,
  Module,
  ModuleSummary,
  PackageSummary,
  PrimType,
  Template,
  TypeConName,
  TypeSynonym,
} from './package-model';
import { ProtobufError, ProtobufReader } from './protobuf-reader';

/** `BuiltinType` enum values (daml_lf2.proto). 12 was never used; 1004 was SCENARIO. */
export const BUILTIN_TYPES: Readonly<Record<number, PrimType>> = {
  0: 'UNIT',
  1: 'BOOL',
  2: 'INT64',
  3: 'DATE',
  4: 'TIMESTAMP',
  5: 'NUMERIC',
  6: 'PARTY',
  7: 'TEXT',
  8: 'CONTRACT_ID',
  9: 'OPTIONAL',
  10: 'LIST',
  11: 'GENMAP',
  13: 'ANY',
  14: 'ANY_EXCEPTION',
  15: 'TYPE_REP',
  16: 'ARROW',
  17: 'UPDATE',
  18: 'FAILURE_CATEGORY',
  19: 'TEXTMAP',
  1002: 'BIGNUMERIC',
  1003: 'ROUNDING_MODE',
};

/** Types nest by message; a bound keeps hostile input from overflowing the stack. */
const MAX_TYPE_DEPTH = 500;

// ── ArchivePayload ─────────────────────────────────────────────────────────────────────────────

export type ArchivePayloadHeader = {
  lfVersion: LfVersion;
  /** The encoded `Package` of the major version (`daml_lf_1` or `daml_lf_2` bytes). */
  packageBytes: Uint8Array;
};

/**
 * Reads the `ArchivePayload` envelope: the LF version and the package bytes, without decoding the
 * package. Works for LF 1.x too, so callers can say which version they rejected.
 */
export function readArchivePayload(payload: Uint8Array): ArchivePayloadHeader {
  return asDecodeError(() => {
    const reader = new ProtobufReader(payload);
    let minor = '';
    let patch = 0;
    let major: number | undefined;
    let packageBytes: Uint8Array | undefined;
    while (reader.next()) {
      switch (reader.field) {
        case 2: // bytes daml_lf_1
          major = 1;
          packageBytes = reader.bytes();
          break;
        case 3: // string minor
          minor = reader.string();
          break;
        case 4: // bytes daml_lf_2
          major = 2;
          packageBytes = reader.bytes();
          break;
        case 5: // int32 patch
          patch = reader.int32();
          break;
        default:
          reader.skip();
      }
    }
    if (major === undefined || packageBytes === undefined) {
      throw new DarError('CORRUPT_ARCHIVE', 'ArchivePayload holds no Daml-LF package');
    }
    return { lfVersion: { major, minor, patch }, packageBytes };
  });
}

/** `2.1`, `2.dev`, `1.15`. */
export function formatLfVersion(version: LfVersion): string {
  return `${version.major}.${version.minor}`;
}

/**
 * Decodes an LF 2.x `ArchivePayload` into the package model. `packageId` is needed because a
 * package refers to its own types as "self"; the model always carries full ids.
 *
 * @throws DarError `UNSUPPORTED_LF_VERSION` for LF 1.x, `CORRUPT_ARCHIVE` for malformed bytes,
 *   `VALIDATION_FAILED` for the few static errors we check (see `checkConstantValue`).
 */
export function decodeArchivePayload(payload: Uint8Array, packageId: string): DecodedPackage {
  return asDecodeError(() => {
    const { lfVersion, packageBytes } = readArchivePayload(payload);
    assertSupported(lfVersion, packageId);
    return decodePackage(packageBytes, packageId, lfVersion);
  }, packageId);
}

/**
 * The listing view (names of modules, templates, interfaces and choices) straight from the
 * payload. Cheaper than `decodeArchivePayload` because no type is decoded and nothing is checked.
 */
export function packageSummary(payload: Uint8Array, packageId: string): PackageSummary {
  return asDecodeError(() => {
    const { lfVersion, packageBytes } = readArchivePayload(payload);
    assertSupported(lfVersion, packageId);
    const ctx = new PackageContext(packageBytes, packageId);
    const modules = ctx.moduleReaders.map((reader) => summarizeModule(reader, ctx));
    const { name, version } = ctx.metadata();
    return { packageId, name, version, lfVersion, modules };
  }, packageId);
}

/** The listing view of an already decoded package. */
export function toPackageSummary(pkg: DecodedPackage): PackageSummary {
  return {
    packageId: pkg.packageId,
    name: pkg.name,
    version: pkg.version,
    lfVersion: pkg.lfVersion,
    modules: pkg.modules.map((module) => ({
      name: module.name,
      templates: module.templates.map((t) => ({
        name: t.name,
        choices: t.choices.map((c) => c.name),
      })),
      interfaces: module.interfaces.map((i) => ({
        name: i.name,
        choices: i.choices.map((c) => c.name),
      })),
    })),
  };
}

function assertSupported(lfVersion: LfVersion, packageId: string): void {
  if (lfVersion.major !== 2) {
    const version = formatLfVersion(lfVersion);
    throw new DarError(
      'UNSUPPORTED_LF_VERSION',
      `Daml-LF ${version} is not supported: only Daml-LF 2.x packages can be decoded`,
      { packageId, lfVersion: version },
    );
  }
}

/** Turns reader failures into `CORRUPT_ARCHIVE`, keeping `DarError`s as they are. */
function asDecodeError<T>(decode: () => T, packageId?: string): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof DarError) {
      return throwWith(error, packageId);
    }
    if (error instanceof ProtobufError) {
      throw new DarError(
        'CORRUPT_ARCHIVE',
        `Malformed Daml-LF archive: ${error.message}`,
        packageId ? { packageId } : {},
        { cause: error },
      );
    }
    throw error;
  }
}

function throwWith(error: DarError, packageId: string | undefined): never {
  throw packageId && !error.details.packageId ? error.withDetails({ packageId }) : error;
}

function corrupt(message: string): DarError {
  return new DarError('CORRUPT_ARCHIVE', `Malformed Daml-LF package: ${message}`);
}

// ── Package ────────────────────────────────────────────────────────────────────────────────────

function decodePackage(bytes: Uint8Array, packageId: string, lfVersion: LfVersion): DecodedPackage {
  const ctx = new PackageContext(bytes, packageId);
  const modules = ctx.moduleReaders.map((reader) => decodeModule(reader, ctx));
  const { name, version, upgradedPackageId } = ctx.metadata();
  return {
    packageId,
    lfVersion,
    name,
    version,
    ...(upgradedPackageId === undefined ? {} : { upgradedPackageId }),
    modules,
    internedStrings: ctx.strings,
    internedDottedNames: ctx.dottedNames,
    ...(ctx.imports ? { importedPackages: ctx.imports } : {}),
  };
}

/**
 * A package's tables, read in a first pass. Protobuf writes fields in number order, so modules
 * (field 1) come before the interned strings (field 2) they refer to: modules are kept as readers
 * and decoded once the tables are known.
 */
class PackageContext {
  readonly moduleReaders: ProtobufReader[] = [];
  readonly strings: string[] = [];
  readonly dottedNames: string[][] = [];
  readonly imports: string[] | undefined;

  private readonly dottedSegments: number[][] = [];
  private readonly joinedNames = new Map<number, string>();
  private readonly typeReaders: ProtobufReader[] = [];
  /** Decoded interned types; `null` marks one being decoded, to catch cycles. */
  private readonly types: (DamlType | null | undefined)[] = [];
  private readonly metadataReader: ProtobufReader | undefined;

  constructor(
    bytes: Uint8Array,
    readonly packageId: string,
  ) {
    const reader = new ProtobufReader(bytes);
    let metadata: ProtobufReader | undefined;
    let imports: string[] | undefined;
    while (reader.next()) {
      switch (reader.field) {
        case 1: // repeated Module modules
          this.moduleReaders.push(reader.message());
          break;
        case 2: // repeated string interned_strings
          this.strings.push(reader.string());
          break;
        case 3: // repeated InternedDottedName interned_dotted_names
          this.dottedSegments.push(readDottedName(reader.message()));
          break;
        case 4: // PackageMetadata metadata
          metadata = reader.message();
          break;
        case 5: // repeated Type interned_types
          this.typeReaders.push(reader.message());
          break;
        case 9: // PackageImports package_imports (2.dev)
          imports = readImports(reader.message());
          break;
        default: // interned kinds and exprs (2.dev) are only used by expressions
          reader.skip();
      }
    }
    this.metadataReader = metadata;
    this.imports = imports;
    for (const segments of this.dottedSegments) {
      this.dottedNames.push(segments.map((index) => this.string(index)));
    }
  }

  string(index: number): string {
    const value = this.strings[index];
    if (value === undefined) throw corrupt(`interned string ${index} does not exist`);
    return value;
  }

  /** An interned dotted name joined with dots, e.g. `Canton.Internal.Ping`. */
  dottedName(index: number): string {
    let joined = this.joinedNames.get(index);
    if (joined === undefined) {
      const segments = this.dottedNames[index];
      if (segments === undefined) throw corrupt(`interned dotted name ${index} does not exist`);
      joined = segments.join('.');
      this.joinedNames.set(index, joined);
    }
    return joined;
  }

  internedType(index: number, depth: number): DamlType {
    const cached = this.types[index];
    if (cached) return cached;
    if (cached === null) throw corrupt(`interned type ${index} refers to itself`);
    const reader = this.typeReaders[index];
    if (reader === undefined) throw corrupt(`interned type ${index} does not exist`);
    this.types[index] = null;
    // A fresh reader each time: the stored one must stay at its start for a retry after errors.
    const type = decodeType(
      new ProtobufReader(reader.buffer, reader.offset, reader.end),
      this,
      depth,
    );
    this.types[index] = type;
    return type;
  }

  importedPackage(index: number): string {
    const id = this.imports?.[index];
    if (id === undefined) throw corrupt(`package import ${index} does not exist`);
    return id;
  }

  metadata(): { name: string; version: string; upgradedPackageId?: string } {
    if (!this.metadataReader) throw corrupt('the package has no metadata (required in LF 2)');
    const reader = new ProtobufReader(
      this.metadataReader.buffer,
      this.metadataReader.offset,
      this.metadataReader.end,
    );
    let name = 0;
    let version = 0;
    let upgraded: number | undefined;
    while (reader.next()) {
      switch (reader.field) {
        case 1: // name_interned_str
          name = reader.int32();
          break;
        case 2: // version_interned_str
          version = reader.int32();
          break;
        case 3: // UpgradedPackageId upgraded_package_id { upgraded_package_id_interned_str = 1 }
          upgraded = readSingleInt32(reader.message(), 1);
          break;
        default:
          reader.skip();
      }
    }
    return {
      name: this.string(name),
      version: this.string(version),
      ...(upgraded === undefined ? {} : { upgradedPackageId: this.string(upgraded) }),
    };
  }
}

function readDottedName(reader: ProtobufReader): number[] {
  const segments: number[] = [];
  while (reader.next()) {
    if (reader.field === 1) reader.repeatedInt32(segments);
    else reader.skip();
  }
  return segments;
}

function readImports(reader: ProtobufReader): string[] {
  const ids: string[] = [];
  while (reader.next()) {
    if (reader.field === 1) ids.push(reader.string());
    else reader.skip();
  }
  return ids;
}

/** Reads a message with one int32 field of interest; proto3 omits it when it is 0. */
function readSingleInt32(reader: ProtobufReader, field: number): number {
  let value = 0;
  while (reader.next()) {
    if (reader.field === field) value = reader.int32();
    else reader.skip();
  }
  return value;
}

// ── Module ─────────────────────────────────────────────────────────────────────────────────────

function decodeModule(reader: ProtobufReader, ctx: PackageContext): Module {
  // Templates need the module name (for their ids) and its records (for their fields), so the
  // definitions are collected in one pass and decoded after it, whatever order they came in.
  let nameIndex = 0;
  const synonymReaders: ProtobufReader[] = [];
  const dataTypeReaders: ProtobufReader[] = [];
  const valueReaders: ProtobufReader[] = [];
  const templateReaders: ProtobufReader[] = [];
  const interfaceReaders: ProtobufReader[] = [];
  while (reader.next()) {
    switch (reader.field) {
      case 1: // name_interned_dname
        nameIndex = reader.int32();
        break;
      case 3: // repeated DefTypeSyn synonyms
        synonymReaders.push(reader.message());
        break;
      case 4: // repeated DefDataType data_types
        dataTypeReaders.push(reader.message());
        break;
      case 5: // repeated DefValue values
        valueReaders.push(reader.message());
        break;
      case 6: // repeated DefTemplate templates
        templateReaders.push(reader.message());
        break;
      case 8: // repeated DefInterface interfaces
        interfaceReaders.push(reader.message());
        break;
      default: // flags, exceptions (their payload is an ordinary record data type)
        reader.skip();
    }
  }
  const name = ctx.dottedName(nameIndex);
  const dataTypes = dataTypeReaders.map((r) => decodeDataType(r, ctx));
  const synonyms = synonymReaders.map((r) => decodeSynonym(r, ctx));
  for (const r of valueReaders) checkConstantValue(r, ctx, name);

  const records = new Map<string, readonly Field[]>();
  for (const dataType of dataTypes) {
    if (dataType.kind === 'record') records.set(dataType.name, dataType.fields);
  }
  const self = (entity: string): TypeConName => ({
    packageId: ctx.packageId,
    module: name,
    name: entity,
  });
  const templates = templateReaders.map((r) => decodeTemplate(r, ctx, name, records, self));
  const interfaces = interfaceReaders.map((r) => decodeInterface(r, ctx, self));
  return { name, dataTypes, synonyms, templates, interfaces };
}

function summarizeModule(reader: ProtobufReader, ctx: PackageContext): ModuleSummary {
  let nameIndex = 0;
  const templates: { name: string; choices: string[] }[] = [];
  const interfaces: { name: string; choices: string[] }[] = [];
  while (reader.next()) {
    switch (reader.field) {
      case 1:
        nameIndex = reader.int32();
        break;
      case 6: // DefTemplate: tycon_interned_dname = 1, choices = 6
        templates.push(summarizeDefinition(reader.message(), ctx, 1, 6));
        break;
      case 8: // DefInterface: tycon_interned_dname = 2, choices = 5
        interfaces.push(summarizeDefinition(reader.message(), ctx, 2, 5));
        break;
      default:
        reader.skip();
    }
  }
  return { name: ctx.dottedName(nameIndex), templates, interfaces };
}

function summarizeDefinition(
  reader: ProtobufReader,
  ctx: PackageContext,
  nameField: number,
  choicesField: number,
): { name: string; choices: string[] } {
  let nameIndex = 0;
  const choices: string[] = [];
  while (reader.next()) {
    if (reader.field === nameField) nameIndex = reader.int32();
    else if (reader.field === choicesField) {
      // TemplateChoice.name_interned_str = 2
      choices.push(ctx.string(readSingleInt32(reader.message(), 2)));
    } else reader.skip();
  }
  return { name: ctx.dottedName(nameIndex), choices };
}

// ── Definitions ────────────────────────────────────────────────────────────────────────────────

function decodeDataType(reader: ProtobufReader, ctx: PackageContext): DataType {
  let nameIndex = 0;
  const params: string[] = [];
  let serializable = false;
  let cons:
    | { kind: 'record'; fields: Field[] }
    | { kind: 'variant'; constructors: Field[] }
    | { kind: 'enum'; constructors: string[] }
    | { kind: 'interface' }
    | undefined;
  while (reader.next()) {
    switch (reader.field) {
      case 2: // name_interned_dname
        nameIndex = reader.int32();
        break;
      case 3: // repeated TypeVarWithKind params
        params.push(decodeTypeVarName(reader.message(), ctx));
        break;
      case 4: // bool serializable
        serializable = reader.bool();
        break;
      case 5: // Fields record
        cons = { kind: 'record', fields: decodeFields(reader.message(), ctx, 0) };
        break;
      case 6: // Fields variant
        cons = { kind: 'variant', constructors: decodeFields(reader.message(), ctx, 0) };
        break;
      case 7: // EnumConstructors enum { repeated int32 constructors_interned_str = 2 }
        cons = { kind: 'enum', constructors: decodeEnumConstructors(reader.message(), ctx) };
        break;
      case 8: // Unit interface
        reader.skip();
        cons = { kind: 'interface' };
        break;
      default: // location
        reader.skip();
    }
  }
  const name = ctx.dottedName(nameIndex);
  if (!cons) throw corrupt(`data type ${name} has no definition`);
  return { name, params, serializable, ...cons };
}

function decodeSynonym(reader: ProtobufReader, ctx: PackageContext): TypeSynonym {
  let nameIndex = 0;
  const params: string[] = [];
  let type: DamlType | undefined;
  while (reader.next()) {
    switch (reader.field) {
      case 2: // name_interned_dname
        nameIndex = reader.int32();
        break;
      case 3: // repeated TypeVarWithKind params
        params.push(decodeTypeVarName(reader.message(), ctx));
        break;
      case 4: // Type type
        type = decodeType(reader.message(), ctx, 0);
        break;
      default:
        reader.skip();
    }
  }
  const name = ctx.dottedName(nameIndex);
  if (!type) throw corrupt(`type synonym ${name} has no type`);
  return { name, params, type };
}

function decodeTemplate(
  reader: ProtobufReader,
  ctx: PackageContext,
  moduleName: string,
  records: ReadonlyMap<string, readonly Field[]>,
  self: (entity: string) => TypeConName,
): Template {
  let nameIndex = 0;
  const choices: Choice[] = [];
  let keyType: DamlType | undefined;
  const implementsList: TypeConName[] = [];
  while (reader.next()) {
    switch (reader.field) {
      case 1: // tycon_interned_dname
        nameIndex = reader.int32();
        break;
      case 6: // repeated TemplateChoice choices
        choices.push(decodeChoice(reader.message(), ctx));
        break;
      case 9: // DefKey key { Type type = 1 }
        keyType = decodeKeyType(reader.message(), ctx);
        break;
      case 10: // repeated Implements implements { TypeConId interface = 1 }
        implementsList.push(decodeImplements(reader.message(), ctx));
        break;
      default: // param, precond, signatories, observers, location: expressions we don't need
        reader.skip();
    }
  }
  const name = ctx.dottedName(nameIndex);
  const fields = records.get(name);
  if (!fields) {
    // LF requires a template's type to be a record of the same name; Canton's type checker
    // rejects the package otherwise.
    throw new DarError(
      'VALIDATION_FAILED',
      `Template ${moduleName}:${name} has no record data type of the same name`,
    );
  }
  return {
    name,
    tycon: self(name),
    fields,
    ...(keyType ? { keyType } : {}),
    choices,
    implements: implementsList,
  };
}

function decodeInterface(
  reader: ProtobufReader,
  ctx: PackageContext,
  self: (entity: string) => TypeConName,
): Interface {
  let nameIndex = 0;
  const choices: Choice[] = [];
  let viewType: DamlType | undefined;
  const requires: TypeConName[] = [];
  while (reader.next()) {
    switch (reader.field) {
      case 2: // tycon_interned_dname
        nameIndex = reader.int32();
        break;
      case 5: // repeated TemplateChoice choices
        choices.push(decodeChoice(reader.message(), ctx));
        break;
      case 6: // Type view
        viewType = decodeType(reader.message(), ctx, 0);
        break;
      case 7: // repeated TypeConId requires
        requires.push(decodeTypeConId(reader.message(), ctx));
        break;
      default: // location, methods, param
        reader.skip();
    }
  }
  const name = ctx.dottedName(nameIndex);
  return { name, tycon: self(name), choices, ...(viewType ? { viewType } : {}), requires };
}

function decodeChoice(reader: ProtobufReader, ctx: PackageContext): Choice {
  let nameIndex = 0;
  let consuming = false;
  let argType: DamlType | undefined;
  let returnType: DamlType | undefined;
  while (reader.next()) {
    switch (reader.field) {
      case 2: // name_interned_str
        nameIndex = reader.int32();
        break;
      case 3: // bool consuming
        consuming = reader.bool();
        break;
      case 6: // VarWithType arg_binder { var_interned_str = 3, Type type = 2 }
        argType = decodeBinderType(reader.message(), ctx);
        break;
      case 8: // Type ret_type
        returnType = decodeType(reader.message(), ctx, 0);
        break;
      default: // controllers, observers, update, self binder, authorizers: expressions
        reader.skip();
    }
  }
  const name = ctx.string(nameIndex);
  if (!argType) throw corrupt(`choice ${name} has no argument type`);
  if (!returnType) throw corrupt(`choice ${name} has no return type`);
  return { name, consuming, argType, returnType };
}

function decodeKeyType(reader: ProtobufReader, ctx: PackageContext): DamlType {
  let type: DamlType | undefined;
  while (reader.next()) {
    if (reader.field === 1) type = decodeType(reader.message(), ctx, 0);
    else reader.skip();
  }
  if (!type) throw corrupt('template key has no type');
  return type;
}

function decodeImplements(reader: ProtobufReader, ctx: PackageContext): TypeConName {
  let iface: TypeConName | undefined;
  while (reader.next()) {
    if (reader.field === 1) iface = decodeTypeConId(reader.message(), ctx);
    else reader.skip();
  }
  if (!iface) throw corrupt('interface instance names no interface');
  return iface;
}

function decodeBinderType(reader: ProtobufReader, ctx: PackageContext): DamlType | undefined {
  let type: DamlType | undefined;
  while (reader.next()) {
    if (reader.field === 2) type = decodeType(reader.message(), ctx, 0);
    else reader.skip();
  }
  return type;
}

function decodeEnumConstructors(reader: ProtobufReader, ctx: PackageContext): string[] {
  const indices: number[] = [];
  while (reader.next()) {
    if (reader.field === 2) reader.repeatedInt32(indices);
    else reader.skip();
  }
  return indices.map((index) => ctx.string(index));
}

// ── Types ──────────────────────────────────────────────────────────────────────────────────────

function decodeType(reader: ProtobufReader, ctx: PackageContext, depth: number): DamlType {
  if (depth > MAX_TYPE_DEPTH) throw corrupt(`types nest deeper than ${MAX_TYPE_DEPTH}`);
  const inner = depth + 1;
  let type: DamlType | undefined;
  while (reader.next()) {
    switch (reader.field) {
      case 1: // Var { var_interned_str = 3, repeated Type args = 2 }
        type = decodeApplied(reader.message(), ctx, inner, 3, (head, args) => ({
          kind: 'var',
          name: ctx.string(head),
          args,
        }));
        break;
      case 2: // Con { TypeConId tycon = 1, repeated Type args = 2 }
        type = decodeNamedApplied(reader.message(), ctx, inner, (tycon, args) => ({
          kind: 'con',
          tycon,
          args,
        }));
        break;
      case 3: // Builtin { BuiltinType builtin = 1, repeated Type args = 2 }
        type = decodeApplied(reader.message(), ctx, inner, 1, (head, args) => {
          const prim = BUILTIN_TYPES[head];
          if (!prim) throw corrupt(`unknown builtin type ${head}`);
          return { kind: 'prim', prim, args };
        });
        break;
      case 4: // Forall { repeated TypeVarWithKind vars = 1, Type body = 2 }
        type = decodeForall(reader.message(), ctx, inner);
        break;
      case 5: // Struct { repeated FieldWithType fields = 1 }
        type = { kind: 'struct', fields: decodeFields(reader.message(), ctx, inner) };
        break;
      case 6: // sint64 nat
        type = { kind: 'nat', value: Number(reader.sint64()) };
        break;
      case 7: // Syn { TypeSynId tysyn = 1, repeated Type args = 2 }
        type = decodeNamedApplied(reader.message(), ctx, inner, (tysyn, args) => ({
          kind: 'syn',
          tysyn,
          args,
        }));
        break;
      case 8: // int32 interned_type
        type = ctx.internedType(reader.int32(), inner);
        break;
      case 9: // TApp { Type lhs = 1, Type rhs = 2 } (2.dev)
        type = decodeTypeApp(reader.message(), ctx, inner);
        break;
      default:
        reader.skip();
    }
  }
  if (!type) throw corrupt('a type has no variant set');
  return type;
}

/** `Var` and `Builtin`: an int32 head in `headField`, then `args` in field 2. */
function decodeApplied(
  reader: ProtobufReader,
  ctx: PackageContext,
  depth: number,
  headField: number,
  build: (head: number, args: DamlType[]) => DamlType,
): DamlType {
  let head = 0;
  const args: DamlType[] = [];
  while (reader.next()) {
    if (reader.field === headField) head = reader.int32();
    else if (reader.field === 2) args.push(decodeType(reader.message(), ctx, depth));
    else reader.skip();
  }
  return build(head, args);
}

/** `Con` and `Syn`: a TypeConId/TypeSynId in field 1, `args` in field 2. */
function decodeNamedApplied(
  reader: ProtobufReader,
  ctx: PackageContext,
  depth: number,
  build: (name: TypeConName, args: DamlType[]) => DamlType,
): DamlType {
  let name: TypeConName | undefined;
  const args: DamlType[] = [];
  while (reader.next()) {
    if (reader.field === 1) name = decodeTypeConId(reader.message(), ctx);
    else if (reader.field === 2) args.push(decodeType(reader.message(), ctx, depth));
    else reader.skip();
  }
  if (!name) throw corrupt('a type constructor reference has no name');
  return build(name, args);
}

function decodeForall(reader: ProtobufReader, ctx: PackageContext, depth: number): DamlType {
  const vars: string[] = [];
  let body: DamlType | undefined;
  while (reader.next()) {
    if (reader.field === 1) vars.push(decodeTypeVarName(reader.message(), ctx));
    else if (reader.field === 2) body = decodeType(reader.message(), ctx, depth);
    else reader.skip();
  }
  if (!body) throw corrupt('a forall type has no body');
  return { kind: 'forall', vars, body };
}

/** Folds `TApp lhs rhs` into the head's `args`, so applications have one shape. */
function decodeTypeApp(reader: ProtobufReader, ctx: PackageContext, depth: number): DamlType {
  let lhs: DamlType | undefined;
  let rhs: DamlType | undefined;
  while (reader.next()) {
    if (reader.field === 1) lhs = decodeType(reader.message(), ctx, depth);
    else if (reader.field === 2) rhs = decodeType(reader.message(), ctx, depth);
    else reader.skip();
  }
  if (!lhs || !rhs) throw corrupt('a type application lacks a side');
  switch (lhs.kind) {
    case 'prim':
    case 'con':
    case 'var':
    case 'syn':
      return { ...lhs, args: [...lhs.args, rhs] };
    default:
      throw corrupt(`cannot apply a ${lhs.kind} type to an argument`);
  }
}

/** `FieldWithType` list: `{ field_interned_str = 3, Type type = 2 }` in repeated field 1. */
function decodeFields(reader: ProtobufReader, ctx: PackageContext, depth: number): Field[] {
  const fields: Field[] = [];
  while (reader.next()) {
    if (reader.field !== 1) {
      reader.skip();
      continue;
    }
    const fieldReader = reader.message();
    let nameIndex = 0;
    let type: DamlType | undefined;
    while (fieldReader.next()) {
      if (fieldReader.field === 3) nameIndex = fieldReader.int32();
      else if (fieldReader.field === 2) type = decodeType(fieldReader.message(), ctx, depth);
      else fieldReader.skip();
    }
    const name = ctx.string(nameIndex);
    if (!type) throw corrupt(`field ${name} has no type`);
    fields.push({ name, type });
  }
  return fields;
}

/** `TypeVarWithKind { var_interned_str = 3, Kind kind = 2 }`: the kind is not needed for forms. */
function decodeTypeVarName(reader: ProtobufReader, ctx: PackageContext): string {
  return ctx.string(readSingleInt32(reader, 3));
}

/** `TypeConId { ModuleId module = 1, name_interned_dname = 2 }` (TypeSynId is the same shape). */
function decodeTypeConId(reader: ProtobufReader, ctx: PackageContext): TypeConName {
  let moduleRef: { packageId: string; module: string } | undefined;
  let nameIndex = 0;
  while (reader.next()) {
    if (reader.field === 1) moduleRef = decodeModuleId(reader.message(), ctx);
    else if (reader.field === 2) nameIndex = reader.int32();
    else reader.skip();
  }
  if (!moduleRef) throw corrupt('a type constructor reference has no module');
  return { ...moduleRef, name: ctx.dottedName(nameIndex) };
}

/** `ModuleId { SelfOrImportedPackageId package_id = 1, module_name_interned_dname = 2 }`. */
function decodeModuleId(
  reader: ProtobufReader,
  ctx: PackageContext,
): { packageId: string; module: string } {
  let packageId: string | undefined;
  let moduleIndex = 0;
  while (reader.next()) {
    if (reader.field === 1) packageId = decodePackageRef(reader.message(), ctx);
    else if (reader.field === 2) moduleIndex = reader.int32();
    else reader.skip();
  }
  if (packageId === undefined) throw corrupt('a module reference has no package');
  return { packageId, module: ctx.dottedName(moduleIndex) };
}

/** `SelfOrImportedPackageId`: self (1), an interned package id string (3), or an import (4). */
function decodePackageRef(reader: ProtobufReader, ctx: PackageContext): string {
  let packageId: string | undefined;
  while (reader.next()) {
    switch (reader.field) {
      case 1:
        reader.skip();
        packageId = ctx.packageId;
        break;
      case 3:
        packageId = ctx.string(reader.int32());
        break;
      case 4:
        packageId = ctx.importedPackage(reader.int32());
        break;
      default:
        reader.skip();
    }
  }
  if (packageId === undefined) throw corrupt('a package reference is empty');
  return packageId;
}

// ── The one static check ───────────────────────────────────────────────────────────────────────

/**
 * The builtin type a constant expression has, for the `Expr` oneof cases that are constants:
 * `builtin_con` (5: `()`, `False`, `True`) and `builtin_lit` (6: literals).
 */
function constantType(reader: ProtobufReader): { type: PrimType; shown: string } | undefined {
  let constant: { type: PrimType; shown: string } | undefined;
  while (reader.next()) {
    if (reader.field === 5) {
      const con = reader.int32();
      constant =
        con === 0
          ? { type: 'UNIT', shown: '()' }
          : { type: 'BOOL', shown: con === 2 ? 'True' : 'False' };
    } else if (reader.field === 6) {
      constant = literalType(reader.message());
    } else if (reader.field !== 1) {
      // Any other expression: not a constant. (Field 1 is the location.)
      reader.skip();
      return undefined;
    } else {
      reader.skip();
    }
  }
  return constant;
}

/** `BuiltinLit` oneof: the literal's field number tells its type. */
function literalType(reader: ProtobufReader): { type: PrimType; shown: string } | undefined {
  const byField: Readonly<Record<number, PrimType>> = {
    1: 'INT64',
    2: 'TIMESTAMP',
    3: 'NUMERIC',
    4: 'TEXT',
    5: 'DATE',
    6: 'FAILURE_CATEGORY',
    1001: 'ROUNDING_MODE',
  };
  let type: PrimType | undefined;
  while (reader.next()) {
    type = byField[reader.field] ?? type;
    reader.skip();
  }
  return type
    ? { type, shown: `a ${formatType({ kind: 'prim', prim: type, args: [] })} literal` }
    : undefined;
}

/**
 * The only type check this decoder does, and deliberately a tiny one: a top-level value whose
 * body is a builtin constant (`()`, `True`, a text literal...) must be declared with that builtin
 * type. Canton type-checks every uploaded package and answers DAR_VALIDATION_ERROR otherwise; its
 * own test fixture `illformed.dar` is exactly such a package (`Mod:x : Bool = ()`). Anything
 * subtler passes here: we are a decoder, not Daml-LF's type checker.
 */
function checkConstantValue(reader: ProtobufReader, ctx: PackageContext, moduleName: string): void {
  let nameIndex = 0;
  let declared: ProtobufReader | undefined;
  let constant: { type: PrimType; shown: string } | undefined;
  while (reader.next()) {
    if (reader.field === 2) {
      // NameWithType { name_interned_dname = 1, Type type = 2 }
      const nameWithType = reader.message();
      while (nameWithType.next()) {
        if (nameWithType.field === 1) nameIndex = nameWithType.int32();
        else if (nameWithType.field === 2) declared = nameWithType.message();
        else nameWithType.skip();
      }
    } else if (reader.field === 3) {
      constant = constantType(reader.message());
    } else {
      reader.skip();
    }
  }
  if (!constant || !declared) return;
  const type = decodeType(declared, ctx, 0);
  if (type.kind === 'prim' && type.prim !== constant.type) {
    const name = `${moduleName}:${ctx.dottedName(nameIndex)}`;
    throw new DarError(
      'VALIDATION_FAILED',
      `Type checking failed: ${name} is declared as ${formatType(type)} but defined as ${constant.shown}`,
    );
  }
}
