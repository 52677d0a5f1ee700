import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from '@/api/session';
import { ForbiddenState } from '@/components/feedback/page-state';
import { accessOf } from '@/lib/access/access-rights';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import { GrantReadAccess } from './grant-read-access';

/**
 * A caller who reads no party: the forbidden state in the console's words (who, which rights
 * would do, who grants them), instead of the participant's refusal of an empty filter. `title`
 * names what the page would have listed ("You may not read any contracts"). An admin, who may
 * grant itself a read right, is offered that grant in place; anyone else is told who can.
 */
export function NoReadScopeState({ title }: { title: string }) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const details = forbiddenDetails(caller.data, ['CanReadAs', 'CanActAs', 'CanReadAsAnyParty']);
  const self =
    caller.data?.kind === 'user' && accessOf(caller.data).canGrant('CanReadAs')
      ? caller.data
      : undefined;
  if (self === undefined) return <ForbiddenState title={title} {...details} />;
  return (
    <ForbiddenState
      title={title}
      {...details}
      grantedBy={
        accessOf(self).isParticipantAdmin
          ? 'You, as a participant admin,'
          : 'You, as an admin of your identity provider,'
      }
      actions={<GrantReadAccess caller={self} />}
    />
  );
}
