import { comparePackageVersions } from '@/api/packages';
import {
  VETTING_FORCE_FLAGS,
  type PlannedVettingChange,
  type VettedPackage,
  type VettedPackages,
  type VettingForceFlag,
  type VettingPlan,
} from '@/api/package-vetting';

/**
 * The vetting change planner's pure part: the plan as a URL (shareable, reloadable), what the
 * vetting would be after it, each package's verdict, the preferred package before and after, the
 * inverse plan (undo), and the participant's refusals in plain words.
 */

/** A plan names at most this many packages (the URL and the page stay bounded). */
export const MAX_PLAN_CHANGES = 50;
/** At most this many parties are checked for preferred packages. */
export const MAX_PLAN_PARTIES = 20;
const MAX_ID_LENGTH = 255;
/** A package id as the participant accepts one (ledger-api-behaviour.md §6). */
const PACKAGE_ID = /^[A-Za-z0-9_ -]{1,64}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const KNOWN_FLAGS: readonly string[] = Object.values(VETTING_FORCE_FLAGS);

/** A plan as the planner's URL holds it, with the parties the user picked. */
export type PlanState = { plan: VettingPlan; parties: string[] };

/** A plan read from the URL, and what of it was dropped and why. */
export type ReadPlan = PlanState & { problems: string[] };

/**
 * The plan in `search` (`sync`, `vet` = `<id>[@from][@until]`, `unvet` = `<id>`, `force`,
 * `party`). Anything malformed is dropped with a problem to show, never sent.
 */
export function readPlanSearch(search: URLSearchParams): ReadPlan {
  const problems: string[] = [];
  const changes: PlannedVettingChange[] = [];
  const seen = new Set<string>();
  const add = (change: PlannedVettingChange) => {
    if (seen.has(change.packageId)) {
      problems.push(`Package ${change.packageId} is named twice; only its first change is kept.`);
      return;
    }
    if (changes.length >= MAX_PLAN_CHANGES) {
      problems.push(`A plan holds at most ${String(MAX_PLAN_CHANGES)} packages.`);
      return;
    }
    seen.add(change.packageId);
    changes.push(change);
  };
  for (const [key, value] of search) {
    if (key === 'unvet') {
      if (PACKAGE_ID.test(value)) add({ operation: 'Unvet', packageId: value });
      else problems.push(`"${value.slice(0, 80)}" is not a package id.`);
    }
    if (key === 'vet') {
      const [packageId = '', from = '', until = ''] = value.split('@');
      if (!PACKAGE_ID.test(packageId)) {
        problems.push(`"${packageId.slice(0, 80)}" is not a package id.`);
      } else if ((from && !INSTANT.test(from)) || (until && !INSTANT.test(until))) {
        problems.push(`The validity bounds of ${packageId} are not ISO instants.`);
      } else {
        add({
          operation: 'Vet',
          packageId,
          ...(from ? { validFrom: from } : {}),
          ...(until ? { validUntil: until } : {}),
        });
      }
    }
  }
  const forceFlags = search
    .getAll('force')
    .filter((flag): flag is VettingForceFlag => KNOWN_FLAGS.includes(flag));
  const synchronizerId = (search.get('sync') ?? '').slice(0, MAX_ID_LENGTH);
  const parties = [
    ...new Set(search.getAll('party').filter((party) => party && party.length <= MAX_ID_LENGTH)),
  ].slice(0, MAX_PLAN_PARTIES);
  return {
    plan: { synchronizerId, changes, forceFlags: [...new Set(forceFlags)] },
    parties,
    problems,
  };
}

/**
 * The synchronizer a plan is for: the one it names, or the participant's only one (with one there
 * is nothing to choose, and the URL need not say it); '' when the user must pick.
 */
export function plannedSynchronizer(
  named: string,
  connected: readonly { synchronizerId: string }[],
): string {
  if (named) return named;
  return connected.length === 1 ? (connected[0]?.synchronizerId ?? '') : '';
}

/** The URL query of a plan: {@link readPlanSearch} reads it back unchanged. */
export function planSearch({ plan, parties }: PlanState): string {
  const search = new URLSearchParams();
  if (plan.synchronizerId) search.set('sync', plan.synchronizerId);
  for (const change of plan.changes) {
    if (change.operation === 'Unvet') {
      search.append('unvet', change.packageId);
    } else {
      const bounds =
        change.validFrom || change.validUntil
          ? `@${change.validFrom ?? ''}@${change.validUntil ?? ''}`
          : '';
      search.append('vet', `${change.packageId}${bounds}`);
    }
  }
  for (const flag of plan.forceFlags) search.append('force', flag);
  for (const party of parties) search.append('party', party);
  return search.toString();
}

/** What the console knows of a package's name and version. */
export type PackageLabel = { name: string; version: string };

/**
 * The vetting after the plan, computed here (the dry run's answer is the authority; this serves
 * when the dry run refused the plan, to still show what it would do).
 */
export function simulatePlan(
  before: readonly VettedPackage[],
  plan: VettingPlan,
  labels: ReadonlyMap<string, PackageLabel>,
): VettedPackage[] {
  const vetted = new Map(before.map((entry) => [entry.packageId, entry]));
  for (const change of plan.changes) {
    if (change.operation === 'Unvet') {
      vetted.delete(change.packageId);
      continue;
    }
    const label = labels.get(change.packageId);
    vetted.set(change.packageId, {
      packageId: change.packageId,
      packageName: label?.name ?? '',
      packageVersion: label?.version ?? '',
      ...(change.validFrom ? { validFromInclusive: change.validFrom } : {}),
      ...(change.validUntil ? { validUntilExclusive: change.validUntil } : {}),
    });
  }
  return [...vetted.values()];
}

const bound = (value: string | null | undefined) => value ?? undefined;

/**
 * The plan that undoes a change: vet again (with the bounds it had) what was vetted before and is
 * not after, re-bound what changed bounds, unvet what is vetted only after. No force flags: its
 * own dry run says whether it needs any.
 */
export function inversePlan(
  past: VettedPackages | null | undefined,
  next: VettedPackages,
): VettingPlan {
  const before = new Map((past?.packages ?? []).map((entry) => [entry.packageId, entry]));
  const after = new Map(next.packages.map((entry) => [entry.packageId, entry]));
  const changes: PlannedVettingChange[] = [];
  for (const [packageId, entry] of before) {
    const now = after.get(packageId);
    const isSame =
      now !== undefined &&
      bound(now.validFromInclusive) === bound(entry.validFromInclusive) &&
      bound(now.validUntilExclusive) === bound(entry.validUntilExclusive);
    if (isSame) continue;
    const from = bound(entry.validFromInclusive);
    const until = bound(entry.validUntilExclusive);
    changes.push({
      operation: 'Vet',
      packageId,
      ...(from ? { validFrom: from } : {}),
      ...(until ? { validUntil: until } : {}),
    });
  }
  for (const packageId of after.keys()) {
    if (!before.has(packageId)) changes.push({ operation: 'Unvet', packageId });
  }
  return { synchronizerId: next.synchronizerId, changes, forceFlags: [] };
}

/** True when the vetting holds the same packages with the same bounds. */
export function sameVetting(a: readonly VettedPackage[], b: readonly VettedPackage[]): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(a.map((entry) => [entry.packageId, entry]));
  return b.every((entry) => {
    const other = byId.get(entry.packageId);
    return (
      other !== undefined &&
      bound(other.validFromInclusive) === bound(entry.validFromInclusive) &&
      bound(other.validUntilExclusive) === bound(entry.validUntilExclusive)
    );
  });
}

// ── verdicts ──

/** A package that depends on a planned one. */
export type Dependent = { packageId: string; label: PackageLabel | undefined };

export type ContractCount = {
  total: number;
  isComplete: boolean;
  byTemplate: Readonly<Record<string, number>>;
};

export type PackageVerdict = {
  change: PlannedVettingChange;
  label: PackageLabel | undefined;
  /** The change leaves the package as it was (vetting an already vetted one, unvetting an unvetted one). */
  isNoChange: boolean;
  /** Undefined while counting, or when not counted (a vet). */
  contracts: ContractCount | undefined;
  /** Packages vetted here (before or after) that depend on this one directly. */
  dependents: Dependent[];
  /** Dependents still vetted after an unvet: they lose a dependency. */
  brokenDependents: Dependent[];
  /** For a vet: its dependencies (transitively) not vetted after the change. */
  missingDependencies: Dependent[];
  /** What the user must weigh: active contracts left on an unvetted package, a broken dependency. */
  warnings: string[];
};

export type VerdictInput = {
  plan: VettingPlan;
  before: readonly VettedPackage[];
  after: readonly VettedPackage[];
  labels: ReadonlyMap<string, PackageLabel>;
  /** Direct dependencies of packages vetted before or after; missing ones are not known yet. */
  dependencies: ReadonlyMap<string, readonly string[]>;
  contracts: ReadonlyMap<string, ContractCount>;
};

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

export const packageLabelText = (packageId: string, label: PackageLabel | undefined) =>
  label?.name ? `${label.name} ${label.version}`.trim() : `package ${packageId.slice(0, 12)}…`;

/** Each planned package's verdict: what the change does to contracts and other packages. */
export function buildVerdicts({
  plan,
  before,
  after,
  labels,
  dependencies,
  contracts,
}: VerdictInput): PackageVerdict[] {
  const beforeIds = new Set(before.map((entry) => entry.packageId));
  const afterIds = new Set(after.map((entry) => entry.packageId));
  const candidates = new Set([...beforeIds, ...afterIds]);
  const toDependent = (packageId: string): Dependent => ({
    packageId,
    label: labels.get(packageId),
  });
  return plan.changes.map((change) => {
    const { packageId } = change;
    const label = labels.get(packageId);
    const dependents = [...candidates]
      .filter((candidate) => candidate !== packageId)
      .filter((candidate) => dependencies.get(candidate)?.includes(packageId))
      .sort()
      .map(toDependent);
    const isUnvet = change.operation === 'Unvet';
    const brokenDependents =
      isUnvet && !afterIds.has(packageId)
        ? dependents.filter((dependent) => afterIds.has(dependent.packageId))
        : [];
    const missingDependencies: Dependent[] = [];
    if (!isUnvet) {
      const seen = new Set<string>();
      const pending = [...(dependencies.get(packageId) ?? [])];
      for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
        if (seen.has(next)) continue;
        seen.add(next);
        if (!afterIds.has(next)) missingDependencies.push(toDependent(next));
        pending.push(...(dependencies.get(next) ?? []));
      }
      missingDependencies.sort((a, b) => (a.packageId < b.packageId ? -1 : 1));
    }
    const count = contracts.get(packageId);
    const warnings: string[] = [];
    if (isUnvet && count && count.total > 0) {
      const shown = count.isComplete
        ? plural(count.total, 'active contract')
        : `at least ${plural(count.total, 'active contract')}`;
      warnings.push(
        `${shown} use its templates. They stay active, but this participant will not accept new transactions on them with this package until it is vetted again.`,
      );
    }
    if (brokenDependents.length > 0) {
      warnings.push(
        `${plural(brokenDependents.length, 'vetted package')} depend${brokenDependents.length === 1 ? 's' : ''} on it: ${brokenDependents.map((d) => packageLabelText(d.packageId, d.label)).join(', ')}.`,
      );
    }
    if (missingDependencies.length > 0) {
      warnings.push(
        `It needs ${plural(missingDependencies.length, 'package')} not vetted here: ${missingDependencies.map((d) => packageLabelText(d.packageId, d.label)).join(', ')}.`,
      );
    }
    return {
      change,
      label,
      isNoChange: isUnvet
        ? !beforeIds.has(packageId)
        : beforeIds.has(packageId) &&
          afterIds.has(packageId) &&
          sameBounds(before, after, packageId),
      contracts: count,
      dependents,
      brokenDependents,
      missingDependencies,
      warnings,
    };
  });
}

function sameBounds(
  before: readonly VettedPackage[],
  after: readonly VettedPackage[],
  packageId: string,
): boolean {
  const a = before.find((entry) => entry.packageId === packageId);
  const b = after.find((entry) => entry.packageId === packageId);
  return sameVetting(a ? [a] : [], b ? [b] : []);
}

// ── preferred packages ──

/** A package a preference names. */
export type PreferenceRef = { packageId: string; packageName: string; packageVersion: string };

function validAt(entry: VettedPackage, at: number): boolean {
  const from = entry.validFromInclusive ? Date.parse(entry.validFromInclusive) : undefined;
  const until = entry.validUntilExclusive ? Date.parse(entry.validUntilExclusive) : undefined;
  return (from === undefined || from <= at) && (until === undefined || at < until);
}

/** The highest version of `name` in a vetting state, valid at `at` (Canton's preference order). */
export function highestVetted(
  vetting: readonly VettedPackage[],
  name: string,
  at: number,
): PreferenceRef | undefined {
  let best: PreferenceRef | undefined;
  for (const entry of vetting) {
    if (entry.packageName !== name || !validAt(entry, at)) continue;
    const ref = {
      packageId: entry.packageId,
      packageName: name,
      packageVersion: entry.packageVersion ?? '',
    };
    if (
      !best ||
      comparePackageVersions(ref.packageVersion, best.packageVersion) > 0 ||
      (comparePackageVersions(ref.packageVersion, best.packageVersion) === 0 &&
        ref.packageId > best.packageId)
    ) {
      best = ref;
    }
  }
  return best;
}

/** The preference after the change as the console predicts it, and how sure it is. */
export type PredictedPreference = {
  after: PreferenceRef | undefined;
  /** True when other participants' vetting (which a dry run does not show) may change it. */
  dependsOnOthers: boolean;
};

/**
 * Which package `preferred-packages` will select for a party after the change. The participant
 * picks the highest version every participant hosting the party has vetted; the dry run shows
 * only this participant's vetting. So: when the answer before was this participant's own highest
 * version, the party follows this participant's vetting (exact when it is hosted here alone);
 * when it was lower, other participants hold it back, and it stays unless this participant no
 * longer vets it, then falls to this participant's highest version not above it.
 */
export function predictPreference(
  before: PreferenceRef | undefined,
  vettingBefore: readonly VettedPackage[],
  vettingAfter: readonly VettedPackage[],
  name: string,
  at: number,
): PredictedPreference {
  const ownBefore = highestVetted(vettingBefore, name, at);
  const ownAfter = highestVetted(vettingAfter, name, at);
  if (!before || before.packageId === ownBefore?.packageId) {
    return { after: ownAfter, dependsOnOthers: ownAfter?.packageId !== before?.packageId };
  }
  const stillVetted = vettingAfter.some(
    (entry) => entry.packageId === before.packageId && validAt(entry, at),
  );
  if (stillVetted) return { after: before, dependsOnOthers: false };
  const lower = highestVetted(
    vettingAfter.filter(
      (entry) => comparePackageVersions(entry.packageVersion ?? '', before.packageVersion) <= 0,
    ),
    name,
    at,
  );
  return { after: lower, dependsOnOthers: true };
}

// ── the participant's refusals, in plain words ──

export type ForceOffer = { flag: VettingForceFlag; label: string; risk: string };

const FORCE_OFFERS: Readonly<Record<string, ForceOffer>> = {
  TOPOLOGY_DEPENDENCIES_NOT_VETTED: {
    flag: VETTING_FORCE_FLAGS.allowUnvettedDependencies,
    label: 'Allow unvetted dependencies',
    risk: 'Packages left vetted without a dependency cannot be used in transactions on this synchronizer: commands and incoming transactions that need them fail until the dependency is vetted again.',
  },
  NOT_VALID_UPGRADE_PACKAGE: {
    flag: VETTING_FORCE_FLAGS.allowIncompatibleUpgrades,
    label: 'Allow incompatible upgrades',
    risk: 'Two versions that cannot upgrade each other will both be vetted: contracts of one may not be readable as the other, and package selection can pick a version that breaks existing contracts.',
  },
  KNOWN_PACKAGE_VERSION: {
    flag: VETTING_FORCE_FLAGS.allowIncompatibleUpgrades,
    label: 'Allow two packages with the same name and version',
    risk: 'Two different packages will claim the same name and version: package selection by version becomes ambiguous.',
  },
};

/** The force flag that would let the participant accept what it refused, if there is one. */
export function forceOfferFor(code: string | undefined): ForceOffer | undefined {
  return code === undefined ? undefined : FORCE_OFFERS[code];
}

const PLAIN_REFUSALS: Readonly<Record<string, string>> = {
  TOPOLOGY_DEPENDENCIES_NOT_VETTED:
    'The change would leave a vetted package without a package it depends on. Vet the dependency too, unvet the packages that need it as well, or force it.',
  NOT_VALID_UPGRADE_PACKAGE:
    'A package to vet is not a valid upgrade of another version of it that would be vetted too.',
  KNOWN_PACKAGE_VERSION:
    'Two different packages with the same name and version would be vetted together.',
  TOPOLOGY_SERIAL_MISMATCH:
    'The vetting on this synchronizer changed since the dry run (another change came in between). Nothing was changed: plan again on the vetting as it is now.',
  UNRESOLVED_VETTING_REFERENCE: 'A package in the plan is not stored on this participant.',
  PACKAGE_SERVICE_NOT_CONNECTED_TO_SYNCHRONIZER:
    'This participant is not connected to the chosen synchronizer.',
  PACKAGE_SERVICE_CANNOT_AUTODETECT_SYNCHRONIZER:
    'This participant is connected to several synchronizers: choose one.',
};

/** What a refusal of the plan means, in plain words; undefined for codes without one. */
export function plainRefusal(code: string | undefined): string | undefined {
  return code === undefined ? undefined : PLAIN_REFUSALS[code];
}
