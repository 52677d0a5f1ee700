import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '@/lib/errors/api-error';
import { api, unwrap } from './client';
import { packageQueries } from './packages';
import type { Schemas } from './schema';

/**
 * Which package version the participant selects for a party and a package name
 * (`/v2/interactive-submission/preferred-packages`): the highest version every participant
 * hosting the party has vetted on the synchronizer. Any authenticated caller may ask.
 */

export type PackageReference = Schemas['PackageReference'];

export type PackagePreferenceQuery = { party: string; packageName: string; synchronizerId: string };

/** The selected package, or why there is none (the participant's own words). */
export type PackagePreference =
  { kind: 'found'; reference: PackageReference } | { kind: 'none'; reason: string };

/**
 * The preferred package of one name for one party; "none" when the participant finds no vetted
 * package (NO_PREFERRED_PACKAGES_FOUND, or a name it does not know), which the planner shows
 * rather than fails on. Other refusals (rights, a party not hosted) stay errors.
 */
export async function getPackagePreference(
  { party, packageName, synchronizerId }: PackagePreferenceQuery,
  signal?: AbortSignal,
): Promise<PackagePreference> {
  try {
    const { packageReferences } = unwrap(
      await api.POST('/v2/interactive-submission/preferred-packages', {
        body: {
          packageVettingRequirements: [{ parties: [party], packageName }],
          ...(synchronizerId ? { synchronizerId } : {}),
        },
        ...(signal ? { signal } : {}),
      }),
    );
    const reference = packageReferences.find((candidate) => candidate.packageName === packageName);
    return reference
      ? { kind: 'found', reference }
      : { kind: 'none', reason: 'The participant named no package for it.' };
  } catch (error) {
    const code = error instanceof ApiError ? error.body.code : undefined;
    if (code === 'NO_PREFERRED_PACKAGES_FOUND' || code === 'PACKAGE_NAMES_NOT_FOUND') {
      return { kind: 'none', reason: (error as ApiError).body.cause };
    }
    throw error;
  }
}

export const packagePreferenceQueries = {
  /** Under the packages' state: every vetting change and upload asks again. */
  preferred: (query: PackagePreferenceQuery) =>
    queryOptions({
      queryKey: [...packageQueries.state(), 'preferred', query],
      queryFn: ({ signal }) => getPackagePreference(query, signal),
      staleTime: 0,
      meta: { errorDisplay: 'inline' },
    }),
};
