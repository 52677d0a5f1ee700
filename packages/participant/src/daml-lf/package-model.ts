/**
 * The readable model of a decoded Daml-LF 2.x package: just what a UI needs to list packages and
 * build argument forms for create/exercise commands. Interned strings, dotted names and types are
 * already resolved, so nothing here needs the package's tables to be understood.
 *
 * Objects may be shared (an interned type used in many places is one object), so treat the whole
 * model as immutable.
 */

/** `major.minor` from the `ArchivePayload`, e.g. 2.1 or 2.dev; `patch` rarely set. */
export type LfVersion = {
  major: number;
  /** A string, because it can be `dev`. */
  minor: string;
  patch: number;
};

/** A fully qualified type constructor, template or interface name. */
export type TypeConName = {
  packageId: string;
  /** Dotted module name, e.g. `Canton.Internal.Ping`. */
  module: string;
  /** Dotted entity name within the module, e.g. `Ping`. */
  name: string;
};

/**
 * Daml-LF builtin types, named as in the .proto enum. Applied ones take their arguments in
 * `args`: `LIST [t]`, `OPTIONAL [t]`, `CONTRACT_ID [t]`, `TEXTMAP [v]`, `GENMAP [k, v]`,
 * `NUMERIC [nat scale]`, `ARROW [a, b]`, `UPDATE [t]`.
 */
export type PrimType =
  | 'UNIT'
  | 'BOOL'
  | 'INT64'
  | 'DATE'
  | 'TIMESTAMP'
  | 'NUMERIC'
  | 'PARTY'
  | 'TEXT'
  | 'CONTRACT_ID'
  | 'OPTIONAL'
  | 'LIST'
  | 'GENMAP'
  | 'ANY'
  | 'ANY_EXCEPTION'
  | 'TYPE_REP'
  | 'ARROW'
  | 'UPDATE'
  | 'FAILURE_CATEGORY'
  | 'TEXTMAP'
  | 'BIGNUMERIC'
  | 'ROUNDING_MODE';

/**
 * A Daml-LF type. LF 2.dev's `TApp` nodes are folded into the `args` of their head, so every
 * application looks the same whichever encoding the compiler used.
 */
export type DamlType =
  | { readonly kind: 'prim'; readonly prim: PrimType; readonly args: readonly DamlType[] }
  | { readonly kind: 'con'; readonly tycon: TypeConName; readonly args: readonly DamlType[] }
  /** A (possibly applied) type variable bound by the enclosing data type, choice or forall. */
  | { readonly kind: 'var'; readonly name: string; readonly args: readonly DamlType[] }
  /** A type synonym application; the synonym is in the named module's `synonyms`. */
  | { readonly kind: 'syn'; readonly tysyn: TypeConName; readonly args: readonly DamlType[] }
  /** A type-level natural: the scale argument of `NUMERIC`, 0 to 37. */
  | { readonly kind: 'nat'; readonly value: number }
  | { readonly kind: 'forall'; readonly vars: readonly string[]; readonly body: DamlType }
  | { readonly kind: 'struct'; readonly fields: readonly Field[] };

/** A record field, a variant constructor (with its argument type) or a struct field. */
export type Field = { readonly name: string; readonly type: DamlType };

type DataTypeCommon = {
  /** Dotted name within the module. */
  readonly name: string;
  /** Type parameter names, in order. */
  readonly params: readonly string[];
  /** Whether values of this type can appear on the ledger (template/choice arguments etc.). */
  readonly serializable: boolean;
};

export type RecordDataType = DataTypeCommon & {
  readonly kind: 'record';
  readonly fields: readonly Field[];
};
export type VariantDataType = DataTypeCommon & {
  readonly kind: 'variant';
  readonly constructors: readonly Field[];
};
export type EnumDataType = DataTypeCommon & {
  readonly kind: 'enum';
  readonly constructors: readonly string[];
};
/** The data type that stands for an interface; its definition is in the module's `interfaces`. */
export type InterfaceDataType = DataTypeCommon & { readonly kind: 'interface' };

export type DataType = RecordDataType | VariantDataType | EnumDataType | InterfaceDataType;

export type TypeSynonym = {
  readonly name: string;
  readonly params: readonly string[];
  readonly type: DamlType;
};

export type Choice = {
  readonly name: string;
  /** Exercising archives the contract. */
  readonly consuming: boolean;
  readonly argType: DamlType;
  readonly returnType: DamlType;
};

export type Template = {
  readonly name: string;
  readonly tycon: TypeConName;
  /** The template argument: the fields of the record data type of the same name. */
  readonly fields: readonly Field[];
  /** The contract key type, if the template has a key. */
  readonly keyType?: DamlType;
  readonly choices: readonly Choice[];
  /** Interfaces this template implements (their choices can be exercised on it too). */
  readonly implements: readonly TypeConName[];
};

export type Interface = {
  readonly name: string;
  readonly tycon: TypeConName;
  readonly choices: readonly Choice[];
  /** The view type (LF 2 interfaces always have one). */
  readonly viewType?: DamlType;
  /** Interfaces that implementers of this one must also implement. */
  readonly requires: readonly TypeConName[];
};

export type Module = {
  /** Dotted module name. */
  readonly name: string;
  readonly dataTypes: readonly DataType[];
  readonly synonyms: readonly TypeSynonym[];
  readonly templates: readonly Template[];
  readonly interfaces: readonly Interface[];
};

export type DecodedPackage = {
  readonly packageId: string;
  readonly lfVersion: LfVersion;
  /** Package name from the metadata (LF 2 packages always have metadata). */
  readonly name: string;
  readonly version: string;
  /** Set when the package declares which package it upgrades. */
  readonly upgradedPackageId?: string;
  readonly modules: readonly Module[];
  /** The package's interned string table, resolved. */
  readonly internedStrings: readonly string[];
  /** The package's interned dotted names, as segment lists. */
  readonly internedDottedNames: readonly (readonly string[])[];
  /** LF 2.dev explicit package imports, when the package lists them. */
  readonly importedPackages?: readonly string[];
};

/** The cheap view of a package for listings: names only, no types. */
export type PackageSummary = {
  readonly packageId: string;
  readonly name: string;
  readonly version: string;
  readonly lfVersion: LfVersion;
  readonly modules: readonly ModuleSummary[];
};

export type ModuleSummary = {
  readonly name: string;
  readonly templates: readonly { readonly name: string; readonly choices: readonly string[] }[];
  readonly interfaces: readonly { readonly name: string; readonly choices: readonly string[] }[];
};
