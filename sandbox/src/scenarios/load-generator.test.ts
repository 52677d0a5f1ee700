import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { createLedgerClient } from './ledger-client';
import { ledgerSteps, type LedgerSteps } from './ledger-steps';
import { generateLoad } from './load-generator';

let sandbox: RunningSandbox;
let steps: LedgerSteps;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, quiet: true });
  steps = ledgerSteps(
    createLedgerClient({ transport: (request) => fetch(request), baseUrl: sandbox.url }),
  );
});
afterAll(async () => {
  await sandbox.close();
});

describe('generateLoad over HTTP', () => {
  it('creates one Iou per submission at the target rate and counts what committed', async () => {
    const party = await steps.allocateFreshParty('load');
    const before = await steps.ledgerEnd();
    const report = await generateLoad(steps, { party, ratePerSecond: 100, durationMs: 300 });
    // 100/s for 0.3 s schedules 30 starts (the first at time zero); a busy machine may wake the
    // scheduler late for the last few.
    expect(report.submitted).toBeGreaterThanOrEqual(15);
    expect(report.submitted).toBeLessThanOrEqual(31);
    expect(report.committed).toBe(report.submitted);
    expect(report.failed).toBe(0);
    expect(await steps.ledgerEnd()).toBe(before + report.committed);
    // Open loop: never faster than the schedule, whatever the sandbox could do.
    expect(report.achievedRate).toBeGreaterThan(0);
    expect(report.achievedRate).toBeLessThanOrEqual(110);
    expect(report.latencyP99Ms).toBeGreaterThanOrEqual(report.latencyP50Ms);
  });

  it('splits an Iou per lane, each split committing one update', async () => {
    const party = await steps.allocateFreshParty('load');
    const before = await steps.ledgerEnd();
    const report = await generateLoad(steps, {
      party,
      ratePerSecond: 50,
      durationMs: 200,
      maxInFlight: 2,
      workload: 'split',
    });
    expect(report.failed).toBe(0);
    expect(report.committed).toBeGreaterThan(0);
    // The two lanes' Ious are created before the clock starts.
    expect(await steps.ledgerEnd()).toBe(before + 2 + report.committed);
  });

  it('leaves the warm-up out of the report', async () => {
    const party = await steps.allocateFreshParty('load');
    const before = await steps.ledgerEnd();
    const report = await generateLoad(steps, {
      party,
      ratePerSecond: 50,
      durationMs: 100,
      warmUpMs: 100,
    });
    expect(report.failed).toBe(0);
    // The warm-up's creates are on the ledger, not in the count.
    expect(await steps.ledgerEnd()).toBeGreaterThan(before + report.committed);
  });

  it('reports refusals instead of throwing', async () => {
    // A party this participant does not host cannot submit.
    const report = await generateLoad(steps, {
      party: 'stranger::1220aaaa',
      ratePerSecond: 20,
      durationMs: 100,
    });
    expect(report.committed).toBe(0);
    expect(report.failed).toBe(report.submitted);
    expect(report.firstError).toMatch(/answered 4\d\d/);
  });
});
