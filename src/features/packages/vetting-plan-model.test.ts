import { describe, expect, it } from 'vitest';
import { VETTING_FORCE_FLAGS, type VettedPackage, type VettingPlan } from '@/api/package-vetting';
import {
  buildVerdicts,
  forceOfferFor,
  inversePlan,
  planSearch,
  plannedSynchronizer,
  predictPreference,
  readPlanSearch,
  sameVetting,
  simulatePlan,
  type PackageLabel,
} from './vetting-plan-model';

const id = (char: string) => char.repeat(64);
const A = id('a');
const B = id('b');
const C = id('c');
const SYNC = 'sync::1220ab';

const entry = (packageId: string, name: string, version: string, bounds = {}): VettedPackage => ({
  packageId,
  packageName: name,
  packageVersion: version,
  ...bounds,
});

const labels = new Map<string, PackageLabel>([
  [A, { name: 'lib', version: '1.0.0' }],
  [B, { name: 'app', version: '1.0.0' }],
  [C, { name: 'app', version: '2.0.0' }],
]);

describe('the plan in the URL', () => {
  it('reads back what it wrote, bounds, force flags and parties included', () => {
    const plan: VettingPlan = {
      synchronizerId: SYNC,
      changes: [
        { operation: 'Unvet', packageId: A },
        { operation: 'Vet', packageId: B, validFrom: '2025-01-01T00:00:00Z' },
      ],
      forceFlags: [VETTING_FORCE_FLAGS.allowUnvettedDependencies],
    };
    const read = readPlanSearch(new URLSearchParams(planSearch({ plan, parties: ['alice::1'] })));
    expect(read).toEqual({ plan, parties: ['alice::1'], problems: [] });
  });

  it('drops malformed ids, bounds, unknown flags and repeats, and says why', () => {
    const read = readPlanSearch(
      new URLSearchParams(
        `unvet=${A}&unvet=not/an/id&vet=${B}@yesterday&vet=${A}&force=FORCE_EVERYTHING`,
      ),
    );
    expect(read.plan.changes).toEqual([{ operation: 'Unvet', packageId: A }]);
    expect(read.plan.forceFlags).toEqual([]);
    expect(read.problems).toHaveLength(3);
  });
});

describe('the synchronizer of a plan', () => {
  it('is the one the URL names, else the only one connected, else none until picked', () => {
    const one = [{ synchronizerId: SYNC }];
    const two = [{ synchronizerId: SYNC }, { synchronizerId: 'other::1220cd' }];
    expect(plannedSynchronizer('other::1220cd', one)).toBe('other::1220cd');
    expect(plannedSynchronizer('', one)).toBe(SYNC);
    expect(plannedSynchronizer('', two)).toBe('');
    expect(plannedSynchronizer('', [])).toBe('');
  });
});

describe('the inverse plan', () => {
  it('vets again with the old bounds what was removed or re-bounded, and unvets what was added', () => {
    const bounded = { validFromInclusive: '2025-01-01T00:00:00Z', validUntilExclusive: null };
    const past = {
      packages: [entry(A, 'lib', '1.0.0', bounded), entry(B, 'app', '1.0.0')],
      participantId: 'p',
      synchronizerId: SYNC,
      topologySerial: 3,
    };
    const next = {
      packages: [entry(A, 'lib', '1.0.0'), entry(C, 'app', '2.0.0')],
      participantId: 'p',
      synchronizerId: SYNC,
      topologySerial: 4,
    };
    const undo = inversePlan(past, next);
    expect(undo).toEqual({
      synchronizerId: SYNC,
      changes: [
        { operation: 'Vet', packageId: A, validFrom: '2025-01-01T00:00:00Z' },
        { operation: 'Vet', packageId: B },
        { operation: 'Unvet', packageId: C },
      ],
      forceFlags: [],
    });
    // Applied to the state after, it gives the state before.
    expect(sameVetting(simulatePlan(next.packages, undo, labels), past.packages)).toBe(true);
  });
});

describe('verdicts', () => {
  it('flags active contracts and vetted dependents of an unvetted package', () => {
    const before = [entry(A, 'lib', '1.0.0'), entry(B, 'app', '1.0.0')];
    const plan: VettingPlan = {
      synchronizerId: SYNC,
      changes: [{ operation: 'Unvet', packageId: A }],
      forceFlags: [],
    };
    const [verdict] = buildVerdicts({
      plan,
      before,
      after: simulatePlan(before, plan, labels),
      labels,
      dependencies: new Map([[B, [A]]]),
      contracts: new Map([[A, { total: 3, isComplete: true, byTemplate: { 'M:T': 3 } }]]),
    });
    expect(verdict?.brokenDependents.map((d) => d.packageId)).toEqual([B]);
    expect(verdict?.warnings[0]).toMatch(/^3 active contracts use its templates/);
    expect(verdict?.warnings[1]).toBe('1 vetted package depends on it: app 1.0.0.');
  });

  it('breaks nothing when the dependents are unvetted with it, and lists what a vet lacks', () => {
    const before = [entry(A, 'lib', '1.0.0'), entry(B, 'app', '1.0.0')];
    const both: VettingPlan = {
      synchronizerId: SYNC,
      changes: [
        { operation: 'Unvet', packageId: A },
        { operation: 'Unvet', packageId: B },
      ],
      forceFlags: [],
    };
    const dependencies = new Map([
      [B, [A]],
      [C, [A]],
    ]);
    const after = simulatePlan(before, both, labels);
    const verdicts = buildVerdicts({
      plan: both,
      before,
      after,
      labels,
      dependencies,
      contracts: new Map(),
    });
    expect(verdicts.flatMap((v) => v.warnings)).toEqual([]);
    const vet: VettingPlan = {
      synchronizerId: SYNC,
      changes: [{ operation: 'Vet', packageId: C }],
      forceFlags: [],
    };
    const [verdict] = buildVerdicts({
      plan: vet,
      before: after,
      after: simulatePlan(after, vet, labels),
      labels,
      dependencies,
      contracts: new Map(),
    });
    expect(verdict?.missingDependencies.map((d) => d.packageId)).toEqual([A]);
  });
});

describe('preferred package prediction', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  const v1 = { packageId: B, packageName: 'app', packageVersion: '1.0.0' };
  const v2 = { packageId: C, packageName: 'app', packageVersion: '2.0.0' };

  it('follows this participant when the party was on its highest version', () => {
    const before = [entry(B, 'app', '1.0.0'), entry(C, 'app', '2.0.0')];
    const after = [entry(B, 'app', '1.0.0')];
    expect(predictPreference(v2, before, after, 'app', now)).toEqual({
      after: v1,
      dependsOnOthers: true,
    });
    expect(predictPreference(v2, before, before, 'app', now)).toEqual({
      after: v2,
      dependsOnOthers: false,
    });
  });

  it('keeps a version other participants hold back while it stays vetted here', () => {
    const before = [entry(B, 'app', '1.0.0'), entry(C, 'app', '2.0.0')];
    expect(predictPreference(v1, before, before, 'app', now).after).toEqual(v1);
    expect(predictPreference(v1, before, [entry(C, 'app', '2.0.0')], 'app', now).after).toBe(
      undefined,
    );
  });

  it('ignores packages whose validity has not started', () => {
    const after = [entry(C, 'app', '2.0.0', { validFromInclusive: '2027-01-01T00:00:00Z' })];
    expect(predictPreference(undefined, [], after, 'app', now).after).toBe(undefined);
  });
});

describe('force flags', () => {
  it('are offered for the refusals they override, and only those', () => {
    expect(forceOfferFor('TOPOLOGY_DEPENDENCIES_NOT_VETTED')?.flag).toBe(
      VETTING_FORCE_FLAGS.allowUnvettedDependencies,
    );
    expect(forceOfferFor('NOT_VALID_UPGRADE_PACKAGE')?.flag).toBe(
      VETTING_FORCE_FLAGS.allowIncompatibleUpgrades,
    );
    expect(forceOfferFor('TOPOLOGY_SERIAL_MISMATCH')).toBeUndefined();
  });
});
