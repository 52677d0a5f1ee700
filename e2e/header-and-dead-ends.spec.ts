import type { Locator, Page } from '@playwright/test';
import { createIou } from '../sandbox/src/scenarios/demo-commands';
import { expect, test } from './fixtures';
import { mintToken, seedApi, uniqueId } from './helpers/api';
import { goToComposer, IOU_TEMPLATE } from './helpers/composer';
import { JWT_CONSOLE_URL } from './helpers/jwt';
import { DEFAULT_PROVIDER, OIDC_CONSOLE_URL, signInThroughProvider } from './helpers/oidc';
import { signInAsSandboxUser } from './helpers/session';

// Issue 26, items 2, 5, 8 (the header's buttons) and 9: who is signed in, the way back, and the
// dead ends a participant admin and a plain user met.

/** Whether `element` and every text inside it shows all its content (nothing cut off). */
async function isNotClipped(element: Locator): Promise<boolean> {
  return element.evaluate((root) =>
    [root, ...Array.from(root.querySelectorAll('*'))].every(
      (node) => node.scrollWidth <= node.clientWidth || node.clientWidth === 0,
    ),
  );
}

// Whole journeys through three consoles on a shared 2-core machine.
test.describe.configure({ timeout: 120_000 });

const identityButton = (page: Page) => page.getByRole('button', { name: /^Signed in: / });

test.describe('signed in through the OpenID provider', () => {
  test.use({
    baseURL: OIDC_CONSOLE_URL,
    allowedConsoleErrors: [/ERR_CONNECTION_REFUSED \(http:\/\/127\.0\.0\.1:4199\//],
  });

  test('the header shows the person’s name, whole, with the user id and token in its menu; the nav offers Switch user', async ({
    page,
  }) => {
    await page.goto('/sign-in');
    await signInThroughProvider(page, DEFAULT_PROVIDER, 'alice.anderson');

    const button = identityButton(page);
    // The ID token's name, not the user id; the user id is in the name for assistive technology.
    await expect(button).toContainText('Alice Anderson');
    await expect(button).toHaveAccessibleName(/^Signed in: Alice Anderson, User/);
    await expect(button).toHaveAccessibleName(/user alice\.anderson/);
    expect(await isNotClipped(button)).toBe(true);

    await button.click();
    const identity = page.getByRole('group', { name: 'Signed-in identity' });
    await expect(identity).toContainText('User id: alice.anderson');
    await expect(identity).toContainText(/Issuer: http:\/\/127\.0\.0\.1:/);
    await expect(identity).toContainText(/Token: expires in/);
    await page.keyboard.press('Escape');

    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Switch user' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Sign in', exact: true })).toHaveCount(0);
  });

  test('on a phone the name still shows whole', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/sign-in');
    await signInThroughProvider(page, DEFAULT_PROVIDER, 'alice.anderson');
    const button = identityButton(page);
    await expect(button).toContainText('Alice Anderson');
    expect(await isNotClipped(button)).toBe(true);
    // It fits the phone's width: the header does not overflow, the button ends inside the screen.
    const header = page.locator('header');
    expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
      true,
    );
    const box = await button.boundingBox();
    expect((box?.x ?? Infinity) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
  });
});

test.describe('the default console', () => {
  test('the header’s Search and identity buttons are named by the text they show', async ({
    page,
  }) => {
    await page.goto('/');
    const search = page.getByRole('button', { name: /^Search / });
    await expect(search).toBeVisible();
    const searchText = (await search.innerText()).replace(/\s+/g, ' ').trim();
    await expect(search).toHaveAccessibleName(`Search ${searchText.replace(/^Search ?/, '')}`);
    const identity = identityButton(page);
    await expect(identity).toBeVisible();
    const shown = (await identity.innerText()).split('\n').map((line) => line.trim());
    const name = await identity.getAttribute('aria-label');
    expect(name).toContain(shown.filter(Boolean).join(', '));
  });

  test('a contract opened from Live says “Back to Live”, and goes back there', async ({
    page,
    request,
  }) => {
    const { iouId } = await seedApi(request).iouSplit();
    await page.goto('/live');
    await expect(page.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible();

    // From Live, through the search box, to the contract.
    await page.getByRole('button', { name: /^Search / }).click();
    await page.getByRole('combobox', { name: 'Id, page or action' }).fill(iouId);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/contracts/${encodeURIComponent(iouId)}`);

    const back = page.getByRole('link', { name: 'Back to Live' });
    await expect(back).toBeVisible();
    await back.click();
    await expect(page).toHaveURL('/live');
  });
});

test.describe('signed in with a token', () => {
  test.use({ baseURL: JWT_CONSOLE_URL });

  test('a participant admin who reads no party grants itself Read as in place, and the contracts load', async ({
    page,
    request,
  }) => {
    const admin = await mintToken(request, 'participant_admin');
    const clerk = uniqueId('clerk');
    const newAdmin = uniqueId('admin');
    await seedApi(request, admin).createUser(clerk, {
      rights: [{ kind: 'ParticipantAdmin' }, { kind: 'CanActAsAnyParty' }],
    });
    // A participant admin with no read right: the admin of a fresh participant.
    await seedApi(request, admin).createUser(newAdmin, { rights: [{ kind: 'ParticipantAdmin' }] });
    const steps = seedApi(request, await mintToken(request, clerk));
    const [issuer, owner] = await Promise.all([
      steps.allocateFreshParty('bank'),
      steps.allocateFreshParty('owner'),
    ]);
    await steps.submit(
      [
        createIou({ issuer, owner, currency: 'USD', amount: '100.0' }),
        createIou({ issuer, owner, currency: 'EUR', amount: '5.0' }),
      ],
      { actAs: [issuer], userId: clerk },
    );

    await signInAsSandboxUser(page, newAdmin);
    await page.goto('/contracts');
    const state = page.getByRole('region', { name: 'You may not read any contracts' });
    await expect(state).toContainText('You, as a participant admin, can grant it.');
    await state.getByRole('combobox', { name: 'Party to read as' }).fill(owner);
    await page.keyboard.press('Escape');
    await state.getByRole('button', { name: 'Grant Read as…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Grant yourself Read as?' });
    await expect(dialog).toContainText(`Your user ${newAdmin} gets the right Read as ${owner}`);
    await expect(dialog).toContainText('it grants no right to act');
    await dialog.getByRole('button', { name: 'Grant Read as' }).click();

    await expect(state).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Active contracts' })).toBeVisible();
    await expect(
      page.getByRole('status').filter({ hasText: /^2 contracts active at offset \d+/ }),
    ).toBeVisible();
  });

  test('a plain user’s composer offers the parties it may act and read as, on every party field, without an error', async ({
    page,
    request,
  }) => {
    const admin = await mintToken(request, 'participant_admin');
    const steps = seedApi(request, admin);
    const [mine, readable] = await Promise.all([
      steps.allocateFreshParty('mine'),
      steps.allocateFreshParty('readable'),
    ]);
    const trader = uniqueId('trader');
    await steps.createUser(trader, {
      rights: [
        { kind: 'CanActAs', party: mine },
        { kind: 'CanReadAs', party: readable },
      ],
    });

    await signInAsSandboxUser(page, trader);
    await goToComposer(page);
    await page.getByRole('combobox', { name: /^Template id/ }).fill(IOU_TEMPLATE);
    await page.keyboard.press('Escape');
    const command = page.getByRole('region', { name: 'Command 1' });
    for (const field of ['issuer', 'owner']) {
      const input = command.getByRole('combobox', { name: new RegExp(`^${field}`) });
      await expect(input).toHaveAccessibleDescription(/parties your user may act or read as/);
    }
    await expect(page.getByText(/could not be loaded/)).toHaveCount(0);
    await command.getByRole('combobox', { name: /^owner/ }).click();
    await expect(page.getByRole('option')).toHaveText([
      new RegExp(mine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      new RegExp(readable.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    ]);
  });
});
