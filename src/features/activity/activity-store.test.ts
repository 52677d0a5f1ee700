import { describe, expect, it, vi } from 'vitest';
import { createEntry, type ActivityEntry } from '@/lib/activity/activity-log';
import { MemoryStorage, SmallStorage } from '@/testing/memory-storage';
import { appendActivity, flushActivity, readActivity, writeActivity } from './activity-store';
import type { ActivityPlace } from './activity-place';

function entry(id: string): ActivityEntry {
  return createEntry({
    id,
    at: '2026-11-23T10:00:00.000Z',
    actor: { kind: 'anonymous' },
    participantId: 'participant1',
    action: 'user.delete',
    call: { method: 'DELETE', path: `/v2/users/${id}` },
    subjects: [{ kind: 'user', userId: id, identityProviderId: '' }],
    before: { kind: 'value', value: { id, note: 'x'.repeat(200) } },
    after: { kind: 'none' },
    result: { kind: 'ok' },
  });
}

describe('activity storage', () => {
  it('appends newest first and reads back', () => {
    const place: ActivityPlace = { storage: new MemoryStorage(), key: 'log' };
    appendActivity(place, entry('a'));
    appendActivity(place, entry('b'));
    // Stored in a batch, not one write per entry.
    expect(readActivity(place)).toEqual([]);
    flushActivity();
    expect(readActivity(place).map(({ id }) => id)).toEqual(['b', 'a']);
  });

  it('keeps the newest entries the storage takes when it is full, and never throws', () => {
    const one = JSON.stringify(entry('a')).length;
    const place: ActivityPlace = { storage: new SmallStorage(3 * (one + 1)), key: 'log' };
    const log = Array.from({ length: 8 }, (_, index) => entry(`u${index}`));
    expect(writeActivity(place, log)).toBe(2);
    expect(readActivity(place).map(({ id }) => id)).toEqual(['u0', 'u1']);

    const none: ActivityPlace = { storage: new SmallStorage(0), key: 'log' };
    expect(() => {
      appendActivity(none, entry('a'));
      flushActivity();
    }).not.toThrow();
    expect(readActivity(none)).toEqual([]);
  });

  it('reads corrupt storage as an empty log and replaces it on the next entry', () => {
    const storage = new MemoryStorage();
    storage.setItem('log', '[{"id": broken');
    const place: ActivityPlace = { storage, key: 'log' };
    expect(readActivity(place)).toEqual([]);
    appendActivity(place, entry('a'));
    flushActivity();
    expect(readActivity(place).map(({ id }) => id)).toEqual(['a']);
  });

  it('keeps within its own budget before the storage has to refuse, with headroom', () => {
    const place: ActivityPlace = { storage: new MemoryStorage(), key: 'log' };
    const one = JSON.stringify(entry('a')).length;
    const ten = Array.from({ length: 10 }, (_, index) => entry(`u${String(index)}`));
    // Nine fit; over budget, the log is cut to 80% of it (seven), so the next entries of a bulk
    // run are stored without cutting again.
    expect(writeActivity(place, ten, 2 + 9 * (one + 2))).toBe(7);
    expect(writeActivity(place, [entry('a'), entry('b')], 2 + 9 * (one + 2))).toBe(2);
  });

  it('stores a burst of entries in one write, within moments', async () => {
    let writes = 0;
    class CountingStorage extends MemoryStorage {
      override setItem(key: string, value: string): void {
        writes += 1;
        super.setItem(key, value);
      }
    }
    const place: ActivityPlace = { storage: new CountingStorage(), key: 'log' };
    for (let index = 0; index < 200; index += 1) appendActivity(place, entry(`u${index}`));
    await vi.waitFor(() => {
      expect(readActivity(place)).toHaveLength(200);
    });
    expect(writes).toBe(1);
    expect(readActivity(place)[0]?.id).toBe('u199');
  });
});
