import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

export type OnboardingEntry = {
  /** Left as it is when undefined (prefilled from an access request). */
  subject?: string;
  displayName?: string;
  partyHint: string;
  /** A preset's label, e.g. "Acts as own party". */
  preset?: string;
};

export async function goToOnboarding(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Onboard a person' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Onboard a person' })).toBeVisible();
}

function form(page: Page): Locator {
  return page.getByRole('form', { name: 'Onboard a person' });
}

/** Fills the form; the party id it will get is shown live, before anything is sent. */
export async function fillOnboarding(page: Page, entry: OnboardingEntry): Promise<string> {
  if (entry.subject !== undefined) {
    await form(page)
      .getByRole('textbox', { name: /^Subject \(user id\)/ })
      .fill(entry.subject);
  }
  if (entry.displayName !== undefined) {
    await form(page)
      .getByRole('textbox', { name: /^Display name/ })
      .fill(entry.displayName);
  }
  await form(page)
    .getByRole('textbox', { name: /^Party hint/ })
    .fill(entry.partyHint);
  const predicted = form(page).getByText(
    new RegExp(`^${escapeRegExp(entry.partyHint)}::1220[0-9a-f]{64}$`),
  );
  await expect(predicted).toBeVisible();
  if (entry.preset !== undefined) {
    await form(page)
      .getByRole('radio', { name: new RegExp(`^${escapeRegExp(entry.preset)}`) })
      .check();
  }
  return (await predicted.textContent()) ?? '';
}

export async function reviewPlan(page: Page): Promise<Locator> {
  await form(page).getByRole('button', { name: 'Review the plan' }).click();
  const plan = page.getByRole('list', { name: 'Planned calls' });
  await expect(plan).toBeVisible();
  return plan;
}

/** Runs the reviewed plan to its hand-off; the message for the person. */
export async function runPlanToHandOff(page: Page, userId: string): Promise<string> {
  await page.getByRole('button', { name: 'Run the plan' }).click();
  await expect(page.getByText(`${userId} is onboarded`)).toBeVisible();
  const message = page.getByRole('textbox', { name: 'Message for the person' });
  await expect(message).toHaveValue(new RegExp(`User id: ${escapeRegExp(userId)}`));
  return message.inputValue();
}

/**
 * Runs the plan, or, when a retry of the journey finds the person onboarded already (nothing left
 * to do), goes straight to the hand-off; the message either way.
 */
export async function runOrShowHandOff(page: Page, userId: string): Promise<string> {
  const nothingToDo = page.getByText('Nothing to do: this person is onboarded as planned already.');
  const run = page.getByRole('button', { name: 'Run the plan' });
  await expect(run.or(nothingToDo)).toBeVisible();
  if (await nothingToDo.isVisible()) {
    await page.getByRole('button', { name: 'Show the hand-off' }).click();
    await expect(page.getByText(`${userId} is onboarded`)).toBeVisible();
    return page.getByRole('textbox', { name: 'Message for the person' }).inputValue();
  }
  return runPlanToHandOff(page, userId);
}

/** The signed-in console's access token, to call the API as that person. */
export async function consoleAccessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() =>
    window.sessionStorage.getItem('ledger-console.access-token'),
  );
  expect(token, 'the signed-in admin’s token in session storage').toBeTruthy();
  return token ?? '';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
