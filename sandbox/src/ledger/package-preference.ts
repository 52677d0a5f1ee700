import { comparePackageVersions } from '@ledger-console/participant/daml-lf/package-version';
import { SandboxError, invalidArgument, invalidField, missingField } from '../errors/sandbox-error';
import type { LedgerState } from '../ledger-state';
import { packageNameProblem, partyProblem } from '../validation/identifiers';
import { compareInstants, parseInstant, type Instant } from './package-vetting';
import { dependenciesOf } from './stored-package-dependencies';

/**
 * The interactive submission service's package preferences (`preferred-packages`,
 * `preferred-package-version`): for each package name, the highest version that every participant
 * hosting the given parties has vetted, at a time, on one synchronizer. Canton 3.5's
 * PackagePreferenceBackend with its protocol-version-35 rules, over the sandbox's vetting state;
 * its reasons for finding nothing are reproduced in substance, not to the character.
 */

// ── Requests, as the HTTP layer decodes them ──

export type PackageVettingRequirement = { parties: string[]; packageName: string };

export type PreferredPackagesRequest = {
  packageVettingRequirements: PackageVettingRequirement[];
  /** '' for every synchronizer the parties share. */
  synchronizerId: string;
  /** null for the participant's clock. */
  vettingValidAt: Instant | null;
};

export type PackageReference = { packageId: string; packageName: string; packageVersion: string };

export type PackagePreferences =
  | { found: true; packageReferences: PackageReference[]; synchronizerId: string }
  /** No synchronizer satisfies the requirements: `reason` says why, per synchronizer. */
  | { found: false; reason: string };

/** `preferred-packages` answers NO_PREFERRED_PACKAGES_FOUND where the version lookup finds none. */
export const noPreferredPackagesFound = (reason: string) =>
  new SandboxError(
    'NO_PREFERRED_PACKAGES_FOUND',
    `Failed to compute package preferences. Reason: ${reason}`,
  );

// ── Validation (GetPreferredPackagesRequestValidator) ──

/** Package name → requiring parties, in request order; a repeated name keeps its last parties. */
type Requirements = Map<string, ReadonlySet<string>>;

function validateRequirements(request: PreferredPackagesRequest): Requirements {
  if (request.packageVettingRequirements.length === 0) {
    throw missingField('package_vetting_requirements/packageVettingRequirements');
  }
  const requirements: Requirements = new Map();
  for (const { packageName, parties } of request.packageVettingRequirements) {
    if (packageName === '') throw missingField('package_name/packageName');
    const nameProblem = packageNameProblem(packageName);
    if (nameProblem) throw invalidField('package_name/packageName', nameProblem);
    if (parties.length === 0) throw missingField('parties');
    const unique = new Set(parties);
    for (const party of unique) {
      const problem = partyProblem(party);
      if (problem) throw invalidArgument(problem);
    }
    requirements.set(packageName, unique);
  }
  return requirements;
}

/** SynchronizerId.fromString's complaint about `id` (a UniqueIdentifier), or undefined. */
function synchronizerIdProblem(id: string): string | undefined {
  const separator = id.indexOf('::');
  if (separator === 0) return `Invalid unique identifier \`${id}\` with empty identifier.`;
  if (separator < 0) return `Invalid unique identifier \`${id}\` with missing namespace.`;
  const shown = id.slice(0, 200);
  const identifier = id.slice(0, separator);
  const identifierProblem = partyProblem(identifier);
  if (identifierProblem)
    return `Identifier decoding of \`${shown}\` failed with: ${identifierProblem}`;
  const fingerprint = id.slice(separator + 2);
  const fingerprintProblem = fingerprint.includes('::')
    ? 'String contains reserved delimiter `::`.'
    : partyProblem(fingerprint);
  if (fingerprintProblem)
    return `Fingerprint decoding of \`${shown}\` failed with: ${fingerprintProblem}`;
  return undefined;
}

// ── Package metadata ──

type Ref = { packageId: string; name: string; version: string };

/** PackageReference's order: version, then package id; the last is the most preferred. */
const compareRefs = (a: Ref, b: Ref) =>
  comparePackageVersions(a.version, b.version) || (a.packageId < b.packageId ? -1 : 1);

/** Canton's pretty form of a package reference, as its reasons print them. */
const showRef = (ref: Ref) => `pkg:${ref.name}:${ref.version}/${ref.packageId}`;
const showRefs = (refs: readonly Ref[]) => `Set(${refs.map(showRef).join(', ')})`;

type PackageIndex = {
  byId: ReadonlyMap<string, Ref>;
  idsByName: ReadonlyMap<string, readonly string[]>;
  dependencies: (packageId: string) => readonly string[];
};

function packageIndex(state: LedgerState): PackageIndex {
  const byId = new Map<string, Ref>();
  const idsByName = new Map<string, string[]>();
  for (const pkg of state.packages.all()) {
    byId.set(pkg.packageId, { packageId: pkg.packageId, name: pkg.name, version: pkg.version });
    const ids = idsByName.get(pkg.name);
    if (ids) ids.push(pkg.packageId);
    else idsByName.set(pkg.name, [pkg.packageId]);
  }
  return { byId, idsByName, dependencies: (packageId) => dependenciesOf(state, packageId) };
}

/** Every package `packageId` depends on, directly or not (the graph is acyclic). */
function transitiveDependencies(index: PackageIndex, packageId: string): Set<string> {
  const found = new Set<string>();
  const pending = [...index.dependencies(packageId)];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (found.has(next)) continue;
    found.add(next);
    pending.push(...index.dependencies(next));
  }
  return found;
}

// ── Topology: who is hosted where, and what is vetted (PartyVettingMapComputation) ──

/** Party → package ids vetted at `at` by every participant hosting it, per synchronizer. */
type PartyVettingMap = Map<string, Map<string, ReadonlySet<string>>>;

const MAX_SET_TEXT = 1024;

/**
 * A Scala `Set` as an error prints it. Canton cuts error details to 4 KiB in all; cut here so a
 * request naming thousands of parties cannot make a megabyte error body.
 */
function setText(items: Iterable<string>) {
  const text = `Set(${[...items].join(', ')})`;
  return text.length > MAX_SET_TEXT ? `${text.slice(0, MAX_SET_TEXT - 3)}...` : text;
}

function vettedAt(state: LedgerState, synchronizerId: string, participantId: string, at: Instant) {
  const vetted = new Set<string>();
  for (const entry of state.vetting.get(synchronizerId, participantId)?.packages ?? []) {
    const from = entry.validFrom === null ? undefined : parseInstant(entry.validFrom);
    const until = entry.validUntil === null ? undefined : parseInstant(entry.validUntil);
    // VettedPackage.validAt: from inclusive, until exclusive.
    if (from && compareInstants(from, at) > 0) continue;
    if (until && compareInstants(until, at) <= 0) continue;
    vetted.add(entry.packageId);
  }
  return vetted;
}

function partyVettingMap(
  state: LedgerState,
  parties: readonly string[],
  prescribed: string | undefined,
  at: Instant,
): PartyVettingMap {
  if (prescribed !== undefined && !state.synchronizerIds.includes(prescribed)) {
    const reason = `cannot resolve to physical synchronizer; ensure the node is connected to ${prescribed}`;
    throw new SandboxError(
      'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
      `Cannot submit transaction to prescribed synchronizer \`${prescribed}\` because: ${reason}`,
      { context: { synchronizerId: prescribed, reason } },
    );
  }
  // Every party the sandbox knows is hosted by this one participant, on the synchronizers it was
  // allocated on; parties it only knows of have no hosting it could vet for.
  const hosting = new Map(parties.map((party) => [party, state.hostingSynchronizers(party)]));
  const hosts = (party: string, synchronizerId: string) =>
    hosting.get(party)?.includes(synchronizerId) ?? false;
  const unknown = parties.filter((party) => hosting.get(party)?.length === 0);
  if (unknown.length > 0) {
    throw new SandboxError(
      'UNKNOWN_INFORMEES',
      'The participant is not connected to any synchronizer where the given informees are known.',
      { context: { unknownInformees: setText(unknown) } },
    );
  }
  const withAny = state.synchronizerIds.filter((id) => parties.some((party) => hosts(party, id)));
  const withAll = withAny.filter((id) => parties.every((party) => hosts(party, id)));
  if (withAll.length === 0) {
    throw new SandboxError(
      'INFORMEES_NOT_ACTIVE',
      'There is no common synchronizer where all informees are active',
      { context: { synchronizers: setText(withAny), informees: setText(parties) } },
    );
  }
  if (prescribed !== undefined && !withAll.includes(prescribed)) {
    throw new SandboxError(
      'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
      `Not all informees are on the specified synchronizer: ${prescribed}, but on ${setText(withAll)}`,
      {
        context: {
          physicalSynchronizerId: prescribed,
          synchronizersOfAllInformees: setText(withAll),
        },
      },
    );
  }
  const result: PartyVettingMap = new Map();
  for (const synchronizerId of prescribed === undefined ? withAll : [prescribed]) {
    const vetted = vettedAt(state, synchronizerId, state.participantId, at);
    result.set(synchronizerId, new Map(parties.map((party) => [party, vetted])));
  }
  return result;
}

// ── Candidates (PackagePreferenceBackend.computePerSynchronizerPackageCandidates) ──

/** Sorted candidates, the most preferred last; or why there are none. */
type Candidate = { ok: true; refs: Ref[] } | { ok: false; reason: string };

function groupByName(index: PackageIndex, packageIds: ReadonlySet<string>): Map<string, Ref[]> {
  const byName = new Map<string, Ref[]>();
  for (const packageId of packageIds) {
    const ref = index.byId.get(packageId);
    // Vetted but not stored here: the participant cannot reason about it.
    if (!ref) continue;
    const refs = byName.get(ref.name);
    if (refs) refs.push(ref);
    else byName.set(ref.name, [ref]);
  }
  for (const refs of byName.values()) refs.sort(compareRefs);
  return byName;
}

function candidatesFor(
  index: PackageIndex,
  vettedByParty: ReadonlyMap<string, ReadonlySet<string>>,
  requirements: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Candidate> {
  // Each party's vetted packages, with a reason for each name it requires but has none of.
  // Parties with the same hosting share one vetted set, grouped once.
  const grouped = new Map<ReadonlySet<string>, Map<string, Ref[]>>();
  const perParty = new Map<string, Map<string, Candidate>>();
  for (const [party, required] of requirements) {
    const vetted = vettedByParty.get(party) ?? new Set<string>();
    let byName = grouped.get(vetted);
    if (!byName) {
      byName = groupByName(index, vetted);
      grouped.set(vetted, byName);
    }
    const own = new Map<string, Candidate>();
    for (const [name, refs] of byName) own.set(name, { ok: true, refs });
    for (const name of required) {
      if (!own.has(name)) {
        own.set(name, {
          ok: false,
          reason: `No package with package-name '${name}' is consistently vetted by all hosting participants of party ${party}.`,
        });
      }
    }
    perParty.set(party, own);
  }
  // Required names: what every requiring party has in common. Others: what any party has.
  const requiredNames = new Set([...requirements.values()].flatMap((names) => [...names]));
  const merged = new Map<string, Candidate>();
  for (const [party, own] of perParty) {
    for (const [name, next] of own) {
      const current = merged.get(name);
      if (requiredNames.has(name)) {
        if (!requirements.get(party)?.has(name)) continue;
        if (!current) merged.set(name, next);
        else if (current.ok && next.ok) {
          const ids = new Set(next.refs.map((ref) => ref.packageId));
          const common = current.refs.filter((ref) => ids.has(ref.packageId));
          merged.set(
            name,
            common.length > 0
              ? { ok: true, refs: common }
              : {
                  ok: false,
                  reason: `No package candidates for '${name}' after considering candidates for party ${party}.\nCurrent candidates: ${showRefs(current.refs)}.\nCandidates for party ${party}: ${showRefs(next.refs)}`,
                },
          );
        } else if (current.ok) merged.set(name, next);
      } else if (!current) merged.set(name, next);
      else if (current.ok && next.ok) {
        const seen = new Set(current.refs.map((ref) => ref.packageId));
        const refs = [...current.refs, ...next.refs.filter((ref) => !seen.has(ref.packageId))];
        merged.set(name, { ok: true, refs: refs.sort(compareRefs) });
      } else if (!current.ok) merged.set(name, next);
    }
  }
  return keepDeeplyVetted(index, merged, requiredNames);
}

/**
 * Drops each candidate that depends, directly or not, on a package of a required name that is
 * not itself a candidate: a transaction using it would need a package the parties do not share.
 */
function keepDeeplyVetted(
  index: PackageIndex,
  candidates: Map<string, Candidate>,
  requiredNames: ReadonlySet<string>,
): Map<string, Candidate> {
  const vetted = new Set<string>();
  for (const candidate of candidates.values()) {
    if (candidate.ok) for (const ref of candidate.refs) vetted.add(ref.packageId);
  }
  // The first dependency of a required name that is not vetted; null when there is none.
  const memo = new Map<string, string | null>();
  const unvettedRequired = (packageId: string): string | null => {
    const known = memo.get(packageId);
    if (known !== undefined) return known;
    let found: string | null = null;
    const name = index.byId.get(packageId)?.name;
    if (vetted.has(packageId) || name === undefined || !requiredNames.has(name)) {
      for (const dependency of index.dependencies(packageId)) {
        found = unvettedRequired(dependency);
        if (found !== null) break;
      }
    } else {
      found = packageId;
    }
    memo.set(packageId, found);
    return found;
  };
  const show = (packageId: string) => {
    const ref = index.byId.get(packageId);
    return ref ? showRef(ref) : packageId;
  };
  const result = new Map<string, Candidate>();
  for (const [name, candidate] of candidates) {
    if (!candidate.ok) {
      result.set(name, candidate);
      continue;
    }
    const kept: Ref[] = [];
    const dropped: string[] = [];
    for (const ref of candidate.refs) {
      const missing = unvettedRequired(ref.packageId);
      if (missing === null) kept.push(ref);
      else dropped.push(`${showRef(ref)} -> ${show(missing)}`);
    }
    result.set(
      name,
      kept.length > 0
        ? { ok: true, refs: kept }
        : {
            ok: false,
            reason: `Packages with required dependencies not vetted by all interested parties: List(${dropped.join(', ')})`,
          },
    );
  }
  return result;
}

/**
 * Each party's requirements plus the required names its vetted packages of those names depend
 * on: a package of one party's name may need another party's name, which both must then share.
 */
function extendRequirements(
  index: PackageIndex,
  byParty: ReadonlyMap<string, ReadonlySet<string>>,
  vettedByParty: ReadonlyMap<string, ReadonlySet<string>>,
  dependencyNames: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, ReadonlySet<string>> {
  const extended = new Map<string, ReadonlySet<string>>();
  for (const [party, names] of byParty) {
    const vetted = vettedByParty.get(party) ?? new Set();
    const all = new Set(names);
    for (const name of names) {
      for (const packageId of index.idsByName.get(name) ?? []) {
        if (!vetted.has(packageId)) continue;
        for (const dependencyName of dependencyNames.get(packageId) ?? []) all.add(dependencyName);
      }
    }
    extended.set(party, all);
  }
  return extended;
}

// ── The computation ──

const nowInstant = (): Instant => {
  const millis = Date.now();
  return { seconds: Math.floor(millis / 1000), nanos: (millis % 1000) * 1_000_000 };
};

/**
 * The preferred package of each requested name, on the first synchronizer (by id) where every
 * name has one, as Canton ranks synchronizers; or why no synchronizer has them all. Throws the
 * participant's errors for invalid requests, unknown names, parties or synchronizers.
 */
export function preferredPackages(
  state: LedgerState,
  request: PreferredPackagesRequest,
  now: () => Instant = nowInstant,
): PackagePreferences {
  const requirements = validateRequirements(request);
  const prescribed = request.synchronizerId === '' ? undefined : request.synchronizerId;
  if (prescribed !== undefined) {
    const problem = synchronizerIdProblem(prescribed);
    if (problem) throw invalidField('synchronizer_id/synchronizerId', problem);
  }
  const index = packageIndex(state);
  const unknownNames = [...requirements.keys()].filter((name) => !index.idsByName.has(name));
  if (unknownNames.length > 0) {
    throw new SandboxError(
      'PACKAGE_NAMES_NOT_FOUND',
      `The following package names do not match upgradable packages uploaded on this participant: [${unknownNames.join(', ')}].`,
    );
  }
  const byParty = new Map<string, Set<string>>();
  for (const [name, parties] of requirements) {
    for (const party of parties) byParty.set(party, (byParty.get(party) ?? new Set()).add(name));
  }
  const vettingMap = partyVettingMap(
    state,
    [...byParty.keys()],
    prescribed,
    request.vettingValidAt ?? now(),
  );

  // Candidates are every stored package of a requested name; for each, the requested names
  // among its dependencies.
  const candidateIds = new Set(
    [...requirements.keys()].flatMap((name) => index.idsByName.get(name) ?? []),
  );
  const dependencyNames = new Map<string, ReadonlySet<string>>();
  for (const packageId of candidateIds) {
    const names = new Set<string>();
    for (const dependency of transitiveDependencies(index, packageId)) {
      const ref = index.byId.get(dependency);
      if (ref && candidateIds.has(dependency)) names.add(ref.name);
    }
    dependencyNames.set(packageId, names);
  }

  const discarded: string[] = [];
  for (const [synchronizerId, vettedByParty] of [...vettingMap].sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    const extended = extendRequirements(index, byParty, vettedByParty, dependencyNames);
    const candidates = candidatesFor(index, vettedByParty, extended);
    const selected: PackageReference[] = [];
    let reason: string | undefined;
    for (const name of requirements.keys()) {
      const candidate = candidates.get(name);
      if (!candidate) {
        reason = `No package is consistently vetted by all hosting participants of the requested parties for package-name '${name}'`;
      } else if (!candidate.ok) {
        reason = candidate.reason;
      } else {
        const best = candidate.refs.at(-1);
        if (best) {
          selected.push({
            packageId: best.packageId,
            packageName: best.name,
            packageVersion: best.version,
          });
        }
        continue;
      }
      break;
    }
    // The lowest synchronizer id wins among those that satisfy every requirement.
    if (reason === undefined) return { found: true, packageReferences: selected, synchronizerId };
    discarded.push(`(${synchronizerId}, ${reason})`);
  }
  return {
    found: false,
    reason: `No synchronizer satisfies the vetting requirements. Discarded synchronizers: List(${discarded.join(', ')})`,
  };
}
