import { expect, test } from './fixtures';

/** The chunks a module imports statically, in the minified output: `import"./x.js"`, `from"./x.js"`. */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:\bimport|\bfrom)\s*["`](\.\/[^"`]+\.js)["`]/g)].map(
    (match) => match[1] ?? '',
  );
}

test('the app shell is one script: the page names one module and it imports no other chunk', async ({
  request,
  page,
}) => {
  const html = await (await request.get('/users')).text();
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
  expect(scripts).toHaveLength(1);
  // Nothing else to fetch before the shell runs: no preload links for other chunks.
  expect(html).not.toContain('modulepreload');
  const entry = await request.get(scripts[0] ?? '');
  expect(entry.ok()).toBe(true);
  const code = await entry.text();
  expect(staticImports(code)).toEqual([]);
  // Pages are still chunks of their own, loaded on demand (named by hash alone, ADR 031): the
  // users list's code is not in the shell, and the users page loads the chunk that has it.
  expect(code).toMatch(/import\(["`]\.\/\w+\.js["`]\)/);
  const listText = 'Id, party, IdP, status or annotation';
  expect(code).not.toContain(listText);
  const chunks: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') chunks.push(response.text());
  });
  await page.goto('/users');
  await expect(page.getByRole('textbox', { name: 'Filter users' })).toBeVisible();
  const loaded = await Promise.all(chunks);
  expect(loaded.filter((chunk) => chunk.includes(listText))).toHaveLength(1);
});
