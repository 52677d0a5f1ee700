import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';
import { seedApi } from './api';

export async function goToOverview(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Participant overview' })).toBeVisible();
}

/** The participant id as the API reports it, so tests never hard-code the sandbox's identity. */
export async function fetchParticipantId(request: APIRequestContext): Promise<string> {
  const { participantId } = await seedApi(request).client.request<{ participantId: string }>(
    'GET',
    '/v2/parties/participant-id',
  );
  return participantId;
}

export async function assertApiVersion(page: Page, version: string): Promise<void> {
  await expect(
    page.getByRole('group', { name: 'API version' }).getByText(version, { exact: true }),
  ).toBeVisible();
}

export async function assertParticipantId(page: Page, participantId: string): Promise<void> {
  const property = page.getByRole('group', { name: 'Participant id' });
  await expect(property.getByText(participantId, { exact: true })).toBeVisible();
  await expect(property.getByRole('button', { name: 'Copy participant id' })).toBeVisible();
}

export async function assertHealth(
  page: Page,
  expected: { liveness: string; readiness: string },
): Promise<void> {
  const health = page.getByRole('region', { name: 'Health' });
  await expect(
    health.getByRole('group', { name: 'Liveness' }).getByText(expected.liveness, { exact: true }),
  ).toBeVisible();
  await expect(
    health.getByRole('group', { name: 'Readiness' }).getByText(expected.readiness, { exact: true }),
  ).toBeVisible();
}

export async function selectColorScheme(page: Page, scheme: 'Light' | 'Dark' | 'System') {
  await page.getByRole('button', { name: /^Colour scheme: / }).click();
  await page.getByRole('menuitem', { name: scheme }).click();
  await expect(page.getByRole('button', { name: `Colour scheme: ${scheme}` })).toBeVisible();
  await expect(page.getByRole('menu')).toBeHidden();
}

/** WCAG 2.2 A/AA violations axe can detect on the current page. */
export async function assertNoAccessibilityViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    results.violations.map(({ id, help, nodes }) => ({
      id,
      help,
      targets: nodes.map((node) => node.target.join(' ')),
    })),
  ).toEqual([]);
}
