import type { Page } from '@playwright/test';
import axe from 'axe-core';

/** The axe-core release the scans run. */
export const AXE_VERSION = axe.version;

/**
 * Every rule axe-core has, by id: not only the WCAG-tagged ones but best practices, experimental
 * rules, WCAG AAA and those axe leaves off by default. A tag filter would drop whatever a new
 * release adds under a new tag; naming the rules runs them whatever their default.
 */
export const ALL_AXE_RULES: readonly string[] = axe.getRules().map((rule) => rule.ruleId);

export type AxeViolation = { id: string; help: string; targets: string[] };

type WithAxe = { axe: typeof axe };

/**
 * Puts axe into the page once, so that several scans of it (each scheme, each size) share one
 * injection: on a loaded 2-core machine the injection costs as much as a scan.
 */
export async function injectAxe(page: Page): Promise<void> {
  await page.evaluate(axe.source);
}

/** The violations of every rule on the whole page (after {@link injectAxe}); nothing excluded. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const results = await page.evaluate(
    (rules) =>
      (window as unknown as WithAxe).axe.run(document, {
        runOnly: { type: 'rule', values: rules },
        resultTypes: ['violations'],
      }),
    [...ALL_AXE_RULES],
  );
  return results.violations.map(({ id, help, nodes }) => ({
    id,
    help,
    // The selector and why, e.g. "insufficient color contrast of 4.1 (foreground color: …)".
    targets: nodes.map((node) => {
      const why = (node.failureSummary ?? '').split('\n').slice(1).join(' ').trim();
      return `${node.target.join(' ')}: ${why}`;
    }),
  }));
}
