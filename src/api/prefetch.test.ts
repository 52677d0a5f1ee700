import { QueryClient, queryOptions } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { isFresh, prefetch } from './prefetch';

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

describe('isFresh', () => {
  it('is true only for data in the cache within its stale time, and not invalidated', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const queryClient = setup();
      const query = queryOptions({
        queryKey: ['page', 2],
        queryFn: () => Promise.resolve(['row']),
        staleTime: 30_000,
      });
      expect(isFresh(queryClient, query)).toBe(false);

      await prefetch(queryClient, query);
      expect(isFresh(queryClient, query)).toBe(true);
      vi.setSystemTime(Date.now() + 30_001);
      expect(isFresh(queryClient, query)).toBe(false);

      await queryClient.refetchQueries({ queryKey: query.queryKey });
      expect(isFresh(queryClient, query)).toBe(true);
      await queryClient.invalidateQueries({ queryKey: query.queryKey, refetchType: 'none' });
      expect(isFresh(queryClient, query)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes the client default stale time, and a failed query is not fresh', async () => {
    const queryClient = new QueryClient({
      defaultOptions: { queries: { retry: false, staleTime: 60_000 } },
    });
    const ok = queryOptions({ queryKey: ['ok'], queryFn: () => Promise.resolve(1) });
    const broken = queryOptions({
      queryKey: ['broken'],
      queryFn: (): Promise<number> => Promise.reject(new Error('down')),
    });
    await prefetch(queryClient, ok);
    await prefetch(queryClient, broken);
    expect(isFresh(queryClient, ok)).toBe(true);
    expect(isFresh(queryClient, broken)).toBe(false);
  });
});
