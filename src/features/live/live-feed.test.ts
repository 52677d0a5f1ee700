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

  it('begins with the last updates read before the stream, each update once where they meet', () => {
    const feed = new LiveFeed();
    feed.start(12);
    feed.backfill([transaction(9), transaction(10), topology(12)]);
    expect(offsets(feed)).toEqual([12, 10, 9]);
    // The stream repeats the end of what was read (a reconnect, an overlapping read): no twins.
    feed.push({ updates: [topology(12), transaction(13)], lastOffset: 13 });
    expect(offsets(feed)).toEqual([13, 12, 10, 9]);
    expect(new Set(feed.getSnapshot().rows.map((row) => row.updateId)).size).toBe(4);
    expect(feed.getSnapshot()).toMatchObject({ received: 4, lastOffset: 13, lastShownOffset: 13 });
  });

  it('places a late read below what the stream already brought, repeats dropped', () => {
    const feed = new LiveFeed({ kinds: ['transaction'] });
    feed.push({ updates: [transaction(20), transaction(21)], lastOffset: 21 });
    feed.backfill([transaction(18), topology(19), transaction(20)]);
    expect(offsets(feed)).toEqual([21, 20, 18]);
    feed.setFilter({});
    expect(offsets(feed)).toEqual([21, 20, 19, 18]);
    // Older than the newest kept: a repeat, whatever the stream says.
    feed.push({ updates: [transaction(19)], lastOffset: 21 });
    expect(offsets(feed)).toEqual([21, 20, 19, 18]);
  });

  it('does not count the last updates read as new while paused; Resume shows them', () => {
    const feed = new LiveFeed();
    feed.pause();
    feed.backfill([transaction(1), transaction(2)]);
    expect(feed.getSnapshot()).toMatchObject({ rows: [], newWhilePaused: 0 });
    feed.push({ updates: [transaction(3)], lastOffset: 3 });
    expect(feed.getSnapshot().newWhilePaused).toBe(1);
    feed.resume();
    expect(offsets(feed)).toEqual([3, 2, 1]);
  });
});
