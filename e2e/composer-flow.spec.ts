import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { seedApi, uniqueId } from './helpers/api';
import {
  exerciseOnCreated,
  fillArgumentField,
  fillChoice,
  fillIouCreate,
  fillSubmitter,
  goToComposer,
  IOU_TEMPLATE,
  newestSubmission,
  result,
  submission,
  submit,
} from './helpers/composer';

/** Where an element is on the page, for "beside" and "below". */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not rendered');
  return found;
}

const SIZES = [
  { name: 'wide screen (1440×900)', viewport: { width: 1440, height: 900 }, isWide: true },
  { name: 'phone (390×844)', viewport: { width: 390, height: 844 }, isWide: false },
] as const;

for (const { name, viewport, isWide } of SIZES) {
  test.describe(`composer flow on a ${name}`, () => {
    test.use({ viewport });

    test('a create, then "Exercise a choice on it" opens a new command below while the first result stays', async ({
      page,
      request,
    }) => {
      const party = await seedApi(request).allocateParty(uniqueId('holder'));

      await goToComposer(page);
      await fillIouCreate(page, { issuer: party, owner: party, currency: 'USD', amount: '100' });
      await fillSubmitter(page, party);
      await submit(page);

      // The result is where the user is looking: beside the form, or scrolled to below it.
      const first = submission(page, 1);
      const firstResult = first.getByRole('region', { name: 'Result' });
      const resultHeading = firstResult.getByRole('heading', { name: 'Result' });
      await expect(resultHeading).toBeInViewport();
      await expect(resultHeading).toBeFocused();
      const form = first.getByRole('form', { name: 'Compose commands' });
      const [formBox, resultBox] = [await box(form), await box(firstResult)];
      if (isWide) {
        expect(resultBox.x, 'the result is beside the form').toBeGreaterThan(formBox.x + 100);
      } else {
        expect(resultBox.y, 'the result is below the form').toBeGreaterThan(formBox.y);
      }

      await exerciseOnCreated(page);
      const followUp = submission(page, 2);
      await expect(followUp.getByRole('heading', { name: 'Submission 2' })).toBeInViewport();
      // Below the first, which keeps its form and result as they were.
      expect((await box(followUp)).y).toBeGreaterThan((await box(first)).y);
      await expect(first.getByRole('combobox', { name: /^Template id/ })).toHaveValue(IOU_TEMPLATE);
      await expect(firstResult.getByRole('group', { name: 'Offset' })).toBeAttached();
      // The template id keeps the package-name form the user wrote.
      await expect(
        newestSubmission(page)
          .getByRole('region', { name: 'Command 1' })
          .getByRole('combobox', { name: /^Template id/ }),
      ).toHaveValue(IOU_TEMPLATE);

      await fillChoice(page, 'Iou_Split');
      await fillArgumentField(page, 'splitAmount', '30');
      await submit(page);
      await expect(
        result(page).getByRole('button', { name: /^Exercise a choice on it \(Iou / }),
      ).toHaveCount(2);
      // The first result still shows the contract it created.
      await expect(
        firstResult.getByRole('button', { name: /^Exercise a choice on it \(Iou / }),
      ).toHaveCount(1);
    });

    test('a command that lacks a party’s authority is fixed through its offered action', async ({
      page,
      request,
    }) => {
      const steps = seedApi(request);
      const owner = await steps.allocateParty(uniqueId('owner'));
      const issuer = await steps.allocateParty(uniqueId('issuer'));

      await goToComposer(page);
      // The issuer signs the Iou; acting as the owner alone lacks the issuer's authority.
      await fillIouCreate(page, { issuer, owner, currency: 'CHF', amount: '10' });
      await fillSubmitter(page, owner);
      await submit(page);

      const failure = newestSubmission(page).getByRole('alert', { name: 'Not submitted' });
      await expect(failure).toContainText('needs the authority of');
      // The server's error stays visible on Act as, also while its dropdown is open.
      const actAs = newestSubmission(page).getByRole('combobox', { name: /^Act as/ });
      await expect(actAs).toHaveAttribute('aria-invalid', 'true');
      await actAs.click();
      await expect(newestSubmission(page).getByText(/requires authorizers/)).toBeVisible();
      await page.keyboard.press('Escape');

      await failure.getByRole('button', { name: /^Add .* to Act as$/ }).click();
      await expect(failure).toHaveCount(0);
      await submit(page);
      await expect(result(page).getByRole('group', { name: 'Offset' })).toBeVisible();
    });
  });
}
