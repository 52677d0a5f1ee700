import { expect, test } from './fixtures';
import {
  assertApiVersion,
  assertHealth,
  assertNoAccessibilityViolations,
  assertParticipantId,
  fetchParticipantId,
  goToOverview,
  selectColorScheme,
} from './helpers/overview';

test('opening the console shows the participant, its API version and that it is healthy', async ({
  page,
  request,
}) => {
  const participantId = await fetchParticipantId(request);

  await goToOverview(page);

  await assertApiVersion(page, '3.5.7');
  await assertParticipantId(page, participantId);
  await assertHealth(page, { liveness: 'Live', readiness: 'Ready' });
});

test('the overview has no detectable accessibility violations, light or dark', async ({ page }) => {
  await goToOverview(page);
  await assertHealth(page, { liveness: 'Live', readiness: 'Ready' });

  await selectColorScheme(page, 'Light');
  await assertNoAccessibilityViolations(page);

  await selectColorScheme(page, 'Dark');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await assertNoAccessibilityViolations(page);
});

test('a deep link to a page that does not exist says so', async ({ page }) => {
  // The server answers unknown page paths with the SPA, which then routes on the client.
  await page.goto('/no-such-area/alice.smith');

  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the participant overview' }).click();
  await assertApiVersion(page, '3.5.7');
});
