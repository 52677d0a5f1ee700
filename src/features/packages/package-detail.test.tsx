import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET, type Sandbox } from '@/testing/sandbox-network';
import { PING_DAR, PING_MAIN_PACKAGE_ID, seedDar } from '@/testing/seed-packages';
import { sandboxJson } from '@/testing/seed-parties';
import { seedUsers } from '@/testing/seed-users';
import { mintToken, signInAs } from '@/testing/sign-in-as';

const PING_PAGE = `/packages/${PING_MAIN_PACKAGE_ID}`;
const PING_TITLE = 'canton-builtin-admin-workflow-ping 3.4.0';

async function sandboxWithPing(options: Parameters<typeof createSandbox>[0] = {}) {
  const sandbox = createSandbox(options);
  await seedDar(sandbox, PING_DAR);
  return sandbox;
}

const vettingTable = () => screen.findByRole('table', { name: 'Vetting per synchronizer' });

/** Unvets the ping package behind the page's back, as another admin would. */
async function unvetElsewhere(sandbox: Sandbox) {
  await sandboxJson(sandbox, 'POST', '/v2/package-vetting/update', {
    changes: [
      { operation: { Unvet: { value: { packages: [{ packageId: PING_MAIN_PACKAGE_ID }] } } } },
    ],
    synchronizerId: sandbox.state.synchronizerId,
  });
}

describe('package page', { timeout: 20_000 }, () => {
  it('names the package and shows its details', async () => {
    renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    expect(await screen.findByRole('heading', { name: PING_TITLE, level: 1 })).toBeVisible();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(
      await within(details).findByRole('group', { name: 'Daml-LF version' }),
    ).toHaveTextContent('2.2');
    expect(within(details).getByRole('group', { name: 'Package id' })).toHaveTextContent(
      PING_MAIN_PACKAGE_ID,
    );
    expect(within(details).getByRole('group', { name: 'Status' })).toHaveTextContent(
      'Registered on this participant',
    );
  });

  it('browses from the module to the Ping template and its choices', async () => {
    const { user } = renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    const contents = await screen.findByRole('region', { name: 'Contents' });
    expect(
      await within(contents).findByText(/^3 modules, 6 templates, 0 interfaces, \d+ data types$/),
    ).toBeVisible();
    await user.click(within(contents).getByRole('button', { name: /^Canton\.Internal\.Ping/ }));

    const module = await within(contents).findByRole('region', { name: /^Canton\.Internal\.Ping/ });
    const ping = within(module).getByRole('region', { name: 'Ping' });
    const fields = within(ping).getByRole('table', { name: 'Fields of Ping' });
    expect(
      within(fields)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['FieldType', 'idText', 'initiatorParty', 'responderParty']);
    expect(ping).toHaveTextContent('Key: none');

    const choices = within(ping).getByRole('list', { name: 'Choices of Ping' });
    expect(
      within(choices)
        .getAllByRole('heading', { level: 6 })
        .map((heading) => heading.textContent),
    ).toEqual(['Respond', 'Archive', 'AbortPing']);
    // The choices themselves, not the argument fields listed inside them.
    const items = [...choices.children] as HTMLElement[];
    expect(items).toHaveLength(3);
    for (const item of items.slice(0, 3)) expect(item).toHaveTextContent('Consuming');
    const abort = within(choices).getByRole('list', { name: 'Argument fields of AbortPing' });
    expect(abort).toHaveTextContent('anyone: Party');
    expect(items[0]).toHaveTextContent('No argument fields');
    expect(items[0]).toHaveTextContent('Returns Unit');
    // Archive's argument record lives in the standard library's package, fetched and decoded too.
    await waitFor(() => {
      expect(items[1]).toHaveTextContent('No argument fields');
    });
    expect(items[1]).toHaveTextContent('Argument DA.Internal.Template:Archive');
  });

  it('filters the contents and opens what matches', async () => {
    const { user } = renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    const contents = await screen.findByRole('region', { name: 'Contents' });
    await user.type(
      await within(contents).findByRole('textbox', { name: 'Filter contents' }),
      'processmerge',
    );

    const module = await within(contents).findByRole('region', { name: /^Canton\.Internal\.Bong/ });
    // The template whose choice matches, and the choice's argument record among the data types.
    expect(
      within(module)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['Merge', 'Data types']);
    expect(
      within(within(module).getByRole('table', { name: /^Data types of/ })).getAllByRole('row'),
    ).toHaveLength(2);
    expect(within(contents).queryByRole('button', { name: /^Canton\.Internal\.Ping/ })).toBeNull();
  });

  it('unvets and vets again after a confirm that names the package and synchronizer', async () => {
    const { user } = renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    const table = await vettingTable();
    expect(table).toHaveTextContent('Vetted');
    await user.click(within(table).getByRole('button', { name: 'Unvet on local' }));
    const confirm = await screen.findByRole('dialog', { name: `Unvet ${PING_TITLE} on local?` });
    expect(confirm).toHaveTextContent(PING_MAIN_PACKAGE_ID);
    await user.click(within(confirm).getByRole('button', { name: 'Unvet package' }));

    expect(await within(table).findByRole('button', { name: 'Vet on local' })).toBeVisible();
    expect(table).toHaveTextContent('Not vetted');
    expect(await screen.findByText(`${PING_TITLE} unvetted on local`)).toBeVisible();

    await user.click(within(table).getByRole('button', { name: 'Vet on local' }));
    const vet = await screen.findByRole('dialog', { name: `Vet ${PING_TITLE} on local?` });
    await user.click(within(vet).getByRole('button', { name: 'Vet package' }));
    expect(await within(table).findByRole('button', { name: 'Unvet on local' })).toBeVisible();
  });

  it('cancelling the confirm changes nothing', async () => {
    const { user } = renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    const table = await vettingTable();
    await user.click(within(table).getByRole('button', { name: 'Unvet on local' }));
    const confirm = await screen.findByRole('dialog');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));

    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    expect(within(table).getByRole('button', { name: 'Unvet on local' })).toBeVisible();
  });

  it('shows the server’s error when the vetting changed in between', async () => {
    const sandbox = await sandboxWithPing();
    const { user } = renderRoute(PING_PAGE, { sandbox });

    const table = await vettingTable();
    // Someone else unvets and vets it again: the serial the page knows is now stale.
    await unvetElsewhere(sandbox);
    await user.click(within(table).getByRole('button', { name: 'Unvet on local' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unvet package' }),
    );

    expect(await screen.findByText(/TOPOLOGY_SERIAL_MISMATCH/)).toBeVisible();
  });

  it('shows vetting per synchronizer when the participant has several', async () => {
    const sandbox = createSandbox({ synchronizers: ['alpha', 'beta'] });
    await seedDar(sandbox, PING_DAR, { vetAllPackages: false });
    const [alpha] = sandbox.state.synchronizerIds;
    await sandboxJson(sandbox, 'POST', '/v2/package-vetting/update', {
      changes: [
        { operation: { Vet: { value: { packages: [{ packageId: PING_MAIN_PACKAGE_ID }] } } } },
      ],
      synchronizerId: alpha,
    });
    renderRoute(PING_PAGE, { sandbox });

    const table = await vettingTable();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(/alpha.*Vetted/);
    expect(rows[1]).toHaveTextContent(/beta.*Not vetted/);
  });

  it('shows a plain user the vetting without actions, and says why', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    await seedDar(sandbox, PING_DAR, { token: await mintToken(sandbox, 'participant_admin') });
    seedUsers(sandbox, 1, { prefix: 'reader' });
    await signInAs(sandbox, 'reader-0001');
    renderRoute(PING_PAGE, { sandbox });

    const table = await vettingTable();
    expect(table).toHaveTextContent('Vetted');
    expect(within(table).queryByRole('button', { name: /vet/i })).toBeNull();
    expect(screen.getByText('Only participant administrators can change vetting.')).toBeVisible();
  });

  it('reports a package the participant does not have', async () => {
    const unknown = 'ab'.repeat(32);
    renderRoute(`/packages/${unknown}`);

    const contents = await screen.findByRole('region', { name: 'Contents' });
    expect(await within(contents).findByText('PACKAGE_NOT_FOUND')).toBeVisible();
    expect(
      await within(screen.getByRole('region', { name: 'Details' })).findByText(
        'Not known to this participant',
      ),
    ).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Package ababab…abab', level: 1 })).toBeVisible();
  });
});
