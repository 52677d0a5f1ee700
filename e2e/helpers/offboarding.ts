import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The signed-in console's own access token, for seeding through the API as that person. */
export async function consoleToken(page: Page): Promise<string> {
  const token = await page.evaluate(() =>
    window.sessionStorage.getItem('ledger-console.access-token'),
  );
  expect(token, 'the signed-in admin’s token in session storage').toBeTruthy();
  return token ?? '';
}

/**
 * Onboards a person through the API with an IdP admin's token: the user (in the admin's IdP,
 * implied), a new party allocated for it (which grants it CanActAs, ledger-api-behaviour.md §5.1)
 * and that party as its primary party. The party's id.
 */
export async function onboardThroughApi(
  page: Page,
  token: string,
  { userId, partyHint }: { userId: string; partyHint: string },
): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await page.request.post('/v2/users', {
    headers,
    data: { user: { id: userId, primaryParty: '', isDeactivated: false }, rights: [] },
  });
  expect(created.status(), await created.text()).toBe(200);
  const allocated = await page.request.post('/v2/parties', {
    headers,
    data: { partyIdHint: partyHint, userId },
  });
  expect(allocated.status(), await allocated.text()).toBe(200);
  const party = ((await allocated.json()) as { partyDetails: { party: string } }).partyDetails
    .party;
  const updated = await page.request.patch(`/v2/users/${encodeURIComponent(userId)}`, {
    headers,
    data: { user: { id: userId, primaryParty: party }, updateMask: { paths: ['primary_party'] } },
  });
  expect(updated.status(), await updated.text()).toBe(200);
  return party;
}

export async function openUser(page: Page, userId: string, identityProviderId: string) {
  await page.goto(
    `/users/${encodeURIComponent(userId)}?idp=${encodeURIComponent(identityProviderId)}`,
  );
  await expect(page.getByRole('heading', { name: userId, level: 1 })).toBeVisible();
}

/** Opens one of the user page's tabs ("Access check", "Offboard"…); the URL names it. */
export async function openUserTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
}

/** Runs "Check access" on the user page's Access check tab; the verdict list. */
export async function checkAccess(page: Page): Promise<Locator> {
  await openUserTab(page, 'Access check');
  await page
    .getByRole('region', { name: 'Check access' })
    .getByRole('button', { name: 'Check access' })
    .click();
  const list = page.getByRole('list', { name: 'Access check' });
  await expect(list).toBeVisible();
  return list;
}

/** The verdict called `title`, after asserting its status label. */
export async function expectVerdict(
  list: Locator,
  title: string,
  status: 'OK' | 'Warning' | 'Problem' | 'Unknown',
): Promise<Locator> {
  const item = list.getByRole('listitem', { name: title, exact: true });
  await expect(item.getByText(status, { exact: true })).toBeVisible();
  return item;
}

export function offboardStep(page: Page, name: string): Locator {
  return page.getByRole('region', { name: 'Offboard' }).getByRole('region', { name });
}

/** Clicks a step's button, then the confirm dialog's `confirmLabel`. */
export async function runOffboardStep(
  page: Page,
  step: string,
  button: string | RegExp,
  confirmLabel: string | RegExp,
): Promise<void> {
  // Exact: each step's "Copy deactivate as…" menu also contains its button's word.
  await offboardStep(page, step).getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: confirmLabel }).click();
  await expect(dialog).toBeHidden();
}

export async function assertNotOnboarded(page: Page, subject: string): Promise<void> {
  await expect(
    page.getByRole('alert').filter({ hasText: 'Not onboarded on this participant' }),
  ).toContainText(`Signed in as ${subject} at http://127.0.0.1:`);
}
