/**
 * How every benchmark reports (issue 29): one line per figure with ours, the limit measured in the
 * same run (what a bare client, page or server does on this machine right now), their ratio, the
 * target and ✓/✗; above them, the machine the absolute figures were read on. Absolute milliseconds
 * differ 1.5–4× between two machines of the same kind; the ratio to a limit read beside it does not.
 */
import os from 'node:os';

/** Read when a benchmark starts: the load average before it adds its own. */
const START = { at: new Date(), load: os.loadavg() };

/** Cores, CPU model, Node and the load average when the benchmark started. */
export function machineLabel(extra: Record<string, string> = {}): string {
  const cpus = os.cpus();
  const load = START.load.map((value) => value.toFixed(2)).join(' ');
  const parts = {
    cores: String(cpus.length),
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    node: process.version,
    'load average at start (1/5/15 min)': load,
    started: START.at.toISOString(),
    ...extra,
  };
  return Object.entries(parts)
    .map(([key, value]) => `${key}: ${value}`)
    .join(' · ');
}

/**
 * What a figure must meet: its ratio to the limit at most or at least a value, ours at most the
 * limit plus a margin, or (for frames and tasks, where the limit is the same page idle) ours at
 * most an absolute value.
 */
export type Target =
  | { ratioAtMost: number }
  | { ratioAtLeast: number }
  /** ours − limit at most this (in the figure's unit): e.g. one frame budget more than bare. */
  | { overLimitAtMost: number; what?: string }
  | { oursAtMost: number; unit?: string };

export type Figure = {
  /** What is measured, e.g. "1,000 rows shown after the response". */
  name: string;
  ours: number;
  /** The same measure of the bare client/page/server in this run. */
  limit: number;
  /** "ms", "KB", "/s", "%", "frames" … */
  unit: string;
  target: Target;
  /** Digits after the point for ours and the limit (default 0). */
  digits?: number;
  /** What the limit is, e.g. "bare React table". */
  limitIs: string;
};

export type FigureResult = Figure & { ratio: number; ok: boolean; line: string };

/** ours ÷ limit; 0 ÷ 0 is 1 (both at the floor) and x ÷ 0 is infinite. */
export function ratioOf(ours: number, limit: number): number {
  if (limit === 0) return ours === 0 ? 1 : Number.POSITIVE_INFINITY;
  return ours / limit;
}

function meets(target: Target, ours: number, limit: number, ratio: number): boolean {
  if ('ratioAtMost' in target) return ratio <= target.ratioAtMost;
  if ('ratioAtLeast' in target) return ratio >= target.ratioAtLeast;
  if ('overLimitAtMost' in target) return ours - limit <= target.overLimitAtMost;
  return ours <= target.oursAtMost;
}

function targetText(target: Target, unit: string): string {
  if ('ratioAtMost' in target) return `ratio ≤ ${String(target.ratioAtMost)}×`;
  if ('ratioAtLeast' in target) return `ratio ≥ ${String(target.ratioAtLeast)}×`;
  if ('overLimitAtMost' in target) {
    return `ours ≤ limit + ${target.what ?? `${String(target.overLimitAtMost)} ${unit}`}`;
  }
  return `ours ≤ ${String(target.oursAtMost)} ${target.unit ?? unit}`;
}

/** Two significant digits below 0.1, so that a ratio such as 0.004 against a 0.01 target is not 0.00. */
function ratioText(ratio: number): string {
  if (!Number.isFinite(ratio)) return '∞×';
  if (ratio >= 10) return `${ratio.toFixed(0)}×`;
  if (ratio >= 0.1 || ratio === 0) return `${ratio.toFixed(2)}×`;
  return `${String(Number(ratio.toPrecision(2)))}×`;
}

/** The figure's one line: name | ours | limit (what it is) | ratio | target | ✓/✗. */
export function figure(input: Figure): FigureResult {
  const ratio = ratioOf(input.ours, input.limit);
  const ok = Number.isFinite(input.ours) && meets(input.target, input.ours, input.limit, ratio);
  const digits = input.digits ?? 0;
  const value = (n: number) => `${Number.isFinite(n) ? n.toFixed(digits) : 'n/a'} ${input.unit}`;
  const line = [
    input.name,
    `ours ${value(input.ours)}`,
    `limit ${value(input.limit)} (${input.limitIs})`,
    `ratio ${ratioText(ratio)}`,
    `target ${targetText(input.target, input.unit)}`,
    ok ? '✓' : '✗',
  ].join(' | ');
  return { ...input, ratio, ok, line };
}

/** Prints a benchmark's title, the machine, and one line per figure; returns them for the JSON. */
export function printFigures(
  title: string,
  figures: readonly FigureResult[],
  extra?: Record<string, string>,
) {
  console.log(`\n${title}`);
  console.log(`machine: ${machineLabel(extra)}`);
  for (const result of figures) console.log(result.line);
  const failed = figures.filter((result) => !result.ok).length;
  console.log(`${String(figures.length - failed)} of ${String(figures.length)} figures on target`);
  return {
    machine: machineLabel(extra),
    figures: figures.map(({ name, ours, limit, unit, ratio, target, ok, limitIs }) => ({
      name,
      ours,
      limit,
      limitIs,
      unit,
      ratio,
      target,
      ok,
    })),
  };
}
