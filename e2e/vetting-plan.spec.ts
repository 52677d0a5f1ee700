import { expect, test } from './fixtures';
import { fixtureDar } from '@ledger-console/participant/testing/fixture-dars';
import { seedApi, uniqueId } from './helpers/api';
import { chooseDarFile, goToPackages, goToUploadDar, seedDar } from './helpers/packages';

const V1 = fixtureDar('upgradeV1').main;

test('plan an unvet of the demo package, apply it, then undo it', async ({ page, request }) => {
  // Some Ious of the demo package, so the verdict has active contracts to flag.
  const { owner } = await seedApi(request).iouSplit();

  await goToPackages(page);
  await page.getByRole('link', { name: 'sandbox-demo', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: /^sandbox-demo /, level: 1 })).toBeVisible();
  await page
    .getByRole('link', { name: /^Plan a change… on / })
    .first()
    .click();

  await expect(
    page.getByRole('heading', { name: 'Plan a vetting change', level: 1 }),
  ).toBeVisible();
  // The owner named as a party to check: on the shared e2e ledger the stakeholders of the
  // package's contracts are many, and the planner checks only the first of them.
  await page.goto(`${page.url()}&party=${encodeURIComponent(owner)}`);
  await expect(page.getByText(/^The participant accepts this plan/)).toBeVisible();
  const verdict = page.getByRole('article', { name: /^Verdict for sandbox-demo/ });
  await expect(verdict.getByRole('heading', { name: /^Unvet sandbox-demo/ })).toBeVisible();
  await expect(verdict.getByText(/active contracts? use its templates/)).toBeVisible();
  await expect(verdict.getByRole('link', { name: /Iou$/ })).toBeVisible();
  // The Iou's owner hosts such contracts: its preferred package is checked before and after.
  const preferences = page.getByRole('table', { name: /Which version preferred-packages selects/ });
  await expect(
    preferences
      .getByRole('row')
      .filter({ hasText: owner.slice(0, 6) })
      .first(),
  ).toContainText('No package: its commands fail');

  await page.getByRole('button', { name: 'Apply vetting change' }).click();
  await expect(page.getByText(/^Vetting changed on/)).toBeVisible();

  await page.getByRole('link', { name: 'Plan the undo' }).click();
  await expect(page.getByRole('heading', { name: /^Vet sandbox-demo/ })).toBeVisible();
  await expect(page.getByText(/^The participant accepts this plan/)).toBeVisible();
  await page.getByRole('button', { name: 'Apply vetting change' }).click();
  await expect(page.getByText(/^Vetting changed on/)).toBeVisible();

  // Back on the package's page, it is vetted again.
  await page
    .getByRole('link', { name: /^sandbox-demo/ })
    .first()
    .click();
  await expect(
    page.getByRole('table', { name: 'Vetting per synchronizer' }).getByRole('row').nth(1),
  ).toContainText('Vetted');
});

test('uploading a new version shows which parties would move to it', async ({ page, request }) => {
  await seedDar(request, 'upgradeV1');
  const party = await seedApi(request).allocateParty(uniqueId('upgrader'));
  await goToUploadDar(page);
  await chooseDarFile(page, 'upgradeV2');

  const readiness = page.getByRole('region', { name: 'Upgrade readiness' });
  await expect(readiness).toContainText(
    `${V1.name} ${V1.version} → ${fixtureDar('upgradeV2').main.version}`,
  );
  await readiness.getByRole('combobox', { name: 'Parties to check' }).fill(party);
  await readiness.getByRole('combobox', { name: 'Parties to check' }).press('Enter');
  await expect(readiness.getByRole('row').nth(1)).toContainText(
    `Moves to ${fixtureDar('upgradeV2').main.version}`,
  );
});
