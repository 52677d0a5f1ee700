import { useQuery } from '@tanstack/react-query';
import {
  adminFailure,
  mayBeUserElsewhere,
  type AdminCaller,
  type AdminChange,
  type AdminFailure,
} from '@/lib/errors/admin-error-fixes';
import { userWhereaboutsQuery } from './user-whereabouts';

/** The change a form sent, before the console knows where its user is. */
export type FailedAdminChange = Omit<AdminChange, 'whereabouts'>;

/**
 * A failed create-user or allocate-party request in the user's terms, with its fixes: the user may
 * be in another identity provider, so a participant admin's console looks for it in each. Undefined
 * while it looks, when the caller may not look, and when the console has nothing better to say than
 * the server's own message.
 */
export function useAdminFailure(
  error: unknown,
  change: FailedAdminChange | undefined,
  caller: AdminCaller,
): AdminFailure | undefined {
  const lookForUser =
    caller.isParticipantAdmin && change !== undefined && mayBeUserElsewhere(error, change);
  const whereabouts = useQuery({
    ...userWhereaboutsQuery(change?.userId ?? ''),
    enabled: lookForUser,
  });
  return lookForUser && whereabouts.data !== undefined && whereabouts.data !== 'unknown'
    ? adminFailure(error, { ...change, whereabouts: whereabouts.data }, caller)
    : undefined;
}
