/** Where each step of a running plan stands, for the one-person run's list of calls. */
export type StepStatus = 'waiting' | 'running' | 'done' | 'failed' | 'not run';

/** A run about to start: every step waiting. */
export function waitingStatuses(stepCount: number): StepStatus[] {
  return Array.from({ length: stepCount }, () => 'waiting');
}

/**
 * The statuses with step `index` now at `status`. A run stops at its first failure, so a failed
 * step leaves every later one not run.
 */
export function withStepStatus(
  statuses: readonly StepStatus[],
  index: number,
  status: StepStatus,
): StepStatus[] {
  return statuses.map((old, i) =>
    i === index ? status : status === 'failed' && i > index ? 'not run' : old,
  );
}
