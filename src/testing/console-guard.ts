import { afterEach, beforeEach, vi } from 'vitest';
import { format } from 'node:util';

type Level = 'error' | 'warn';

let allowed: RegExp[] = [];
let unexpected: string[] = [];

/**
 * Lets the current test log console errors or warnings that match `pattern`, e.g. React reporting
 * an error that a boundary caught on purpose. Everything else still fails the test.
 */
export function allowConsole(pattern: RegExp): void {
  allowed.push(pattern);
}

/**
 * Fails every test that logs an unexpected console.error or console.warn: those are React act()
 * warnings, key warnings, failed prop types and swallowed errors, each a bug to fix, not noise.
 */
export function installConsoleGuard(): void {
  beforeEach(() => {
    allowed = [];
    unexpected = [];
    for (const level of ['error', 'warn'] as const satisfies readonly Level[]) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        const message = format(...args);
        if (!allowed.some((pattern) => pattern.test(message))) {
          unexpected.push(`console.${level}: ${message}`);
        }
      });
    }
  });

  afterEach(() => {
    if (unexpected.length > 0) {
      const messages = unexpected.join('\n\n');
      unexpected = [];
      throw new Error(
        `Unexpected console output (use allowConsole() if it is expected):\n${messages}`,
      );
    }
  });
}
