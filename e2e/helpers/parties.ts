import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

export async function goToParties(page: Page, query = ''): Promise<void> {
  await page.goto(`/parties${query}`);
  await expect(page.getByRole('heading', { name: 'Parties', level: 1 })).toBeVisible();
}

export async function filterParties(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Filter parties' }).fill(text);
}

export async function assertPartyListed(page: Page, party: string): Promise<void> {
  await expect(
    page
      .getByRole('table', { name: 'Parties' })
      .getByRole('link')
      .filter({ hasText: party.split('::')[0] }),
  ).toHaveAttribute('href', `/parties/${encodeURIComponent(party)}`);
}

export async function goToNewParty(page: Page): Promise<void> {
  await page.goto('/parties/new');
  await expect(page.getByRole('heading', { name: 'Allocate party', level: 1 })).toBeVisible();
}

export async function fillPartyHint(page: Page, hint: string): Promise<void> {
  await page.getByRole('textbox', { name: /^Party id hint/ }).fill(hint);
}

export async function submitAllocateParty(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Allocate party' }).click();
}

/** On the party's page: its hint as the heading; returns the full id it shows. */
export async function assertOnPartyPage(page: Page, hint: string): Promise<string> {
  await expect(page.getByRole('heading', { name: hint, level: 1 })).toBeVisible();
  const id = page.getByRole('group', { name: 'Party id' });
  await expect(id).toContainText(`${hint}::1220`);
  return (await id.getByText(`${hint}::`).textContent()) ?? '';
}

export async function goToParty(page: Page, party: string): Promise<void> {
  await page.goto(`/parties/${encodeURIComponent(party)}`);
  await expect(page.getByRole('region', { name: 'Details' })).toBeVisible();
}

/** Moves within the running app, as a user would, so nothing is reloaded on the way. */
export async function navigateTo(page: Page, navItem: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: navItem }).click();
}

/** Types part of the party's hint into a party picker and picks the party from its options. */
export async function pickParty(
  page: Page,
  field: RegExp,
  hint: string,
  party: string,
): Promise<void> {
  await page.getByRole('combobox', { name: field }).fill(hint);
  await page.getByRole('option', { name: `${hint} ${party}` }).click();
}

export async function assertAccessChecked(page: Page): Promise<void> {
  await expect(
    page.getByRole('status').filter({ hasText: /^Checked the rights of \d+ users?\.$/ }),
  ).toBeVisible({ timeout: 20_000 });
}

const HOLDERS = 'Users who can act, read or execute as this party';
const ADMINISTRATORS = 'Administrators who could grant themselves access';

/** The user's row says which rights let it act, read and execute as the party ("No" if none). */
export async function assertCanAccess(
  page: Page,
  userId: string,
  expected: { act: string; read: string; execute: string },
): Promise<void> {
  const row = page
    .getByRole('table', { name: HOLDERS })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: userId, exact: true }) });
  await expect(row.getByRole('cell')).toHaveText([
    userId,
    expected.act,
    expected.read,
    expected.execute,
  ]);
}

export async function assertCannotAccess(page: Page, userId: string): Promise<void> {
  await expect(
    page.getByRole('table', { name: HOLDERS }).getByRole('link', { name: userId, exact: true }),
  ).toHaveCount(0);
}

export async function assertAdministratorListed(
  page: Page,
  userId: string,
  right: string,
): Promise<void> {
  const row = page
    .getByRole('table', { name: ADMINISTRATORS })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: userId, exact: true }) });
  await expect(row.getByRole('cell').nth(1)).toHaveText(right);
}

export async function openUserFromAccess(page: Page, userId: string): Promise<void> {
  await page
    .getByRole('table', { name: HOLDERS })
    .getByRole('link', { name: userId, exact: true })
    .click();
}
