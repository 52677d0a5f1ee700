import { describe, expect, it } from 'vitest';
import { figure, ratioOf } from './ratio-report';

describe('figure', () => {
  it('passes a ratio under its ceiling and fails one over it', () => {
    const fast = figure({
      name: 'rows',
      ours: 120,
      limit: 100,
      unit: 'ms',
      limitIs: 'bare table',
      target: { ratioAtMost: 1.5 },
    });
    expect(fast.ratio).toBeCloseTo(1.2);
    expect(fast.ok).toBe(true);
    expect(fast.line).toBe(
      'rows | ours 120 ms | limit 100 ms (bare table) | ratio 1.20× | target ratio ≤ 1.5× | ✓',
    );
    const slow = figure({ ...fast, ours: 151 });
    expect(slow.ok).toBe(false);
    expect(slow.line.endsWith('✗')).toBe(true);
  });

  it('checks a floor, and an absolute ceiling whatever the limit', () => {
    const layout = { name: 'layout', unit: 'ms', limitIs: 'dagre' };
    expect(figure({ ...layout, ours: 350, limit: 3, target: { ratioAtLeast: 100 } }).ok).toBe(true);
    expect(figure({ ...layout, ours: 250, limit: 3, target: { ratioAtLeast: 100 } }).ok).toBe(
      false,
    );
    const flip = { name: 'flip', unit: 'ms', limitIs: 'bare table' };
    const oneFrame = { overLimitAtMost: 1000 / 60, what: 'one frame (16.7 ms)' };
    expect(figure({ ...flip, ours: 40, limit: 25, target: oneFrame }).ok).toBe(true);
    expect(figure({ ...flip, ours: 42, limit: 25, target: oneFrame }).line).toContain(
      'target ours ≤ limit + one frame (16.7 ms) | ✗',
    );
    const task = { name: 'longest task', unit: 'ms', limitIs: 'idle page' };
    expect(figure({ ...task, ours: 49, limit: 0, target: { oursAtMost: 50 } }).ok).toBe(true);
    expect(figure({ ...task, ours: 51, limit: 60, target: { oursAtMost: 50 } }).ok).toBe(false);
  });

  it('prints a ratio under 0.1 with two significant digits', () => {
    const layout = { name: 'layout', unit: 'ms', limitIs: 'dagre', target: { ratioAtMost: 0.01 } };
    expect(figure({ ...layout, ours: 0.06, limit: 16.5 }).line).toContain('ratio 0.0036× |');
    expect(figure({ ...layout, ours: 0.7, limit: 28.6 }).line).toContain('ratio 0.024× |');
    expect(figure({ ...layout, ours: 0, limit: 28.6 }).line).toContain('ratio 0.00× |');
  });

  it('fails a figure that was not measured', () => {
    const missing = figure({
      name: 'rows',
      ours: Number.NaN,
      limit: 100,
      unit: 'ms',
      limitIs: 'bare table',
      target: { ratioAtMost: 1.5 },
    });
    expect(missing.ok).toBe(false);
    expect(missing.line).toContain('ours n/a ms');
  });
});

describe('ratioOf', () => {
  it('treats two zeros as equal and a zero limit as infinitely exceeded', () => {
    expect(ratioOf(0, 0)).toBe(1);
    expect(ratioOf(3, 0)).toBe(Number.POSITIVE_INFINITY);
  });
});
