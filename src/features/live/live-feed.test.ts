import { describe, expect, it } from 'vitest';
import {
  summarizeTopology,
  summarizeTransaction,
  type UpdateSummary,
} from '@/lib/transaction-tree/update-summary';
import { LIVE_BUFFER_SIZE, LiveFeed } from './live-feed';

const PKG = 'a'.repeat(64);

function transaction(offset: number, template = 'Iou'): UpdateSummary {
  return summarizeTransaction({
    updateId: `u${String(offset)}`,
    offset,
    events: [
      {
        kind: 'created',
        nodeId: 0,
        contractId: `c${String(offset)}`,
        templateId: `${PKG}:Main:${template}`,
        packageName: 'main',
        witnessParties: ['alice::1'],
        acsDelta: true,
        createArgument: {},
        contractKey: null,
        signatories: ['alice::1'],
        observers: [],
        createdAt: null,
      },
    ],
  });
}

const topology = (offset: number) =>
  summarizeTopology({
    updateId: `t${String(offset)}`,
    offset,
    events: [{ kind: 'added', partyId: 'bob::1', participantId: 'p::1' }],
  });

const offsets = (feed: LiveFeed) => feed.getSnapshot().rows.map((row) => row.offset);

describe('LiveFeed', () => {
  it('shows batches newest first and notifies once per batch', () => {
    const feed = new LiveFeed();
    let notified = 0;
    feed.subscribe(() => {
      notified += 1;
    });
    feed.start(10);
    feed.push({ updates: [transaction(11), transaction(12)], lastOffset: 12 });
    feed.push({ updates: [], lastOffset: 15 });
    expect(offsets(feed)).toEqual([12, 11]);
    expect(feed.getSnapshot()).toMatchObject({ lastOffset: 15, lastShownOffset: 12, received: 2 });
    expect(notified).toBe(3);
  });

  it('freezes the list while paused, counting what came, and shows it on resume', () => {
    const feed = new LiveFeed();
    feed.push({ updates: [transaction(1)], lastOffset: 1 });
    feed.pause();
    const frozen = feed.getSnapshot().rows;
    feed.push({ updates: [transaction(2), transaction(3)], lastOffset: 3 });
    expect(feed.getSnapshot().rows).toBe(frozen);
    expect(feed.getSnapshot()).toMatchObject({ isPaused: true, newWhilePaused: 2, lastOffset: 3 });
    feed.resume();
    expect(offsets(feed)).toEqual([3, 2, 1]);
    expect(feed.getSnapshot()).toMatchObject({ isPaused: false, newWhilePaused: 0 });
  });

  it('keeps only the newest rows and says how many older ones were dropped', () => {
    const feed = new LiveFeed();
    const total = LIVE_BUFFER_SIZE * 2 + 7;
    for (let start = 1; start <= total; start += 100) {
      const batch = [];
      for (let offset = start; offset < start + 100 && offset <= total; offset++) {
        batch.push(transaction(offset));
      }
      feed.push({ updates: batch, lastOffset: batch.at(-1)?.offset ?? 0 });
    }
    const { rows, dropped } = feed.getSnapshot();
    expect(rows).toHaveLength(LIVE_BUFFER_SIZE);
    expect(rows[0]?.offset).toBe(total);
    expect(rows.at(-1)?.offset).toBe(total - LIVE_BUFFER_SIZE + 1);
    expect(dropped).toBe(total - LIVE_BUFFER_SIZE);
  });

  it('filters what was received anew, and a rare match is not crowded out by the rest', () => {
    const feed = new LiveFeed({ template: 'Rare' });
    feed.push({ updates: [transaction(1, 'Rare')], lastOffset: 1 });
    const crowd = Array.from({ length: LIVE_BUFFER_SIZE * 2 }, (_, i) => transaction(i + 2));
    feed.push({ updates: crowd, lastOffset: crowd.length + 1 });
    expect(offsets(feed)).toEqual([1]);
    expect(feed.getSnapshot().dropped).toBe(0);

    feed.push({ updates: [topology(5000)], lastOffset: 5000 });
    feed.setFilter({ kinds: ['topology'] });
    expect(offsets(feed)).toEqual([5000]);
    feed.setFilter({});
    expect(feed.getSnapshot().rows).toHaveLength(LIVE_BUFFER_SIZE);
    expect(feed.getSnapshot().rows[0]?.offset).toBe(5000);
  });
});
