import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** A page load can take long on a loaded machine: the whole console reloads and probes. */
export const PAGE_LOAD = { timeout: 30_000 };

/** The Activity page's shared log, its table once loaded. */
export async function openAuditLog(page: Page, query = ''): Promise<Locator> {
  await page.goto(`/activity${query}`);
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible(PAGE_LOAD);
  return page.getByRole('table', { name: 'Audit log' });
}

/** The entry rows (each with its Details button) that mention `text`. */
export function auditRows(table: Locator, text: string): Locator {
  return table
    .getByRole('row')
    .filter({ has: table.page().getByRole('button', { name: /details/i }) })
    .filter({ hasText: text });
}

/** Filters the shared log by text in its path, resource or summary (applied after a pause in typing). */
export async function filterAuditText(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: /^Contains/ }).fill(text);
  await expect(page).toHaveURL(new RegExp(`[?&]text=${encodeURIComponent(text)}`));
}

export async function exportAuditLog(
  page: Page,
  format: 'CSV' | 'JSON',
): Promise<{ fileName: string; text: string }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: `Export ${format}` }).click();
  const saved = await download;
  return { fileName: saved.suggestedFilename(), text: await readFile(await saved.path(), 'utf8') };
}
