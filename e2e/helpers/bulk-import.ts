import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** A long import over HTTP: checking and running 200 rows takes seconds, not the default 10. */
const IMPORT_TIMEOUT = 60_000;

export const IMPORT_HEADER = 'userId,displayName,partyHint,party,rights,isDeactivated';

/** From the users page's header action, as a person would get there. */
export async function goToUsersImport(page: Page): Promise<void> {
  await page.goto('/users');
  await page.getByRole('link', { name: 'Import users' }).click();
  await expect(page.getByRole('heading', { name: 'Import users', level: 1 })).toBeVisible();
}

export async function chooseImportFile(page: Page, name: string, content: string): Promise<void> {
  await page.getByLabel('Choose an import file').setInputFiles({
    name,
    mimeType: name.endsWith('.json') ? 'application/json' : 'text/csv',
    buffer: Buffer.from(content, 'utf8'),
  });
}

/** Waits for the plan's summary line, e.g. "200 rows: 197 to create, …". */
export async function assertPlanSummary(page: Page, summary: string): Promise<void> {
  await expect(
    page.getByRole('region', { name: 'Plan' }).getByRole('status').filter({ hasText: 'rows:' }),
  ).toHaveText(summary, { timeout: IMPORT_TIMEOUT });
}

export async function showRowsNeedingAttention(page: Page): Promise<void> {
  await page.getByText('Needs attention', { exact: true }).click();
}

/** The plan table's body rows as shown (the current page of the current filter). */
export function planRows(page: Page) {
  return page.getByRole('table', { name: 'Import plan' }).locator('tbody tr');
}

export async function clickRunImport(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run import' }).click();
}

export async function assertResults(page: Page, text: string): Promise<void> {
  await expect(page.getByText(/^Results: /)).toHaveText(text, { timeout: IMPORT_TIMEOUT });
}

/** Clicks a results download and returns the saved file's name and text. */
export async function downloadResults(
  page: Page,
  format: 'CSV' | 'JSON',
): Promise<{ fileName: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download results (${format})` }).click();
  const saved = await download;
  return { fileName: saved.suggestedFilename(), text: await readFile(await saved.path(), 'utf8') };
}
