import { test as base, expect } from '@playwright/test';

/**
 * Our `test`: the same as Playwright's, except that a page which logs a console error or throws an
 * uncaught exception fails the test, even when everything on screen looks right.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => {
      problems.push(`uncaught: ${error.message}`);
    });

    await use(page);

    expect(problems, 'the page logged errors').toEqual([]);
  },
});

export { expect };
