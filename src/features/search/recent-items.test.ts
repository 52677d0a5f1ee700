import { describe, expect, it } from 'vitest';
import { MAX_RECENT_ITEMS, recentItemsOf, type RecentItem } from './recent-items';

const contract = (n: number): RecentItem => ({
  kind: 'id',
  id: { kind: 'contract', contractId: `00${n.toString(16).padStart(64, '0')}` },
});

describe('recentItemsOf', () => {
  it('reads each visit into an item, once, newest first, leaving out visits that are none', () => {
    const itemOf = (location: string): RecentItem | undefined => {
      if (location === '/upload') return { kind: 'action', actionId: 'upload-dar' };
      const n = /^\/c\/(\d+)$/.exec(location)?.[1];
      return n === undefined ? undefined : contract(Number(n));
    };
    expect(recentItemsOf(['/c/2', '/users?page=2', '/upload', '/c/1', '/c/2'], itemOf)).toEqual([
      contract(2),
      { kind: 'action', actionId: 'upload-dar' },
      contract(1),
    ]);
  });

  it('keeps at most ten', () => {
    const visits = Array.from({ length: 30 }, (_, n) => String(n));
    const items = recentItemsOf(visits, (location) => contract(Number(location)));
    expect(items).toHaveLength(MAX_RECENT_ITEMS);
    expect(items[0]).toEqual(contract(0));
  });
});
