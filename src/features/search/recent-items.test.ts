import { beforeEach, describe, expect, it, vi } from 'vitest';
import { writeAccessToken } from '@/api/access-token';
import { MemoryStorage } from '@/testing/memory-storage';
import {
  addRecentItem,
  MAX_RECENT_ITEMS,
  parseRecentItems,
  readRecentItems,
  rememberRecentItem,
  serializeRecentItems,
  type RecentItem,
} from './recent-items';

const UPDATE_ID = `1220${'ab'.repeat(32)}`;
const contract = (n: number): RecentItem => ({
  kind: 'id',
  id: { kind: 'contract', contractId: `00${n.toString(16).padStart(64, '0')}ca11` },
});

/** An unsigned JWT naming `subject`: the console reads claims, only the participant verifies. */
function jwt(subject: string): string {
  const part = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  return `${part({ alg: 'none' })}.${part({ sub: subject, iss: 'https://idp.example' })}.sig`;
}

describe('recent items', () => {
  it('puts the newest on top, once, and keeps at most ten', () => {
    let items: RecentItem[] = [];
    for (let n = 1; n <= MAX_RECENT_ITEMS + 3; n++) items = addRecentItem(items, contract(n));
    expect(items).toHaveLength(MAX_RECENT_ITEMS);
    expect(items[0]).toEqual(contract(MAX_RECENT_ITEMS + 3));

    items = addRecentItem(items, contract(8));
    expect(items[0]).toEqual(contract(8));
    expect(
      items.filter((item) => JSON.stringify(item) === JSON.stringify(contract(8))),
    ).toHaveLength(1);
    expect(addRecentItem(items, { kind: 'action', actionId: 'upload-dar' })[0]).toEqual({
      kind: 'action',
      actionId: 'upload-dar',
    });
  });

  it('round-trips through storage text, each id read back as typed input is', () => {
    const items: RecentItem[] = [
      { kind: 'id', id: { kind: 'update', updateId: UPDATE_ID } },
      { kind: 'id', id: { kind: 'offset', offset: 42 } },
      { kind: 'id', id: { kind: 'user', userId: '42' } },
      { kind: 'id', id: { kind: 'package-name', name: 'my-app' } },
      {
        kind: 'id',
        id: {
          kind: 'template',
          templateId: '#my-app:Main:Asset',
          package: { kind: 'name', name: 'my-app' },
          qualifiedName: 'Main:Asset',
        },
      },
      { kind: 'action', actionId: 'create-user' },
    ];
    expect(parseRecentItems(serializeRecentItems(items))).toEqual(items);
  });

  it('leaves out what it cannot read, or what is no id of the kind stored', () => {
    expect(parseRecentItems(null)).toEqual([]);
    expect(parseRecentItems('not json')).toEqual([]);
    expect(parseRecentItems('{"kind":"id"}')).toEqual([]);
    expect(
      parseRecentItems(
        JSON.stringify([
          null,
          'text',
          { kind: 'id', text: 'javascript:alert(1)', as: 'contract' },
          { kind: 'id', text: UPDATE_ID, as: 'party' },
          { kind: 'id', text: 42, as: 'offset' },
          { kind: 'action' },
          { kind: 'id', text: UPDATE_ID, as: 'update' },
        ]),
      ),
    ).toEqual([{ kind: 'id', id: { kind: 'update', updateId: UPDATE_ID } }]);
    // A stored list longer than the bound is read up to it.
    const long = JSON.stringify(
      Array.from({ length: 50 }, () => ({ kind: 'action', actionId: 'x' })),
    );
    expect(parseRecentItems(long)).toHaveLength(MAX_RECENT_ITEMS);
  });

  describe('in the browser', () => {
    beforeEach(() => {
      vi.stubGlobal('sessionStorage', new MemoryStorage());
      vi.stubGlobal('localStorage', new MemoryStorage());
    });

    it('are kept per identity and participant', () => {
      writeAccessToken(jwt('alice'));
      rememberRecentItem('participant-1', contract(1));
      expect(readRecentItems('participant-1')).toEqual([contract(1)]);
      expect(readRecentItems('participant-2')).toEqual([]);

      // Someone else signing in sees nothing of it (and the previous identity's data is gone).
      writeAccessToken(jwt('bob'));
      expect(readRecentItems('participant-1')).toEqual([]);
      rememberRecentItem('participant-1', contract(2));
      expect(readRecentItems('participant-1')).toEqual([contract(2)]);
    });

    it('survive a storage that refuses to keep them', () => {
      const full = new MemoryStorage();
      full.setItem = () => {
        throw new DOMException('full', 'QuotaExceededError');
      };
      vi.stubGlobal('localStorage', full);
      expect(() => {
        rememberRecentItem('participant-1', contract(1));
      }).not.toThrow();
      expect(readRecentItems('participant-1')).toEqual([]);
    });
  });
});
