import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { REFERENCE_ENV, SKIP_REASON } from '@ledger-console/participant/testing/reference-dir';

const REFERENCE_FILE = /\.reference\.test\.tsx?$/;

/** The part of vitest's TestModule the count reads. */
export type ReportedModule = {
  moduleId: string;
  state(): string;
  children: { allTests(): Iterable<{ result(): { state: string } }> };
};

export type ReferenceCounts = {
  files: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Reference files that failed before any of their checks was collected (an import error). */
  brokenFiles: number;
};

/** Counts the checks of the reference suite (`*.reference.test.ts`) by state. */
export function countReferenceChecks(modules: Iterable<ReportedModule>): ReferenceCounts {
  const counts: ReferenceCounts = { files: 0, passed: 0, failed: 0, skipped: 0, brokenFiles: 0 };
  for (const module of modules) {
    if (!REFERENCE_FILE.test(module.moduleId)) continue;
    counts.files += 1;
    let tests = 0;
    for (const test of module.children.allTests()) {
      tests += 1;
      const { state } = test.result();
      if (state === 'passed') counts.passed += 1;
      else if (state === 'failed') counts.failed += 1;
      else if (state === 'skipped') counts.skipped += 1;
    }
    if (tests === 0 && module.state() === 'failed') counts.brokenFiles += 1;
  }
  return counts;
}

const plural = (count: number, noun: string) => `${String(count)} ${noun}${count === 1 ? '' : 's'}`;

/**
 * The reference suite's line in the test output: how many checks were skipped and why, or how many
 * ran against which folder. Undefined when the run held no reference file (a filtered run).
 */
export function describeReferenceRun(
  counts: ReferenceCounts,
  referenceDir: string | undefined,
): string | undefined {
  if (counts.files === 0) return undefined;
  const files = plural(counts.files, 'file');
  const ran = counts.passed + counts.failed;
  const parts = [`${String(counts.passed)} passed`, `${String(counts.failed)} failed`];
  if (counts.brokenFiles > 0) parts.push(`${plural(counts.brokenFiles, 'file')} failed to load`);
  if (referenceDir === undefined) {
    const skipped = `Reference suite: ${plural(counts.skipped, 'check')} in ${files} skipped. ${SKIP_REASON}.`;
    // A reference file that forgot its skipIf still ran; say so rather than hide it.
    return ran > 0 || counts.brokenFiles > 0
      ? `${skipped} Ran anyway: ${parts.join(', ')}.`
      : skipped;
  }
  if (counts.skipped > 0) parts.push(`${String(counts.skipped)} skipped`);
  return `Reference suite (${REFERENCE_ENV}=${referenceDir}): ${plural(ran, 'check')} in ${files} ran: ${parts.join(', ')}.`;
}

/**
 * Says plainly, after vitest's own summary, what became of the reference suite, which is skipped
 * as a whole when no folder of Canton's artifacts is configured.
 */
export class ReferenceSuiteReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(testModules: readonly TestModule[]): void {
    // Read here, not imported from reference-dir: a configured but missing folder must not throw
    // inside the reporter; the reference tests themselves fail loudly for it.
    const configured = process.env[REFERENCE_ENV];
    const line = describeReferenceRun(
      countReferenceChecks(testModules),
      configured === undefined || configured === '' ? undefined : configured,
    );
    if (line === undefined) return;
    if (this.vitest) this.vitest.logger.log(line);
    else console.log(line);
  }
}

// vitest instantiates a reporter named by path (vite.config.ts) from its module's default export.
export default ReferenceSuiteReporter;
