import type { Locator, Page } from '@playwright/test';
import { expect } from '../fixtures';

export const IOU_TEMPLATE = '#sandbox-demo:Demo.Iou:Iou';

export async function goToComposer(page: Page): Promise<void> {
  await page.goto('/composer');
  await expect(page.getByRole('heading', { level: 1, name: 'Command composer' })).toBeVisible();
  await expect(page.getByRole('form', { name: 'Compose commands' })).toBeVisible();
}

/**
 * The newest submission: a follow-up ("Exercise a choice on it") opens one below the others, and
 * the helpers work on it, as the user does.
 */
export function newestSubmission(page: Page): Locator {
  return page.getByRole('region', { name: /^Submission \d+$/ }).last();
}

/** A submission by its number ("Submission 2"). */
export function submission(page: Page, number: number): Locator {
  return page.getByRole('region', { name: `Submission ${String(number)}`, exact: true });
}

function command(page: Page, number = 1): Locator {
  return newestSubmission(page).getByRole('region', { name: `Command ${String(number)}` });
}

export async function fillTemplateId(page: Page, templateId: string): Promise<void> {
  await command(page)
    .getByRole('combobox', { name: /^Template id/ })
    .fill(templateId);
  await page.keyboard.press('Escape');
}

/** A field of the form generated from the template's or choice's argument type. */
export async function fillArgumentField(page: Page, field: string, value: string): Promise<void> {
  const input = command(page)
    .getByRole('textbox', { name: new RegExp(`^${field}`) })
    .or(command(page).getByRole('combobox', { name: new RegExp(`^${field}`) }));
  await input.fill(value);
  await page.keyboard.press('Escape');
}

/** An Iou create in the form generated from the decoded template (a new composer page). */
export async function fillIouCreate(
  page: Page,
  iou: { issuer: string; owner: string; currency: string; amount: string },
): Promise<void> {
  await fillTemplateId(page, IOU_TEMPLATE);
  await fillArgumentField(page, 'issuer', iou.issuer);
  await fillArgumentField(page, 'owner', iou.owner);
  await fillArgumentField(page, 'currency', iou.currency);
  await fillArgumentField(page, 'amount', iou.amount);
}

/** The JSON view; an undecoded template has no form, so the JSON editor is all there is. */
export async function fillArgumentsJson(page: Page, json: unknown): Promise<void> {
  const jsonView = command(page).getByRole('radio', { name: 'JSON' });
  if ((await jsonView.count()) > 0) await jsonView.first().check({ force: true });
  await command(page)
    .getByRole('textbox', { name: 'Template arguments JSON' })
    .fill(JSON.stringify(json));
}

export async function fillChoice(page: Page, choice: string): Promise<void> {
  await command(page)
    .getByRole('combobox', { name: /^Choice/ })
    .fill(choice);
  await page.keyboard.press('Escape');
}

/** The sandbox runs without auth here, so a user id is required (§4.2). */
export async function fillSubmitter(page: Page, party: string, userId = 'participant_admin') {
  const actAs = newestSubmission(page).getByRole('combobox', { name: /^Act as/ });
  await actAs.fill(party);
  await actAs.press('Enter');
  await newestSubmission(page)
    .getByRole('textbox', { name: /^User id/ })
    .fill(userId);
}

export async function submit(page: Page): Promise<void> {
  await newestSubmission(page).getByRole('button', { name: 'Submit', exact: true }).click();
}

/** The newest submission's result. */
export function result(page: Page): Locator {
  return newestSubmission(page).getByRole('region', { name: 'Result' });
}

/** Starts an Exercise command on the first contract the last submission created. */
export async function exerciseOnCreated(page: Page): Promise<void> {
  await result(page)
    .getByRole('button', { name: /^Exercise a choice on it \(Iou / })
    .first()
    .click();
}

export function outlineItems(page: Page): Locator {
  return result(page).getByRole('tree', { name: 'Transaction outline' }).getByRole('treeitem');
}

export function graphNodes(page: Page): Locator {
  return result(page).locator('.react-flow__node');
}

export function templateField(page: Page): Locator {
  return command(page).getByRole('combobox', { name: /^Template id/ });
}

function resultGraph(page: Page): Locator {
  return result(page).getByRole('region', { name: 'Transaction graph' });
}

/** A node of the result's graph, by its accessible name ("Create Iou, node 1"). */
export function resultGraphNode(page: Page, nodeId: number): Locator {
  return resultGraph(page).getByRole('article', { name: new RegExp(`, node ${String(nodeId)}$`) });
}

export async function toggleResultNode(page: Page, nodeId: number, action: 'Collapse' | 'Expand') {
  await resultGraph(page)
    .getByRole('button', { name: new RegExp(`^${action} node ${String(nodeId)}\\b`) })
    .click();
}

/** The heading of the selected node's details, beside the result's graph. */
export function resultDetailsHeading(page: Page): Locator {
  return result(page).getByRole('heading', { level: 3 });
}

/** Opens the selected node's "Link to this node" in a new page of the same browser context. */
export async function followResultNodeLinkInNewPage(page: Page): Promise<Page> {
  const href = await result(page)
    .getByRole('link', { name: 'Link to this node' })
    .getAttribute('href');
  expect(href).toMatch(/^\/transactions\?update=1220[0-9a-f]{64}&node=\d+$/);
  const next = await page.context().newPage();
  await next.goto(href ?? '');
  return next;
}
