import { test as base, expect } from '@playwright/test';

/**
 * Our `test`: the same as Playwright's, except that a page which logs a console error or throws an
 * uncaught exception fails the test, even when everything on screen looks right.
 */
export const test = base.extend<{ allowedConsoleErrors: RegExp[] }>({
  /** Console errors a journey provokes on purpose (e.g. a provider that refuses connections). */
  allowedConsoleErrors: [[], { option: true }],
  page: async ({ page, allowedConsoleErrors }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Chromium itself logs every 4xx response as an error. Those are answers the console
      // handles (400 INVALID_TOKEN from authenticated-user without auth, a duplicate id, a
      // lookup that finds nothing), and each journey asserts what the user sees of them.
      if (
        /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
      ) {
        return;
      }
      const problem = `console.error: ${message.text()} (${message.location().url})`;
      if (allowedConsoleErrors.some((pattern) => pattern.test(problem))) return;
      problems.push(problem);
    });
    page.on('pageerror', (error) => {
      problems.push(`uncaught: ${error.message}`);
    });

    await use(page);

    expect(problems, 'the page logged errors').toEqual([]);
  },
});

export { expect };
