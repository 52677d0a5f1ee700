import { FLEET_BASE_URL } from '../playwright.config';
import { expect, test } from './fixtures';

// The SPA of a fleet (`npm start -- --participants 2`, ADR 022): the participant switcher in the
// header moves to the same page on another participant, whose data then shows; the fleet overview
// shows every participant.

test.use({ baseURL: FLEET_BASE_URL });

test('switching participant from the header opens the same page on the other, with its data', async ({
  page,
}) => {
  await page.goto('/packages');
  const switcher = page.getByRole('button', { name: /\(participant; switch participant\)$/ });
  await expect(switcher).toHaveText('participant1');
  await expect(page.getByRole('group', { name: 'Participant status' })).toContainText(
    'participant1::',
  );

  await switcher.click();
  const participants = page.getByRole('navigation', { name: 'Participants' });
  await expect(participants.getByRole('link', { name: 'participant1 (default)' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  // Keyboard: Tab reaches the links of the open list, Enter follows one.
  await participants.getByRole('link', { name: 'participant2' }).focus();
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(`${FLEET_BASE_URL}/p/participant2/packages`);
  await expect(page.getByRole('heading', { level: 1, name: 'Packages' })).toBeVisible();
  await expect(
    page.getByRole('button', { name: /\(participant; switch participant\)$/ }),
  ).toHaveText('participant2');
  // participant2's own data: its participant id, asked through its prefix.
  await expect(page.getByRole('group', { name: 'Participant status' })).toContainText(
    'participant2::',
  );
  await expect(page.getByRole('group', { name: 'Participant status' })).not.toContainText(
    'participant1::',
  );

  // And back: the default participant's pages under its own prefix.
  await page.getByRole('button', { name: /\(participant; switch participant\)$/ }).click();
  await page
    .getByRole('navigation', { name: 'Participants' })
    .getByRole('link', { name: 'participant1 (default)' })
    .click();
  await expect(page).toHaveURL(`${FLEET_BASE_URL}/p/participant1/packages`);
  await expect(page.getByRole('group', { name: 'Participant status' })).toContainText(
    'participant1::',
  );
});

test('the fleet overview shows both participants, opened from the switcher', async ({ page }) => {
  await page.goto('/p/participant2/');
  await page.getByRole('button', { name: /\(participant; switch participant\)$/ }).click();
  await page
    .getByRole('navigation', { name: 'Participants' })
    .getByRole('link', { name: 'Fleet overview' })
    .click();
  await expect(page).toHaveURL(`${FLEET_BASE_URL}/p/participant2/fleet`);
  await expect(page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();

  for (const name of ['participant1', 'participant2']) {
    const card = page.getByRole('region', { name });
    await expect(card.getByRole('group', { name: 'Participant id' })).toContainText(`${name}::`);
    await expect(card.getByLabel('Health: Live · Ready')).toBeVisible();
    await expect(card.getByRole('group', { name: 'Ledger end' })).toContainText(/\d/);
  }
  await expect(page.getByRole('region', { name: 'participant2' })).toContainText('this page');
  await expect(
    page.getByRole('region', { name: 'Parties hosted on more than one participant' }),
  ).toBeVisible();
});
