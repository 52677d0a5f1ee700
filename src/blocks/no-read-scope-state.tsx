import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from '@/api/session';
import { ForbiddenState } from '@/components/feedback/page-state';
import { forbiddenDetails } from '@/lib/errors/forbidden';

/**
 * A caller who reads no party: the forbidden state in the console's words (who, which rights
 * would do, who grants them), instead of the participant's refusal of an empty filter. `title`
 * names what the page would have listed ("You may not read any contracts").
 */
export function NoReadScopeState({ title }: { title: string }) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  return (
    <ForbiddenState
      title={title}
      {...forbiddenDetails(caller.data, ['CanReadAs', 'CanActAs', 'CanReadAsAnyParty'])}
    />
  );
}
