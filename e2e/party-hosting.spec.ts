import { expect, test } from './fixtures';
import { uniqueId } from './helpers/api';
import { assertNoAccessibilityViolations } from './helpers/overview';

/** Another participant that confirms for the party (it approves the hosting on its side). */
const OTHER = `p2::1220${'b'.repeat(64)}`;

test('an external party hosted on two participants: where it is hosted, its timeline, and Live in words', async ({
  page,
  context,
}) => {
  // A stream, an allocation with a browser key, the party page and an update page.
  test.setTimeout(150_000);
  const hint = uniqueId('hosted');

  // Live, filtered to the party to come, watches the allocation arrive.
  const live = await context.newPage();
  await live.goto(`/live?party=${hint}`);
  await expect(live.getByRole('status').filter({ hasText: /^Live$/ })).toBeVisible({
    timeout: 30_000,
  });

  // Allocate it on this participant and on another, both confirming, threshold 2.
  await page.goto('/parties/new-external');
  const allocate = page.getByRole('form', { name: 'Allocate external party' });
  await allocate.getByRole('textbox', { name: /^Party id hint/ }).fill(hint);
  await allocate.getByRole('textbox', { name: /^Other confirming participants/ }).fill(OTHER);
  await allocate.getByRole('textbox', { name: /^Confirmation threshold/ }).fill('2');
  await allocate.getByRole('radio', { name: 'Generate a key in this browser' }).check();
  await allocate.getByRole('button', { name: 'Generate topology' }).click();
  const sign = page.getByRole('form', { name: 'Sign and allocate external party' });
  await expect(page.getByRole('group', { name: 'Multi-hash check' })).toContainText('Matches');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: /^Download private key/ }).click();
  await downloading;
  await sign.getByRole('button', { name: 'Sign and allocate' }).click();
  await expect(page).toHaveURL(new RegExp(`/parties/${hint}`), { timeout: 30_000 });

  // Its page says where it is hosted, this participant marked, and why the threshold is unknown.
  const hosting = page.getByRole('region', { name: 'Hosting' });
  const participants = hosting.getByRole('table', { name: 'Hosting participants' });
  await expect(participants.getByRole('row')).toHaveCount(3, { timeout: 30_000 });
  const [here, other] = [
    participants.getByRole('row').nth(1),
    participants.getByRole('row').nth(2),
  ];
  await expect(here).toContainText('This participant');
  await expect(here).toContainText('confirmation');
  await expect(other).toContainText('p2');
  await expect(other).toContainText('confirmation');
  await expect(other).not.toContainText('This participant');
  await expect(hosting.getByRole('list', { name: 'Confirmation thresholds' })).toContainText(
    'not reported by the Ledger API (2 participants confirm',
  );
  // The timeline: one change, in words, linking to its topology transaction.
  const timeline = hosting.getByRole('table', { name: 'Hosting timeline' });
  const change = timeline.getByRole('row').nth(1);
  await expect(change).toContainText(
    'Now hosted on participant sandbox (this participant) with confirmation permission; Now hosted on participant p2 with confirmation permission',
  );
  await assertNoAccessibilityViolations(page);

  // Live got it as it happened, in the same words.
  const row = live
    .getByRole('table', { name: 'Live updates' })
    .getByRole('row')
    .filter({
      hasText: `Party ${hint} now hosted on participant sandbox with confirmation permission`,
    });
  await expect(row).toContainText(
    `Party ${hint} now hosted on participant p2 with confirmation permission`,
  );

  // The update's page says the same.
  await change.getByRole('link', { name: /^Open the topology transaction at offset \d+$/ }).click();
  await expect(
    page.getByRole('heading', { name: /^Topology transaction at offset \d+$/ }),
  ).toBeVisible();
  const changes = page.getByRole('list', { name: 'Hosting changes' });
  await expect(changes).toContainText(
    `Party ${hint} now hosted on participant sandbox (this participant) with confirmation permission`,
  );
  await expect(changes).toContainText(
    `Party ${hint} now hosted on participant p2 with confirmation permission`,
  );
  await assertNoAccessibilityViolations(page);
});
