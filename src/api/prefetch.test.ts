import { QueryClient, queryOptions } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { prefetch } from './prefetch';

function setup() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

describe('prefetch', () => {
  it('resolves with the data and leaves it in the cache', async () => {
    const queryClient = setup();
    const query = queryOptions({ queryKey: ['answer'], queryFn: () => Promise.resolve(42) });

    await expect(prefetch(queryClient, query)).resolves.toBe(42);
    expect(queryClient.getQueryData(query.queryKey)).toBe(42);
  });

  it('resolves undefined on failure and leaves the error on the query for its section', async () => {
    const queryClient = setup();
    const failure = new Error('participant unavailable');
    const query = queryOptions({
      queryKey: ['broken'],
      queryFn: (): Promise<number> => Promise.reject(failure),
    });

    await expect(prefetch(queryClient, query)).resolves.toBeUndefined();
    expect(queryClient.getQueryState(query.queryKey)?.error).toBe(failure);
  });
});
