import { queryOptions } from '@tanstack/react-query';
import { getPrunedOffset } from './updates';

// Its own module rather than a member of participantQueries: the app shell reads those, and this
// would pull the updates module into the first bundle of every page.

export const pruningQueries = {
  all: () => ['pruning'] as const,
  /** Up to which offset the participant has pruned its updates; 0 when never. */
  offset: () =>
    queryOptions({
      queryKey: [...pruningQueries.all(), 'offset'],
      queryFn: ({ signal }) => getPrunedOffset(signal),
    }),
};
