import { useSuspenseQuery } from '@tanstack/react-query';
import { sessionQueries } from '@/api/session';
import { readScopeOf, type ReadScope } from '@/api/updates';

/** Whose contracts and updates the signed-in caller may read (its CanReadAs/CanActAs parties, or any). */
export function useReadScope(): ReadScope {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  return readScopeOf(caller);
}
