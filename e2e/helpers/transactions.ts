import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

export async function goToTransactions(page: Page, query = ''): Promise<void> {
  await page.goto(`/transactions${query}`);
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
}

export async function openUpdateById(page: Page, updateId: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Open an update' });
  await form.getByRole('textbox', { name: 'Update id or offset' }).fill(updateId);
  await form.getByRole('button', { name: 'Open' }).click();
}

export const graph = (page: Page) => page.getByRole('region', { name: 'Transaction graph' });
export const outline = (page: Page) => page.getByRole('tree', { name: 'Transaction outline' });

/** The graph's nodes, by their accessible names ("Create Iou, node 1"). */
export const graphNodes = (page: Page) => graph(page).locator('.react-flow__node');

export const graphNode = (page: Page, nodeId: number) =>
  graph(page).getByRole('article', { name: new RegExp(`, node ${String(nodeId)}$`) });

export async function assertGraphNodes(page: Page, names: string[]): Promise<void> {
  await expect(graphNodes(page)).toHaveCount(names.length);
  for (const name of names) {
    await expect(graph(page).getByRole('article', { name })).toBeVisible();
  }
}

export async function toggleGraphNode(page: Page, nodeId: number, action: 'Collapse' | 'Expand') {
  await graph(page)
    .getByRole('button', { name: new RegExp(`^${action} node ${String(nodeId)}\\b`) })
    .click();
}

export const detailsHeading = (page: Page) => page.getByRole('heading', { level: 3 });

export async function followNodeLinkInNewPage(page: Page): Promise<Page> {
  const href = await page.getByRole('link', { name: 'Link to this node' }).getAttribute('href');
  expect(href).toBeTruthy();
  const next = await page.context().newPage();
  await next.goto(href ?? '');
  return next;
}
