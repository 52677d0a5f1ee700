import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { fixtureDar, seedDar } from '@/testing/seed-packages';
import { seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';

const WORKFLOWS = fixtureDar('workflows');
const PING_MAIN_PACKAGE_ID = WORKFLOWS.main.packageId;
const PING_NAME = WORKFLOWS.main.name;
/** The built-in package and the DAR's. */
const WITH_WORKFLOWS = 1 + WORKFLOWS.packages.length;

const packagesTable = () => screen.findByRole('table', { name: 'Packages' });

/** The rows of one package name's group: its `<tbody>`, found from the name's link. */
function group(table: HTMLElement, name: string) {
  const body = within(table).getByRole('link', { name }).closest('tbody');
  if (!body) throw new Error(`${name} has no row group`);
  return within(body).getAllByRole('row');
}

describe('packages list', { timeout: 20_000 }, () => {
  it('shows the built-in package from the start, vetted, linked to its page', async () => {
    const sandbox = createSandbox();
    const [demo] = sandbox.state.packages.all();
    if (!demo) throw new Error('the sandbox has its demo package');
    const { user, router } = renderRoute('/packages', { sandbox });

    const table = await packagesTable();
    const [row] = group(table, 'sandbox-demo');
    if (!row) throw new Error('a row for sandbox-demo');
    expect(row).toHaveTextContent(demo.version);
    expect(row).toHaveTextContent(/Vetted\s*on local/);
    expect(
      within(row).getByRole('link', { name: new RegExp(`^${demo.packageId.slice(0, 6)}…`) }),
    ).toHaveAttribute('href', `/packages/${demo.packageId}`);

    await user.click(within(table).getByRole('link', { name: 'sandbox-demo' }));
    expect(
      await screen.findByRole('heading', { name: `sandbox-demo ${demo.version}`, level: 1 }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(`/packages/${demo.packageId}`);
  });

  it('groups versions of one name, newest first, and filters by text', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    await seedDar(sandbox, 'replication');
    const { user } = renderRoute('/packages', { sandbox });

    const table = await packagesTable();
    const stdlib = group(table, 'fixture-stdlib');
    expect(stdlib.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual([
      '1.1.0',
      '1.0.0',
    ]);
    expect(
      within(table).getByRole('link', { name: 'fixture-stdlib' }).closest('th'),
    ).toHaveTextContent('2 versions');

    await user.type(screen.getByRole('textbox', { name: 'Filter packages' }), 'workflows');
    expect(await screen.findByText(/1 match$/)).toBeVisible();
    const names = within(table).getAllByRole('rowheader');
    expect(names.map((header) => header.textContent)).toEqual([PING_NAME]);
    expect(group(table, PING_NAME)[0]).toHaveTextContent(PING_MAIN_PACKAGE_ID.slice(0, 6));
  });

  it('names packages that are not vetted from their decoded archives', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows', { vetAllPackages: false });
    renderRoute('/packages', { sandbox });

    const table = await packagesTable();
    // Nothing of the DAR is in the vetting list, so every name is read from the archive.
    await within(table).findByRole('link', { name: PING_NAME });
    const [ping] = group(table, PING_NAME);
    expect(ping).toHaveTextContent(WORKFLOWS.main.version);
    expect(ping).toHaveTextContent('Not vetted');
    expect(
      await screen.findByText(
        new RegExp(`^${String(WITH_WORKFLOWS)} packages under \\d+ names, 1 vetted$`),
      ),
    ).toBeVisible();
  });

  it('names each row’s copy button by its package id', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    renderRoute('/packages', { sandbox });

    const table = await packagesTable();
    const [ping] = group(table, PING_NAME);
    if (!ping) throw new Error('a row for the ping package');
    expect(
      within(ping).getByRole('button', { name: `Copy package id ${PING_MAIN_PACKAGE_ID}` }),
    ).toBeVisible();
    const names = within(table)
      .getAllByRole('button', { name: /^Copy package id / })
      .map((button) => button.getAttribute('aria-label'));
    expect(names).toHaveLength(WITH_WORKFLOWS);
    expect(new Set(names).size).toBe(names.length);
  });

  it('offers the upload to admins only, and says why to others', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    seedUsers(sandbox, 1, { prefix: 'reader' });
    await signInAs(sandbox, 'reader-0001');
    renderRoute('/packages', { sandbox });

    expect(await packagesTable()).toBeVisible();
    expect(
      await screen.findByText('Only participant administrators can upload DARs.'),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Upload DAR' })).not.toBeInTheDocument();
  });

  it('links admins to the upload page', async () => {
    const { user, router } = renderRoute('/packages');

    await user.click(await screen.findByRole('link', { name: 'Upload DAR' }));
    expect(await screen.findByRole('heading', { name: 'Upload a DAR', level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/packages/upload');
  });
});
