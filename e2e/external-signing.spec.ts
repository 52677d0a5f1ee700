import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  fillIouCreate,
  fillSubmitter,
  goToComposer,
  newestSubmission,
  outlineItems,
} from './helpers/composer';
import { assertNoAccessibilityViolations } from './helpers/overview';
import { TWO_SYNCHRONIZERS_BASE_URL } from '../playwright.config';

// A console whose sandbox is connected to two synchronizers (`--synchronizers local,global`).
test.use({ baseURL: TWO_SYNCHRONIZERS_BASE_URL });

test('an external party made with a browser key previews, signs, executes and moves its contract', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const answer = await request.get('/v2/state/connected-synchronizers');
  const { connectedSynchronizers } = (await answer.json()) as {
    connectedSynchronizers: { synchronizerAlias: string; synchronizerId: string }[];
  };
  const idOf = (alias: string) =>
    connectedSynchronizers.find((s) => s.synchronizerAlias === alias)?.synchronizerId ?? '';
  // The owner is a local party hosted on both synchronizers: it can move the contract later.
  const ownerHint = uniqueId('owner');
  const owner = await seedApi(request).allocateParty(ownerHint, { synchronizerId: idOf('local') });
  await seedApi(request).allocateParty(ownerHint, { synchronizerId: idOf('global') });

  // 1. Allocate an external party on `local` with a key made in this browser.
  const hint = uniqueId('wallet');
  await page.goto('/parties/new-external');
  const allocate = page.getByRole('form', { name: 'Allocate external party' });
  await allocate.getByRole('textbox', { name: /^Party id hint/ }).fill(hint);
  await allocate.getByRole('combobox', { name: /^Synchronizer/ }).click();
  await page.getByRole('option', { name: /^local/ }).click();
  await allocate.getByRole('radio', { name: 'Generate a key in this browser' }).check();
  await assertNoAccessibilityViolations(page);
  await allocate.getByRole('button', { name: 'Generate topology' }).click();

  const sign = page.getByRole('form', { name: 'Sign and allocate external party' });
  await expect(page.getByRole('group', { name: 'Multi-hash check' })).toContainText('Matches');
  await assertNoAccessibilityViolations(page);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Download private key/ }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pem$/);
  const keyFile = await download.path();
  await sign.getByRole('button', { name: 'Sign and allocate' }).click();

  await expect(page).toHaveURL(new RegExp(`/parties/${hint}`));
  const party = decodeURIComponent(/\/parties\/([^/?]+)/.exec(page.url())?.[1] ?? '');
  expect(party).toMatch(new RegExp(`^${hint}::1220[0-9a-f]{64}$`));
  await expect(page.getByText('External', { exact: true }).first()).toBeVisible();

  // 2. Host it on `global` too, with the downloaded key file.
  await page.getByRole('link', { name: /Host on another synchronizer/ }).click();
  const again = page.getByRole('form', { name: 'Allocate external party' });
  await expect(again.getByRole('textbox', { name: /^Party id hint/ })).toHaveValue(hint);
  await again.getByRole('button', { name: 'Private key file', exact: true }).setInputFiles(keyFile);
  await again.getByRole('button', { name: 'Generate topology' }).click();
  await page
    .getByRole('form', { name: 'Sign and allocate external party' })
    .getByRole('button', { name: 'Sign and allocate' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/parties/${encodeURIComponent(party)}`));

  // 3. Preview a create as the external party, sign it with the key file, execute.
  await goToComposer(page);
  await fillIouCreate(page, { issuer: party, owner, currency: 'CHF', amount: '12.5' });
  await fillSubmitter(page, party);
  await newestSubmission(page).getByRole('button', { name: 'Preview', exact: true }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText('Matching: recomputed in this browser')).toBeVisible();
  await expect(outlineItems(page).or(preview.getByRole('treeitem')).first()).toBeVisible();
  await assertNoAccessibilityViolations(page);
  await preview.getByLabel(/^Private key file of/).setInputFiles(keyFile);
  await preview.getByRole('button', { name: 'Sign and execute' }).click();
  await expect(page.getByText('The committed transaction is what was previewed')).toBeVisible();
  await expect(page.getByText(/external transaction hash equals the prepared hash/)).toBeVisible();

  // 4. Move the new contract to the other synchronizer, submitted by its local owner. Both
  // synchronizers host every stakeholder, so routing chose `global` (the smaller id, as Canton).
  await page.goto(`/contracts?party=${encodeURIComponent(party)}`);
  const table = page.getByRole('table', { name: 'Active contracts' });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('global');
  await table.getByRole('row').nth(1).locator('a[href^="/contracts/"]').first().click();
  await page.getByRole('button', { name: 'Move to synchronizer…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Move to synchronizer' });
  await dialog.getByRole('combobox', { name: /^Target synchronizer/ }).click();
  await page.getByRole('option', { name: /^local/ }).click();
  await dialog.getByRole('combobox', { name: /^Submitter/ }).click();
  await page.getByRole('option', { name: new RegExp(`^${ownerHint}`) }).click();
  await assertNoAccessibilityViolations(page);
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /Moved to local/ })).toBeVisible();
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the new screens have no detectable accessibility violations', async ({ page, request }) => {
    test.setTimeout(120_000);
    const answer = await request.get('/v2/state/connected-synchronizers');
    const { connectedSynchronizers } = (await answer.json()) as {
      connectedSynchronizers: { synchronizerAlias: string; synchronizerId: string }[];
    };
    const [first, second] = connectedSynchronizers;
    const ownerHint = uniqueId('owner');
    const owner = await seedApi(request).allocateParty(ownerHint, {
      synchronizerId: first?.synchronizerId ?? '',
    });
    await seedApi(request).allocateParty(ownerHint, {
      synchronizerId: second?.synchronizerId ?? '',
    });

    // Allocate external party: both steps.
    await page.goto('/parties/new-external');
    const allocate = page.getByRole('form', { name: 'Allocate external party' });
    await allocate.getByRole('textbox', { name: /^Party id hint/ }).fill(uniqueId('phone'));
    await allocate.getByRole('combobox', { name: /^Synchronizer/ }).click();
    await page.getByRole('option', { name: /^local/ }).click();
    await allocate.getByRole('radio', { name: 'Generate a key in this browser' }).check();
    await assertNoAccessibilityViolations(page);
    await allocate.getByRole('button', { name: 'Generate topology' }).click();
    await expect(page.getByRole('group', { name: 'Multi-hash check' })).toContainText('Matches');
    await assertNoAccessibilityViolations(page);

    // The composer's preview of a local party's create.
    await goToComposer(page);
    await fillIouCreate(page, { issuer: owner, owner, currency: 'EUR', amount: '3' });
    await fillSubmitter(page, owner);
    await newestSubmission(page).getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview.getByText('Matching: recomputed in this browser')).toBeVisible();
    await assertNoAccessibilityViolations(page);
    await preview.getByRole('button', { name: 'Commit', exact: true }).click();
    await expect(page.getByText('The committed transaction is what was previewed')).toBeVisible();

    // The contract page's location and its move dialog.
    await page.goto(`/contracts?party=${encodeURIComponent(owner)}`);
    await page.locator('a[href^="/contracts/"]').first().click();
    await page.getByRole('button', { name: 'Move to synchronizer…' }).click();
    await expect(page.getByRole('dialog', { name: 'Move to synchronizer' })).toBeVisible();
    await assertNoAccessibilityViolations(page);
  });
});
