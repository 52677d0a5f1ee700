import { describe, expect, it } from 'vitest';
import { waitingStatuses, withStepStatus } from './run-progress';

describe('run progress', () => {
  it('starts with every step waiting', () => {
    expect(waitingStatuses(3)).toEqual(['waiting', 'waiting', 'waiting']);
    expect(waitingStatuses(0)).toEqual([]);
  });

  it('moves one step at a time, leaving the others as they are', () => {
    const running = withStepStatus(['done', 'waiting', 'waiting'], 1, 'running');
    expect(running).toEqual(['done', 'running', 'waiting']);
    expect(withStepStatus(running, 1, 'done')).toEqual(['done', 'done', 'waiting']);
  });

  it('marks every later step not run when one fails, and keeps those done', () => {
    expect(withStepStatus(['done', 'running', 'waiting', 'waiting'], 1, 'failed')).toEqual([
      'done',
      'failed',
      'not run',
      'not run',
    ]);
  });
});
