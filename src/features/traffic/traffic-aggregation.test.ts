import { describe, expect, it } from 'vitest';
import type { TrafficCompletion } from '@/api/traffic';
import {
  aggregateBy,
  aggregateTraffic,
  costliest,
  FAILED,
  NOT_READ,
  reportsNoCost,
  trafficCsvRows,
} from './traffic-aggregation';

const IOU = 'pkg:Demo.Iou:Iou';
const ACCOUNT = 'pkg:Demo.Account:Account';

let offset = 0;
const completion = (extra: Partial<TrafficCompletion>): TrafficCompletion => ({
  offset: ++offset,
  userId: 'alice-app',
  actAs: ['alice'],
  commandId: `cmd-${String(offset)}`,
  updateId: `u-${String(offset)}`,
  recordTime: '2026-01-01T00:00:00Z',
  paidTrafficCost: 100,
  succeeded: true,
  actions: [{ templateId: IOU, choice: 'Create' }],
  ...extra,
});

describe('aggregateTraffic', () => {
  const completions = [
    completion({ paidTrafficCost: 100 }),
    completion({ paidTrafficCost: 300, actions: [{ templateId: IOU, choice: 'Iou_Split' }] }),
    completion({
      userId: 'bob-app',
      actAs: ['bob', 'alice'],
      paidTrafficCost: 50,
      actions: [{ templateId: ACCOUNT, choice: 'Account_Issue' }],
    }),
    completion({ userId: 'bob-app', actAs: ['bob'], paidTrafficCost: null }),
    completion({
      userId: 'bob-app',
      actAs: ['bob'],
      succeeded: false,
      paidTrafficCost: 0,
      actions: null,
    }),
    completion({ paidTrafficCost: 7, actions: null }),
  ];
  const aggregate = aggregateTraffic(completions);

  it('totals the reported costs, counting a command without one but adding nothing', () => {
    expect(aggregate.totals).toEqual({ cost: 457, count: 6, withoutCost: 1, failed: 1 });
  });

  it('sums by user, most costly first', () => {
    expect(aggregate.byUser).toEqual([
      { key: 'alice-app', cost: 407, count: 3, withoutCost: 0 },
      { key: 'bob-app', cost: 50, count: 3, withoutCost: 1 },
    ]);
  });

  it('counts a command in full for each acting party', () => {
    expect(aggregate.byParty).toEqual([
      { key: 'alice', cost: 457, count: 4, withoutCost: 0 },
      { key: 'bob', cost: 50, count: 3, withoutCost: 1 },
    ]);
  });

  it('sums by template and by choice, with unread and failed commands apart', () => {
    expect(aggregate.byTemplate.map(({ key, cost, count }) => [key, cost, count])).toEqual([
      [IOU, 400, 3],
      [ACCOUNT, 50, 1],
      [NOT_READ, 7, 1],
      [FAILED, 0, 1],
    ]);
    expect(aggregate.byChoice[0]).toEqual({
      key: `${IOU} Iou_Split`,
      templateId: IOU,
      choice: 'Iou_Split',
      cost: 300,
      count: 1,
      withoutCost: 0,
    });
  });

  it('orders equal costs by count, then by key', () => {
    const rows = aggregateBy(
      [
        completion({ userId: 'b', paidTrafficCost: 10 }),
        completion({ userId: 'a', paidTrafficCost: 10 }),
        completion({ userId: 'c', paidTrafficCost: 5 }),
        completion({ userId: 'c', paidTrafficCost: 5 }),
      ],
      'user',
    );
    expect(rows.map((row) => row.key)).toEqual(['c', 'a', 'b']);
  });

  it('tells a participant that reports no cost from an empty window', () => {
    expect(reportsNoCost(aggregate.totals)).toBe(false);
    expect(reportsNoCost(aggregateTraffic([completion({ paidTrafficCost: null })]).totals)).toBe(
      true,
    );
    expect(reportsNoCost(aggregateTraffic([]).totals)).toBe(false);
  });
});

describe('costliest', () => {
  it('lists the commands that paid most, leaving out those without a cost', () => {
    const [a, b, c, d] = [
      completion({ paidTrafficCost: 10 }),
      completion({ paidTrafficCost: 30 }),
      completion({ paidTrafficCost: null }),
      completion({ paidTrafficCost: 30 }),
    ];
    expect(costliest([a, b, c, d], 2)).toEqual([d, b]);
  });
});

describe('trafficCsvRows', () => {
  it('writes one row per completion, an absent cost as an empty cell', () => {
    const [row] = trafficCsvRows([
      completion({
        offset: 42,
        actAs: ['alice', 'bob'],
        paidTrafficCost: null,
        commandId: 'c-1',
        updateId: 'u-1',
      }),
    ]);
    expect(row).toEqual([
      42,
      '2026-01-01T00:00:00Z',
      'alice-app',
      'alice bob',
      'c-1',
      'u-1',
      true,
      IOU,
      'Create',
      '',
    ]);
  });
});
