import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { fixtureDar, seedDar } from '@/testing/seed-packages';
import { seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';

const WORKFLOWS = fixtureDar('workflows');
const REPLICATION = fixtureDar('replication');
const PING_MAIN_PACKAGE_ID = WORKFLOWS.main.packageId;
const PING_NAME = WORKFLOWS.main.name;
/** The built-in package and the DAR's. */
const WITH_WORKFLOWS = 1 + WORKFLOWS.packages.length;

const packagesTable = () => screen.findByRole('table', { name: 'Packages' });

/** Each row's header: the package's name, and what else it says. */
function rowNames(rowgroup: HTMLElement) {
  return within(rowgroup)
    .getAllByRole('rowheader')
    .map((header) => header.textContent);
}

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

  it('lists each DAR’s dependencies under it, a shared one once, and filters by text', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    await seedDar(sandbox, 'replication');
    const { user } = renderRoute('/packages', { sandbox });

    const table = await packagesTable();
    // Both DARs use the prim package of `Archive`: listed under the first DAR, the other named.
    // Named so once the archives of the DAR's packages have been read for their dependencies.
    const replication = await within(table).findByRole(
      'rowgroup',
      { name: `${REPLICATION.main.name} and its dependencies` },
      { timeout: 8000 },
    );
    await waitFor(() => {
      expect(rowNames(replication)).toEqual([
        REPLICATION.main.name,
        `fixture-prim-DA-Internal-Template, also used by ${PING_NAME}`,
        'fixture-stdlib',
      ]);
    });
    expect(within(replication).getAllByRole('row')[2]).toHaveTextContent('1.1.0');
    const workflows = within(table).getByRole('rowgroup', {
      name: `${PING_NAME} and its dependencies`,
    });
    expect(rowNames(workflows)).toEqual([PING_NAME, 'fixture-prim-DA-Types']);
    // The workflows DAR's copy of fixture-stdlib is in no type of its packages: nothing says
    // where it came from, so it stands as a DAR of its own.
    expect(
      within(within(table).getByRole('rowgroup', { name: 'fixture-stdlib' })).getAllByRole('row'),
    ).toHaveLength(1);
    expect(
      await screen.findByText(
        new RegExp(`^${String(1 + 6)} packages from 4 DARs, ${String(1 + 6)} vetted$`),
      ),
    ).toBeVisible();

    await user.type(screen.getByRole('textbox', { name: 'Filter packages' }), 'workflows');
    expect(await screen.findByText(/· 1 match$/)).toBeVisible();
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual([PING_NAME]);
    expect(group(table, PING_NAME)[0]).toHaveTextContent(PING_MAIN_PACKAGE_ID.slice(0, 6));

    // A matching dependency comes with the main package of its DAR.
    await user.clear(screen.getByRole('textbox', { name: 'Filter packages' }));
    await user.type(screen.getByRole('textbox', { name: 'Filter packages' }), 'prim-DA-Types');
    expect(await screen.findByText(/· 1 match$/)).toBeVisible();
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((header) => header.textContent),
    ).toEqual([PING_NAME, 'fixture-prim-DA-Types']);
  });

  it('keeps the versions of one DAR together, newest first', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'upgradeV1');
    await seedDar(sandbox, 'upgradeV2');
    renderRoute('/packages', { sandbox });

    const table = await packagesTable();
    const upgrades = await within(table).findByRole('rowgroup', { name: 'upgrade-demo' });
    expect(
      within(upgrades)
        .getAllByRole('row')
        .map((row) => within(row).getAllByRole('cell')[0]?.textContent),
    ).toEqual(['1.1.0', '1.0.0']);
  });

  it('lists the DAR just uploaded first, marked', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'workflows');
    await seedDar(sandbox, 'replication');
    renderRoute(`/packages?uploaded=${PING_MAIN_PACKAGE_ID}`, { sandbox });

    const table = await packagesTable();
    await waitFor(
      () => {
        expect(within(table).getAllByRole('rowgroup')[1]).toHaveAccessibleName(
          `${PING_NAME} and its dependencies`,
        );
      },
      { timeout: 8000 },
    );
    const [main] = group(table, PING_NAME);
    expect(main).toHaveTextContent('Just uploaded');
    // Shared dependencies follow the DAR listed first.
    expect(
      rowNames(within(table).getByRole('rowgroup', { name: `${PING_NAME} and its dependencies` })),
    ).toEqual([
      `${PING_NAME}Just uploaded`,
      `fixture-prim-DA-Internal-Template, also used by ${REPLICATION.main.name}`,
      'fixture-prim-DA-Types',
    ]);
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
        new RegExp(`^${String(WITH_WORKFLOWS)} packages from 3 DARs, 1 vetted$`),
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
