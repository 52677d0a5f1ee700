import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from './when-idle';

afterEach(() => {
  vi.useRealTimers();
});

describe('whenIdle', () => {
  it('runs the task later, not at once', async () => {
    const task = vi.fn();
    whenIdle(task, 50);
    expect(task).not.toHaveBeenCalled();
    await vi.waitFor(() => {
      expect(task).toHaveBeenCalledTimes(1);
    });
  });

  it('does not run a cancelled task', async () => {
    const task = vi.fn();
    whenIdle(task, 10)();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(task).not.toHaveBeenCalled();
  });

  it('uses the browser’s idle callback where there is one', () => {
    const requested: number[] = [];
    vi.stubGlobal('requestIdleCallback', (_run: () => void, options: { timeout: number }) => {
      requested.push(options.timeout);
      return 7;
    });
    const cancelled: number[] = [];
    vi.stubGlobal('cancelIdleCallback', (handle: number) => cancelled.push(handle));

    whenIdle(() => undefined, 1500)();

    expect(requested).toEqual([1500]);
    expect(cancelled).toEqual([7]);
  });
});
