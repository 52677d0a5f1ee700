import { queryOptions } from '@tanstack/react-query';
import { listIdentityProviders } from '@/api/identity-providers';
import { getUser, userQueries, type User } from '@/api/users';
import type { UserWhereabouts } from '@/lib/errors/admin-error-fixes';
import { isMaskedRefusal, isNotFound } from '@/lib/errors/api-error';

/**
 * Which identity provider a user belongs to, asked through each (participant admins only: the
 * IdP list needs it). 'unknown' when the caller may not look.
 */
export const userWhereaboutsQuery = (userId: string) =>
  queryOptions({
    queryKey: [...userQueries.all(), 'whereabouts', userId],
    queryFn: async (): Promise<UserWhereabouts | 'unknown'> => {
      let ids: string[];
      try {
        ids = ['', ...(await listIdentityProviders()).map((idp) => idp.identityProviderId)];
      } catch {
        return 'unknown';
      }
      for (const identityProviderId of ids) {
        try {
          const user: User = await getUser({ userId, identityProviderId });
          return { identityProviderId, isDeactivated: user.isDeactivated ?? false };
        } catch (error) {
          // Not there (404), or there but refused through this IdP (403): ask the next one.
          if (!isNotFound(error) && !isMaskedRefusal(error)) throw error;
        }
      }
      return null;
    },
    staleTime: 0,
    meta: { errorDisplay: 'inline' },
  });
