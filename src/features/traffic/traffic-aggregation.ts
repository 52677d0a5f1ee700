import type { TrafficCompletion, TrafficReport } from '@/api/traffic';
import type { CsvValue } from '@/components/data-table/csv';

/**
 * The Traffic page's arithmetic, pure: totals of the paid traffic cost of a window's completions,
 * and the same by user, acting party, template and choice. A completion without a reported cost
 * counts as a command but adds nothing; a command acting for several parties (or doing several
 * things at its top) counts in full for each of them, so those tables can add up to more than
 * the total.
 */

export type TrafficDimension = 'user' | 'party' | 'template' | 'choice';

/** Where a completion goes when its transaction is not known. */
export const NOT_READ = '(transaction not read)';
export const FAILED = '(command failed)';

export type TrafficRow = {
  /** The user id, party id, template id, or `<template id> <choice>` for choices. */
  key: string;
  /** For choices: the template and the choice apart. */
  templateId?: string;
  choice?: string;
  /** Sum of the reported costs. */
  cost: number;
  /** Completions counted. */
  count: number;
  /** Completions without a reported cost (counted, not added). */
  withoutCost: number;
};

export type TrafficTotals = {
  cost: number;
  count: number;
  withoutCost: number;
  failed: number;
};

export type TrafficAggregate = {
  totals: TrafficTotals;
  byUser: TrafficRow[];
  byParty: TrafficRow[];
  byTemplate: TrafficRow[];
  byChoice: TrafficRow[];
};

/** The keys a completion counts under in a dimension (each once). */
function keysOf(
  completion: TrafficCompletion,
  dimension: TrafficDimension,
): { key: string; templateId?: string; choice?: string }[] {
  switch (dimension) {
    case 'user':
      return [{ key: completion.userId }];
    case 'party':
      return [...new Set(completion.actAs)].map((party) => ({ key: party }));
    case 'template':
    case 'choice': {
      const fallback = completion.succeeded ? NOT_READ : FAILED;
      const actions = completion.actions ?? [];
      if (actions.length === 0) return [{ key: fallback }];
      if (dimension === 'template') {
        return [...new Set(actions.map((action) => action.templateId))].map((key) => ({ key }));
      }
      return actions.map(({ templateId, choice }) => ({
        key: `${templateId} ${choice}`,
        templateId,
        choice,
      }));
    }
  }
}

/** Most costly first; equal costs by more commands, then by key, so the order is stable. */
export function compareRows(a: TrafficRow, b: TrafficRow): number {
  return b.cost - a.cost || b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

export function aggregateBy(
  completions: readonly TrafficCompletion[],
  dimension: TrafficDimension,
): TrafficRow[] {
  const rows = new Map<string, TrafficRow>();
  for (const completion of completions) {
    for (const { key, ...parts } of keysOf(completion, dimension)) {
      let row = rows.get(key);
      if (!row) {
        row = { key, ...parts, cost: 0, count: 0, withoutCost: 0 };
        rows.set(key, row);
      }
      row.count += 1;
      if (completion.paidTrafficCost === null) row.withoutCost += 1;
      else row.cost += completion.paidTrafficCost;
    }
  }
  return [...rows.values()].sort(compareRows);
}

export function trafficTotals(completions: readonly TrafficCompletion[]): TrafficTotals {
  const totals: TrafficTotals = { cost: 0, count: 0, withoutCost: 0, failed: 0 };
  for (const completion of completions) {
    totals.count += 1;
    if (!completion.succeeded) totals.failed += 1;
    if (completion.paidTrafficCost === null) totals.withoutCost += 1;
    else totals.cost += completion.paidTrafficCost;
  }
  return totals;
}

export function aggregateTraffic(completions: readonly TrafficCompletion[]): TrafficAggregate {
  return {
    totals: trafficTotals(completions),
    byUser: aggregateBy(completions, 'user'),
    byParty: aggregateBy(completions, 'party'),
    byTemplate: aggregateBy(completions, 'template'),
    byChoice: aggregateBy(completions, 'choice'),
  };
}

/** The `count` completions that paid most, most costly first (equal costs: the later first). */
export function costliest(
  completions: readonly TrafficCompletion[],
  count: number,
): TrafficCompletion[] {
  return completions
    .filter((completion) => completion.paidTrafficCost !== null)
    .sort((a, b) => (b.paidTrafficCost ?? 0) - (a.paidTrafficCost ?? 0) || b.offset - a.offset)
    .slice(0, count);
}

/** True when the participant reported a cost for none of the completions: no traffic control. */
export function reportsNoCost(totals: TrafficTotals): boolean {
  return totals.count > 0 && totals.withoutCost === totals.count;
}

// ── export ─────────────────────────────────────────────────────────────────────

/** One row per completion: what every table of the page is computed from. */
export const TRAFFIC_CSV_HEADER = [
  'offset',
  'recordTime',
  'userId',
  'actAs',
  'commandId',
  'updateId',
  'succeeded',
  'templates',
  'choices',
  'paidTrafficCost',
] as const;

export function trafficCsvRows(completions: readonly TrafficCompletion[]): CsvValue[][] {
  return completions.map((completion) => [
    completion.offset,
    completion.recordTime ?? '',
    completion.userId,
    completion.actAs.join(' '),
    completion.commandId,
    completion.updateId,
    completion.succeeded,
    keysOf(completion, 'template')
      .map(({ key }) => key)
      .join(' '),
    (completion.actions ?? []).map((action) => action.choice).join(' '),
    completion.paidTrafficCost ?? '',
  ]);
}

/** The report as JSON: the window, the caps, the totals, every table and every completion. */
export function trafficJson(report: TrafficReport, aggregate: TrafficAggregate): string {
  return `${JSON.stringify(
    {
      window: report.window,
      beginExclusive: report.beginExclusive,
      endInclusive: report.endInclusive,
      readAt: report.readAt,
      users: report.userIds,
      capped: report.capped,
      totals: aggregate.totals,
      byUser: aggregate.byUser,
      byParty: aggregate.byParty,
      byTemplate: aggregate.byTemplate,
      byChoice: aggregate.byChoice,
      completions: report.completions,
    },
    null,
    2,
  )}\n`;
}
