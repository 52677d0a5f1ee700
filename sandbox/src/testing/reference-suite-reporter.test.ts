import { describe, expect, it } from 'vitest';
import { SKIP_REASON } from '@ledger-console/participant/testing/reference-dir';
import {
  countReferenceChecks,
  describeReferenceRun,
  type ReportedModule,
} from './reference-suite-reporter';

function module(moduleId: string, states: string[], state = 'passed'): ReportedModule {
  return {
    moduleId,
    state: () => state,
    children: {
      allTests: () => states.map((testState) => ({ result: () => ({ state: testState }) })),
    },
  };
}

describe('countReferenceChecks', () => {
  it('counts only the checks of *.reference.test.ts files, by state', () => {
    const counts = countReferenceChecks([
      module('/repo/sandbox/src/spec/canton-api-facts.reference.test.ts', ['passed', 'failed']),
      module('/repo/sandbox/src/daml-lf/read-dar.reference.test.ts', ['skipped', 'passed']),
      module('/repo/src/features/x/x.reference.test.tsx', ['passed']),
      module('/repo/sandbox/src/routes/user-routes.test.ts', ['passed', 'failed', 'skipped']),
      module('/repo/sandbox/src/reference.test.ts', ['failed']),
    ]);
    expect(counts).toEqual({ files: 3, passed: 3, failed: 1, skipped: 1, brokenFiles: 0 });
  });

  it('counts a reference file that failed before collecting any check', () => {
    const counts = countReferenceChecks([module('/r/a.reference.test.ts', [], 'failed')]);
    expect(counts).toEqual({ files: 1, passed: 0, failed: 0, skipped: 0, brokenFiles: 1 });
  });
});

describe('describeReferenceRun', () => {
  const none = { files: 0, passed: 0, failed: 0, skipped: 0, brokenFiles: 0 };

  it('says how many checks were skipped and why when no reference folder is set', () => {
    expect(describeReferenceRun({ ...none, files: 2, skipped: 5 }, undefined)).toBe(
      `Reference suite: 5 checks in 2 files skipped. ${SKIP_REASON}.`,
    );
  });

  it('says how many ran and passed against the folder when one is set', () => {
    expect(describeReferenceRun({ ...none, files: 1, passed: 3, failed: 1 }, '/ref')).toBe(
      'Reference suite (CANTON_REFERENCE_DIR=/ref): 4 checks in 1 file ran: 3 passed, 1 failed.',
    );
  });

  it('does not hide checks that ran without a folder', () => {
    expect(describeReferenceRun({ ...none, files: 1, passed: 1, skipped: 1 }, undefined)).toBe(
      `Reference suite: 1 check in 1 file skipped. ${SKIP_REASON}. Ran anyway: 1 passed, 0 failed.`,
    );
  });

  it('stays silent when the run held no reference file', () => {
    expect(describeReferenceRun(none, undefined)).toBeUndefined();
  });
});
