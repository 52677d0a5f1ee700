/**
 * Smart-contract upgrade checks, as a Canton 3.x participant runs them before it vets packages
 * (its `PackageUpgradeValidator` and Daml-LF's `TypecheckUpgrades`), on the readable package model.
 *
 * The participant groups the packages that would be vetted by package name, sorts each group (a
 * lineage) by version, leaves out packages that cannot take part in upgrades (utility packages),
 * and checks each neighbouring pair: two versions must differ, and the higher must be a valid
 * upgrade of the lower. Only the lineages of the packages being newly vetted are checked.
 *
 * The pair check follows `TypecheckUpgrades` and reports its reasons with the same wording:
 * - the LF version may not decrease; no module, template, choice or serializable data type may
 *   disappear; interface instances may be neither removed nor added to existing templates;
 * - choice return types and key types stay the same (a key can be neither added nor removed);
 * - serializable records keep their fields, with their names, order and types, and may only gain
 *   `Optional` fields at the end; variants and enums keep their constructors in order and may
 *   only gain new ones at the end; a data type keeps its kind, its type parameters and its
 *   serializability;
 * - a type refers to the same type constructor if the module and name are equal and the package
 *   is the same one or, for packages that support upgrades, one of the same name with an equal or
 *   higher version.
 *
 * Left out, for brevity: kinds of type parameters (the model keeps none), exception definitions
 * (the model keeps them as ordinary records, so they are checked like records), dependency
 * version checks and the rule that `daml-prim`/`daml-stdlib` must be utility packages.
 *
 * Pure and browser-safe like the rest of this directory.
 */

import { formatLfVersion } from './decode-package';
import { comparePackageVersions } from './package-version';
import { directDependencies } from './package-dependencies';
import type {
  DamlType,
  DataType,
  DecodedPackage,
  Field,
  LfVersion,
  Module,
  Template,
  TypeConName,
} from './package-model';

/** What the checker needs to know about any package a type or a lineage mentions. */
export type UpgradePackageInfo = {
  readonly name: string;
  readonly version: string;
  /** `major.minor`, e.g. `2.1` or `2.dev`. */
  readonly lfVersion: string;
};

/** Where the checker finds packages: the store plus whatever is about to be added to it. */
export type UpgradePackageSource = {
  info(packageId: string): UpgradePackageInfo | undefined;
  /** The decoded package; asked only for members of a lineage with at least two packages. */
  decoded(packageId: string): DecodedPackage | undefined;
};

export type PackageLabel = {
  readonly packageId: string;
  readonly name: string;
  readonly version: string;
};

/** The two ways a set of packages cannot be vetted together, named by Canton's error codes. */
export type UpgradeFailure =
  | {
      readonly code: 'KNOWN_PACKAGE_VERSION';
      readonly first: PackageLabel;
      readonly second: PackageLabel;
    }
  | {
      readonly code: 'NOT_VALID_UPGRADE_PACKAGE';
      readonly oldPackage: PackageLabel;
      readonly newPackage: PackageLabel;
      /** `TypecheckUpgrades`' reason, e.g. "The upgraded template T is missing …". */
      readonly reason: string;
    };

/** Daml-LF's `PkgIdWithNameAndVersion.toString`: `<id> (<name> v<version>)`. */
export const describePackage = (pkg: PackageLabel) =>
  `${pkg.packageId} (${pkg.name} v${pkg.version})`;

// ── Versions ──

/** Orders `major.minor` LF versions, `dev` above every numbered minor. */
export function compareLfVersions(a: string, b: string): number {
  const [aMajor = '0', aMinor = '0'] = a.split('.');
  const [bMajor = '0', bMinor = '0'] = b.split('.');
  const minor = (text: string) => (text === 'dev' ? Number.POSITIVE_INFINITY : Number(text));
  return Number(aMajor) - Number(bMajor) || Math.sign(minor(aMinor) - minor(bMinor));
}

/** Smart-contract upgrades exist from Daml-LF 2.1 on. */
export const lfSupportsUpgrades = (lfVersion: string) => compareLfVersions(lfVersion, '2.1') >= 0;

/**
 * A utility package declares no templates, no interfaces and only non-serializable data types;
 * it takes no part in upgrades (several with one name and version may coexist).
 */
export function isUtilityPackage(pkg: Pick<DecodedPackage, 'modules'>): boolean {
  return pkg.modules.every(
    (module) =>
      module.templates.length === 0 &&
      module.interfaces.length === 0 &&
      module.dataTypes.every((dataType) => !dataType.serializable),
  );
}

const lfString = (version: LfVersion | string) =>
  typeof version === 'string' ? version : formatLfVersion(version);

// ── Lineages ──

export type CheckUpgradesRequest = {
  /** The packages this change vets that were not vetted before. */
  newPackageIds: Iterable<string>;
  /** Every package vetted once the change is made, the new ones included. */
  vettedPackageIds: Iterable<string>;
  packages: UpgradePackageSource;
};

type LineageMember = PackageLabel & { readonly pkg: DecodedPackage };

/**
 * Checks the lineages of the newly vetted packages, dependencies first, and returns the first
 * failure: within a lineage, a repeated version is reported before any incompatible pair.
 */
export function checkUpgrades({
  newPackageIds,
  vettedPackageIds,
  packages,
}: CheckUpgradesRequest): UpgradeFailure | undefined {
  const lineages = new Map<string, string[]>();
  for (const packageId of new Set(vettedPackageIds)) {
    const name = packages.info(packageId)?.name;
    if (name !== undefined) lineages.set(name, [...(lineages.get(name) ?? []), packageId]);
  }
  // Only lineages of two or more packages can fail; most uploads have none, and then nothing
  // needs decoding.
  const nameOf = (packageId: string) => packages.info(packageId)?.name ?? '';
  const candidates = [...new Set(newPackageIds)].filter(
    (packageId) => (lineages.get(nameOf(packageId))?.length ?? 0) > 1,
  );
  const names = [...new Set(dependenciesFirst(candidates, packages).map(nameOf))];
  for (const name of names) {
    const ids = lineages.get(name) ?? [];
    const lineage: LineageMember[] = [];
    for (const packageId of ids) {
      const pkg = packages.decoded(packageId);
      // A vetted package the store cannot produce cannot be checked; Canton leaves it out too.
      if (!pkg || !lfSupportsUpgrades(lfString(pkg.lfVersion)) || isUtilityPackage(pkg)) continue;
      lineage.push({ packageId, name: pkg.name, version: pkg.version, pkg });
    }
    lineage.sort(
      (a, b) =>
        comparePackageVersions(a.version, b.version) ||
        (a.packageId < b.packageId ? -1 : a.packageId > b.packageId ? 1 : 0),
    );
    const pairs = lineage.slice(1).map((present, i) => [lineage[i], present] as const);
    for (const [past, present] of pairs) {
      if (past && comparePackageVersions(past.version, present.version) === 0) {
        return { code: 'KNOWN_PACKAGE_VERSION', first: label(past), second: label(present) };
      }
    }
    for (const [past, present] of pairs) {
      if (!past) continue;
      const reason = upgradeProblem(past.pkg, present.pkg, (id) => packages.info(id));
      if (reason !== undefined) {
        return {
          code: 'NOT_VALID_UPGRADE_PACKAGE',
          oldPackage: label(past),
          newPackage: label(present),
          reason,
        };
      }
    }
  }
  return undefined;
}

const label = ({ packageId, name, version }: PackageLabel): PackageLabel => ({
  packageId,
  name,
  version,
});

/** The packages in an order where each comes after those of the list it refers to. */
function dependenciesFirst(packageIds: string[], packages: UpgradePackageSource): string[] {
  const wanted = new Set(packageIds);
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (packageId: string, path: Set<string>) => {
    if (done.has(packageId) || path.has(packageId)) return;
    path.add(packageId);
    const pkg = packages.decoded(packageId);
    if (pkg) {
      for (const dependency of directDependencies(pkg)) {
        if (wanted.has(dependency)) visit(dependency, path);
      }
    }
    path.delete(packageId);
    done.add(packageId);
    order.push(packageId);
  };
  for (const packageId of packageIds) visit(packageId, new Set());
  return order;
}

// ── One pair ──

/**
 * Why `present` is not a valid upgrade of `past`, in `TypecheckUpgrades`' words, or undefined
 * when it is. `info` describes the other packages their types refer to (the two packages
 * themselves are known already); a package it does not know only matches itself.
 */
export function upgradeProblem(
  past: DecodedPackage,
  present: DecodedPackage,
  info: (packageId: string) => UpgradePackageInfo | undefined = () => undefined,
): string | undefined {
  return new PairCheck(past, present, info).check();
}

type Origin =
  | { kind: 'template'; template: string }
  | { kind: 'choiceInput'; template: string; choice: string }
  | { kind: 'variantConstructor'; datatype: string; variant: TypeConName }
  | { kind: 'topLevel'; datatype: string };

/** `UpgradedRecordOrigin.toString`. */
function renderOrigin(origin: Origin): string {
  switch (origin.kind) {
    case 'template':
      return `template ${origin.template}`;
    case 'choiceInput':
      return `input type of choice ${origin.choice} on template ${origin.template}`;
    case 'variantConstructor':
      return `variant constructor ${origin.variant.name} from variant ${origin.datatype}`;
    case 'topLevel':
      return `data type ${origin.datatype}`;
  }
}

/** Origins compared as Daml does: a variant constructor's package id does not count. */
function sameOrigin(a: Origin, b: Origin): boolean {
  if (a.kind === 'variantConstructor' && b.kind === 'variantConstructor') {
    return (
      a.datatype === b.datatype &&
      a.variant.module === b.variant.module &&
      a.variant.name === b.variant.name
    );
  }
  return renderOrigin(a) === renderOrigin(b) && a.kind === b.kind;
}

/** `ModuleWithMetadata.dataTypeOrigin`: what a record of the module stands for. */
function originIn(module: Module, name: string): Origin {
  if (module.templates.some((template) => template.name === name)) {
    return { kind: 'template', template: name };
  }
  for (const template of module.templates) {
    const prefix = template.name.split('.').slice(0, -1);
    for (const choice of template.choices) {
      if ([...prefix, choice.name].join('.') === name) {
        return { kind: 'choiceInput', template: template.name, choice: choice.name };
      }
    }
  }
  for (const dataType of module.dataTypes) {
    if (dataType.kind !== 'variant') continue;
    for (const constructor of dataType.constructors) {
      if (`${dataType.name}.${constructor.name}` === name && constructor.type.kind === 'con') {
        return {
          kind: 'variantConstructor',
          datatype: dataType.name,
          variant: constructor.type.tycon,
        };
      }
    }
  }
  return { kind: 'topLevel', datatype: name };
}

const isOptional = (type: DamlType) => type.kind === 'prim' && type.prim === 'OPTIONAL';

const byName = <T extends { readonly name: string }>(list: readonly T[]) =>
  new Map(list.map((item) => [item.name, item]));

/** The ones of `past` that `present` lacks, and the pairs it keeps, in `past`'s order. */
function split<T extends { readonly name: string }>(past: readonly T[], present: readonly T[]) {
  const kept = byName(present);
  const missing: T[] = [];
  const existing: [T, T][] = [];
  for (const item of past) {
    const other = kept.get(item.name);
    if (other) existing.push([item, other]);
    else missing.push(item);
  }
  return { missing, existing };
}

class PairCheck {
  constructor(
    private readonly past: DecodedPackage,
    private readonly present: DecodedPackage,
    private readonly info: (packageId: string) => UpgradePackageInfo | undefined,
  ) {}

  check(): string | undefined {
    const pastLf = lfString(this.past.lfVersion);
    const presentLf = lfString(this.present.lfVersion);
    if (compareLfVersions(pastLf, presentLf) > 0) {
      return `The upgraded package uses an older LF version (${presentLf} < ${pastLf})`;
    }
    const { missing, existing } = split(this.past.modules, this.present.modules);
    const [gone] = missing;
    if (gone) {
      return `Module ${gone.name} appears in package that is being upgraded, but does not appear in the upgrading package.`;
    }
    for (const [past, present] of existing) {
      const problem = this.checkModule(past, present);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  private checkModule(past: Module, present: Module): string | undefined {
    const templates = split(past.templates, present.templates);
    const [goneTemplate] = templates.missing;
    if (goneTemplate) {
      return `Template ${goneTemplate.name} appears in package that is being upgraded, but does not appear in the upgrading package.`;
    }
    for (const [pastTemplate, presentTemplate] of templates.existing) {
      const problem = this.checkTemplate(pastTemplate, presentTemplate);
      if (problem !== undefined) return problem;
    }
    for (const [pastTemplate, presentTemplate] of templates.existing) {
      const problem = this.checkInstances(pastTemplate, presentTemplate);
      if (problem !== undefined) return problem;
    }
    const dataTypes = split(
      past.dataTypes.filter((dataType) => dataType.kind !== 'interface'),
      present.dataTypes.filter((dataType) => dataType.kind !== 'interface'),
    );
    const goneType = dataTypes.missing.find((dataType) => dataType.serializable);
    if (goneType) {
      return `Data type ${goneType.name} appears in package that is being upgraded, but does not appear in the upgrading package.`;
    }
    for (const [pastType, presentType] of dataTypes.existing) {
      const problem = this.checkDataType(
        pastType,
        presentType,
        originIn(past, pastType.name),
        originIn(present, presentType.name),
      );
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  private checkTemplate(past: Template, present: Template): string | undefined {
    const choices = split(past.choices, present.choices);
    const [goneChoice] = choices.missing;
    if (goneChoice) {
      return `Choice ${goneChoice.name} appears in package that is being upgraded, but does not appear in the upgrading package.`;
    }
    for (const [pastChoice, presentChoice] of choices.existing) {
      if (!this.sameType(pastChoice.returnType, presentChoice.returnType, [], [])) {
        return `The upgraded choice ${presentChoice.name} cannot change its return type.`;
      }
    }
    if (past.keyType && present.keyType) {
      if (!this.sameType(past.keyType, present.keyType, [], [])) {
        return `The upgraded template ${past.name} cannot change its key type.`;
      }
    } else if (past.keyType) {
      return `The upgraded template ${past.name} cannot remove its key.`;
    } else if (present.keyType) {
      return `The upgraded template ${past.name} cannot add a key.`;
    }
    return undefined;
  }

  /**
   * Interface instances stay as they were. Interfaces are matched by module, name and package
   * name (inferred: Daml keys them by full id, which an interface defined in the upgraded package
   * itself could never keep).
   */
  private checkInstances(past: Template, present: Template): string | undefined {
    const key = (name: TypeConName, owner: DecodedPackage) => {
      const packageId = this.resolve(name.packageId, owner);
      const packageName = this.lookup(packageId)?.name ?? packageId;
      return `${packageName}:${name.module}:${name.name}`;
    };
    const kept = new Set(present.implements.map((name) => key(name, this.present)));
    const had = new Set(past.implements.map((name) => key(name, this.past)));
    const gone = past.implements.find((name) => !kept.has(key(name, this.past)));
    if (gone) {
      return `Implementation of interface ${this.renderName(gone, this.past)} by template ${past.name} appears in package that is being upgraded, but does not appear in this package.`;
    }
    const added = present.implements.find((name) => !had.has(key(name, this.present)));
    if (added) {
      return `Implementation of interface ${this.renderName(added, this.present)} by template ${present.name} appears in this package, but does not appear in package that is being upgraded.`;
    }
    return undefined;
  }

  private checkDataType(
    past: DataType,
    present: DataType,
    pastOrigin: Origin,
    presentOrigin: Origin,
  ): string | undefined {
    const origin = renderOrigin(presentOrigin);
    if (!past.serializable) return undefined;
    if (!present.serializable) {
      return `The upgraded ${origin} was serializable and is now unserializable. Datatypes cannot change their serializability via upgrades.`;
    }
    if (!sameOrigin(pastOrigin, presentOrigin)) {
      return `The record ${past.name} has changed origin from ${renderOrigin(pastOrigin)} to ${origin}`;
    }
    if (past.params.length !== present.params.length) {
      return `The upgraded ${origin} has changed the number of type variables it has.`;
    }
    const envs = [past.params, present.params] as const;
    if (past.kind === 'record' && present.kind === 'record') {
      return this.checkFields(past.fields, present.fields, presentOrigin, envs);
    }
    if (past.kind === 'variant' && present.kind === 'variant') {
      const { missing, existing } = split(past.constructors, present.constructors);
      if (missing.length > 0) return `The upgraded ${origin} has removed an existing variant.`;
      if (existing.some(([a, b]) => !this.sameType(a.type, b.type, ...envs))) {
        return `The upgraded ${origin} has changed the type of a variant.`;
      }
      if (past.constructors.some((c, i) => c.name !== present.constructors[i]?.name)) {
        return `The upgraded ${origin} has changed the order of its variants - any new variant must be added at the end of the variant.`;
      }
      return undefined;
    }
    if (past.kind === 'enum' && present.kind === 'enum') {
      if (past.constructors.some((name) => !present.constructors.includes(name))) {
        return `The upgraded ${origin} has removed an existing variant.`;
      }
      if (past.constructors.some((name, i) => name !== present.constructors[i])) {
        return `The upgraded ${origin} has changed the order of its variants - any new variant must be added at the end of the enum.`;
      }
      return undefined;
    }
    if (past.kind === present.kind) return undefined;
    return `The upgraded data type ${past.name} has changed from a ${past.kind} to a ${present.kind}. Datatypes cannot change variety via upgrades.`;
  }

  private checkFields(
    past: readonly Field[],
    present: readonly Field[],
    presentOrigin: Origin,
    envs: readonly [readonly string[], readonly string[]],
  ): string | undefined {
    const origin = renderOrigin(presentOrigin);
    const { missing, existing } = split(past, present);
    if (missing.length > 0) return `The upgraded ${origin} is missing some of its original fields.`;
    if (existing.some(([a, b]) => !this.sameType(a.type, b.type, ...envs))) {
      return `The upgraded ${origin} has changed the types of some of its original fields.`;
    }
    const known = new Set(past.map((field) => field.name));
    if (present.some((field) => !known.has(field.name) && !isOptional(field.type))) {
      return presentOrigin.kind === 'variantConstructor'
        ? `The upgraded ${origin} has added a field.`
        : `The upgraded ${origin} has added new fields, but those fields are not Optional.`;
    }
    if (past.some((field, i) => field.name !== present[i]?.name)) {
      return `The upgraded ${origin} has changed the order of its fields - any new fields must be added at the end of the record.`;
    }
    return undefined;
  }

  // ── Types ──

  /** `checkTypeList`: type variables by binder position, constructors by `sameTypeCon`. */
  private sameType(
    past: DamlType,
    present: DamlType,
    pastEnv: readonly string[],
    presentEnv: readonly string[],
  ): boolean {
    const sameArgs = (a: readonly DamlType[], b: readonly DamlType[]) =>
      a.length === b.length &&
      a.every((arg, i) => {
        const other = b[i];
        return other !== undefined && this.sameType(arg, other, pastEnv, presentEnv);
      });
    switch (past.kind) {
      case 'var': {
        if (present.kind !== 'var') return false;
        const a = pastEnv.indexOf(past.name);
        const b = presentEnv.indexOf(present.name);
        const sameVar = a === -1 && b === -1 ? past.name === present.name : a === b;
        return sameVar && sameArgs(past.args, present.args);
      }
      case 'nat':
        return present.kind === 'nat' && past.value === present.value;
      case 'prim':
        return (
          present.kind === 'prim' && past.prim === present.prim && sameArgs(past.args, present.args)
        );
      case 'con':
        return (
          present.kind === 'con' &&
          this.sameTypeCon(past.tycon, present.tycon) &&
          sameArgs(past.args, present.args)
        );
      default:
        // Synonyms, foralls and structs never match, as in Daml (they are not serializable).
        return false;
    }
  }

  /** `checkIdentifiers`: same module and name, in the same package or an upgrade of it. */
  private sameTypeCon(past: TypeConName, present: TypeConName): boolean {
    if (past.module !== present.module || past.name !== present.name) return false;
    const pastId = this.resolve(past.packageId, this.past);
    const presentId = this.resolve(present.packageId, this.present);
    if (pastId === presentId) return true;
    const pastInfo = this.upgradable(pastId);
    const presentInfo = this.upgradable(presentId);
    if (!pastInfo || !presentInfo) return false;
    return (
      pastInfo.name === presentInfo.name &&
      comparePackageVersions(pastInfo.version, presentInfo.version) <= 0
    );
  }

  private upgradable(packageId: string): UpgradePackageInfo | undefined {
    const info = this.lookup(packageId);
    return info && lfSupportsUpgrades(info.lfVersion) ? info : undefined;
  }

  private lookup(packageId: string): UpgradePackageInfo | undefined {
    for (const pkg of [this.past, this.present]) {
      if (pkg.packageId === packageId) {
        return { name: pkg.name, version: pkg.version, lfVersion: lfString(pkg.lfVersion) };
      }
    }
    return this.info(packageId);
  }

  /** Hand-built models may say `''` for "this package". */
  private resolve(packageId: string, owner: DecodedPackage): string {
    return packageId === '' ? owner.packageId : packageId;
  }

  /** `Ref.Identifier.toString`: `<package id>:<module>:<name>`. */
  private renderName(name: TypeConName, owner: DecodedPackage): string {
    return `${this.resolve(name.packageId, owner)}:${name.module}:${name.name}`;
  }
}
