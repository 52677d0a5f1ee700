import { mutationOptions, queryOptions } from '@tanstack/react-query';
import {
  activityMeta,
  NOT_LOADED,
  registerActivitySpecs,
  valueOf,
} from '@/lib/activity/activity-spec';
import type { LedgerApiRequest } from '@/lib/text/copy-as';
import { api, unwrap } from './client';
import { packageQueries } from './packages';
import { getParticipantId } from './participant';
import type { Schemas } from './schema';

/*
 * Package vetting (`/v2/package-vetting/list` and `/update`): which packages this participant
 * has vetted on which synchronizer, one change at a time or as a plan with its dry run. Its
 * queries are under the packages' `state`, which an upload and a vetting change both refresh.
 */

export type VettedPackages = Schemas['VettedPackages'];
export type VettedPackage = Schemas['VettedPackage'];

/** The API's page size cap for the vetting list (ledger-api-behaviour.md §6). */
export const MAX_VETTED_PACKAGES_PAGE_SIZE = 100;

export type VettingListFilter = {
  /** Only these participants' vetting; all participants on the synchronizers when empty. */
  participantIds?: readonly string[];
  /** Only these packages; all when empty. */
  packageIds?: readonly string[];
};

export type VettingChange = {
  operation: 'Vet' | 'Unvet';
  packageId: string;
  synchronizerId: string;
  /**
   * The `topologySerial` the vetting list showed for this participant and synchronizer; the
   * change fails if another one came in between. Undefined when the list had no entry to show it.
   */
  expectedTopologySerial: number | undefined;
};

// ── request builders: pure, shared by the calls below and by "Copy as…" ─────────

/** The body of `POST /v2/package-vetting/update` for one change. */
export function updateVettingBody({
  operation,
  packageId,
  synchronizerId,
  expectedTopologySerial,
}: VettingChange): Schemas['UpdateVettedPackagesRequest'] {
  // The id alone names the package; adding its name and version could only fail to match.
  const packages = [{ packageId }];
  return {
    changes: [
      {
        operation:
          operation === 'Vet'
            ? { Vet: { value: { packages } } }
            : { Unvet: { value: { packages } } },
      },
    ],
    dryRun: false,
    synchronizerId,
    ...(expectedTopologySerial === undefined
      ? {}
      : { expectedTopologySerial: { serial: { Prior: { value: expectedTopologySerial } } } }),
  };
}

export const UPDATE_VETTING_PATH = '/v2/package-vetting/update';

/** The force flags a vetting update takes (ledger-api-behaviour.md §6). */
export const VETTING_FORCE_FLAGS = {
  /** Leave a vetted package without one of its dependencies (TOPOLOGY_DEPENDENCIES_NOT_VETTED). */
  allowUnvettedDependencies: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES',
  /** Vet packages that fail the upgrade checks (NOT_VALID_UPGRADE_PACKAGE, KNOWN_PACKAGE_VERSION). */
  allowIncompatibleUpgrades: 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_VET_INCOMPATIBLE_UPGRADES',
} as const;

export type VettingForceFlag = (typeof VETTING_FORCE_FLAGS)[keyof typeof VETTING_FORCE_FLAGS];

/** One package a plan vets (with optional bounds, ISO instants) or unvets. */
export type PlannedVettingChange =
  | { operation: 'Vet'; packageId: string; validFrom?: string; validUntil?: string }
  | { operation: 'Unvet'; packageId: string };

/** Several vetting changes on one synchronizer, sent as one topology transaction. */
export type VettingPlan = {
  synchronizerId: string;
  changes: readonly PlannedVettingChange[];
  forceFlags: readonly VettingForceFlag[];
};

/**
 * The body of a plan's update: `dryRun` asks the participant to check it and answer what it
 * would do; `expectedSerial` (the serial the dry run saw; `null` for "no vetting yet") makes the
 * real one fail if the vetting changed in between.
 */
export function vettingPlanBody(
  plan: VettingPlan,
  { dryRun, expectedSerial }: { dryRun: boolean; expectedSerial?: number | null },
): Schemas['UpdateVettedPackagesRequest'] {
  return {
    changes: plan.changes.map((change) => ({
      operation:
        change.operation === 'Vet'
          ? {
              Vet: {
                value: {
                  packages: [{ packageId: change.packageId }],
                  ...(change.validFrom ? { newValidFromInclusive: change.validFrom } : {}),
                  ...(change.validUntil ? { newValidUntilExclusive: change.validUntil } : {}),
                },
              },
            }
          : { Unvet: { value: { packages: [{ packageId: change.packageId }] } } },
    })),
    dryRun,
    synchronizerId: plan.synchronizerId,
    ...(expectedSerial === undefined
      ? {}
      : {
          expectedTopologySerial: {
            serial:
              expectedSerial === null ? { NoPrior: {} } : { Prior: { value: expectedSerial } },
          },
        }),
    ...(plan.forceFlags.length > 0 ? { updateVettedPackagesForceFlags: [...plan.forceFlags] } : {}),
  };
}

/** One vetting change as the request {@link updateVetting} sends. */
export function updateVettingRequest(change: VettingChange): LedgerApiRequest {
  return { method: 'POST', path: UPDATE_VETTING_PATH, body: updateVettingBody(change) };
}

// ── requests ───────────────────────────────────────────────────────────────────

/** Every page of the vetting list (the server sends at most 100 `VettedPackages` a page). */
export async function listVettedPackages(
  { participantIds = [], packageIds = [] }: VettingListFilter = {},
  signal?: AbortSignal,
): Promise<VettedPackages[]> {
  const all: VettedPackages[] = [];
  let pageToken = '';
  do {
    const page = unwrap(
      await api.POST('/v2/package-vetting/list', {
        body: {
          packageMetadataFilter: { packageIds: [...packageIds], packageNamePrefixes: [] },
          topologyStateFilter: { participantIds: [...participantIds], synchronizerIds: [] },
          pageSize: MAX_VETTED_PACKAGES_PAGE_SIZE,
          pageToken,
        },
        ...(signal ? { signal } : {}),
      }),
    );
    all.push(...(page.vettedPackages ?? []));
    pageToken = page.nextPageToken ?? '';
  } while (pageToken !== '');
  return all;
}

/** This participant's vetting, on every synchronizer it has vetted anything on. */
export async function listOwnVettedPackages(signal?: AbortSignal): Promise<VettedPackages[]> {
  // Without the filter a real synchronizer answers with every participant's vetting.
  const participantId = await getParticipantId();
  return listVettedPackages({ participantIds: [participantId] }, signal);
}

/** Vets or unvets one package on one synchronizer for this participant. */
export async function updateVetting(
  change: VettingChange,
): Promise<Schemas['UpdateVettedPackagesResponse']> {
  return unwrap(await api.POST(UPDATE_VETTING_PATH, { body: updateVettingBody(change) }));
}

export type VettingUpdateResponse = Schemas['UpdateVettedPackagesResponse'];

/** Asks the participant what the plan would do, changing nothing (`dryRun: true`). */
export async function dryRunVettingPlan(
  plan: VettingPlan,
  signal?: AbortSignal,
): Promise<VettingUpdateResponse> {
  return unwrap(
    await api.POST(UPDATE_VETTING_PATH, {
      body: vettingPlanBody(plan, { dryRun: true }),
      ...(signal ? { signal } : {}),
    }),
  );
}

/** What applying a plan sends: the plan and the vetting serial its dry run saw. */
export type ApplyVettingPlan = { plan: VettingPlan; expectedSerial: number | null };

/** Applies a plan, failing with TOPOLOGY_SERIAL_MISMATCH if the vetting changed since its dry run. */
export async function applyVettingPlan({
  plan,
  expectedSerial,
}: ApplyVettingPlan): Promise<VettingUpdateResponse> {
  return unwrap(
    await api.POST(UPDATE_VETTING_PATH, {
      body: vettingPlanBody(plan, { dryRun: false, expectedSerial }),
    }),
  );
}

// ── cache ──────────────────────────────────────────────────────────────────────

export const vettingQueries = {
  vetting: () =>
    queryOptions({
      queryKey: [...packageQueries.state(), 'vetting'],
      queryFn: ({ signal }) => listOwnVettedPackages(signal),
    }),
  /**
   * What the participant would do with a plan (a dry run, which changes nothing). Under `state`,
   * so that any vetting change, this console's or a refresh's, asks again; never retried, as its
   * refusal is the answer.
   */
  vettingDryRun: (plan: VettingPlan) =>
    queryOptions({
      queryKey: [...packageQueries.state(), 'vetting-dry-run', plan],
      queryFn: ({ signal }) => dryRunVettingPlan(plan, signal),
      retry: false,
      staleTime: 0,
      meta: { errorDisplay: 'inline' },
    }),
};

const vettingActivity = activityMeta<VettingChange, Schemas['UpdateVettedPackagesResponse']>({
  action: 'package.vetting',
  call: () => ({ method: 'POST', path: UPDATE_VETTING_PATH }),
  subjects: ({ packageId }) => [{ kind: 'package', packageId }],
  before: ({ operation, synchronizerId, expectedTopologySerial }) =>
    expectedTopologySerial === undefined
      ? NOT_LOADED
      : valueOf({ synchronizerId, topologySerial: expectedTopologySerial, change: operation }),
  after: ({ operation, synchronizerId }, response) =>
    valueOf({ synchronizerId, change: operation, response }),
});

const vettingPlanActivity = activityMeta<ApplyVettingPlan, VettingUpdateResponse>({
  action: 'package.vetting',
  call: () => ({ method: 'POST', path: UPDATE_VETTING_PATH }),
  subjects: ({ plan }) => plan.changes.map(({ packageId }) => ({ kind: 'package', packageId })),
  // The dry run's serial is what the change was decided on; the answer holds the state before.
  before: ({ plan, expectedSerial }) =>
    valueOf({ synchronizerId: plan.synchronizerId, topologySerial: expectedSerial }),
  after: ({ plan }, response) => valueOf({ changes: plan.changes, response }),
});

export const vettingMutations = {
  updateVetting: () =>
    mutationOptions({
      mutationKey: [...packageQueries.all(), 'update-vetting'],
      mutationFn: updateVetting,
      meta: { invalidates: [packageQueries.state()], activity: vettingActivity },
      // A failed change refreshes too: after TOPOLOGY_SERIAL_MISMATCH (someone else changed the
      // vetting), a retry must send the serial of the vetting as it is now, and the page show it.
      // Returned, so the mutation fails only once the refresh is done.
      onError: (_error, _variables, _onMutateResult, { client }) =>
        client.invalidateQueries({ queryKey: packageQueries.state() }),
    }),
  applyVettingPlan: () =>
    mutationOptions({
      mutationKey: [...packageQueries.all(), 'apply-vetting-plan'],
      mutationFn: applyVettingPlan,
      meta: {
        errorDisplay: 'inline',
        invalidates: [packageQueries.state()],
        activity: vettingPlanActivity,
      },
      // As updateVetting: after a serial mismatch the plan's next dry run must see the new state.
      onError: (_error, _variables, _onMutateResult, { client }) =>
        client.invalidateQueries({ queryKey: packageQueries.state() }),
    }),
};

// The activity recorder finds these specs by mutation key (lib/activity/activity-spec.ts).
registerActivitySpecs(vettingMutations);
