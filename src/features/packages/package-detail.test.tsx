import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { shortenIdentifier } from '@/lib/text/format';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET, type Sandbox } from '@/testing/sandbox-network';
import { fixtureDar, seedDar } from '@/testing/seed-packages';
import { sandboxJson } from '@/testing/seed-parties';
import { seedUsers } from '@/testing/seed-users';
import { mintToken, signInAs } from '@/testing/sign-in-as';

const WORKFLOWS = fixtureDar('workflows');
const PING_MAIN_PACKAGE_ID = WORKFLOWS.main.packageId;
const PING_PAGE = `/packages/${PING_MAIN_PACKAGE_ID}`;
const PING_TITLE = WORKFLOWS.title;
const DEFINITIONS_DEP = fixtureDar('definitions').packageNamed('fixture-definitions-dep');

async function sandboxWithPing(options: Parameters<typeof createSandbox>[0] = {}) {
  const sandbox = createSandbox(options);
  await seedDar(sandbox, 'workflows');
  return sandbox;
}

/** Each choice of a list as its name and whether it consumes the contract. */
function choiceSummaries(list: HTMLElement): string[] {
  return [...list.children].map((item) => {
    const element = item as HTMLElement;
    const name = within(element).getByRole('heading', { level: 6 }).textContent;
    const kind = element.textContent.includes('Non-consuming') ? 'Non-consuming' : 'Consuming';
    return `${name} ${kind}`;
  });
}

const vettingTable = () => screen.findByRole('table', { name: 'Vetting per synchronizer' });

/**
 * Unvets the sandbox's demo package behind the page's back, as another admin would: the ping
 * package stays vetted, but the vetting's serial on the synchronizer moves on.
 */
async function changeVettingElsewhere(sandbox: Sandbox) {
  const [demo] = sandbox.state.packages.all();
  if (!demo) throw new Error('the sandbox has its demo package');
  await sandboxJson(sandbox, 'POST', '/v2/package-vetting/update', {
    changes: [{ operation: { Unvet: { value: { packages: [{ packageId: demo.packageId }] } } } }],
    synchronizerId: sandbox.state.synchronizerId,
  });
}

const ALLOW_UNVETTED_DEPENDENCIES = 'UPDATE_VETTED_PACKAGES_FORCE_FLAG_ALLOW_UNVETTED_DEPENDENCIES';

describe('package page', { timeout: 20_000 }, () => {
  it('names the package and shows its details', async () => {
    renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    expect(await screen.findByRole('heading', { name: PING_TITLE, level: 1 })).toBeVisible();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(
      await within(details).findByRole('group', { name: 'Daml-LF version' }),
    ).toHaveTextContent('2.1');
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
      await within(contents).findByText(/^3 modules, 3 templates, 0 interfaces, \d+ data types$/),
    ).toBeVisible();
    await user.click(within(contents).getByRole('button', { name: /^Fixture\.Ping/ }));

    const module = await within(contents).findByRole('region', { name: /^Fixture\.Ping/ });
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
      'abortbongproposal',
    );

    const module = await within(contents).findByRole('region', { name: /^Fixture\.Bong/ });
    // The template whose choice matches, and the choice's argument record among the data types.
    expect(
      within(module)
        .getAllByRole('heading', { level: 4 })
        .map((h) => h.textContent),
    ).toEqual(['BongProposal', 'Data types']);
    expect(
      within(within(module).getByRole('table', { name: /^Data types of/ })).getAllByRole('row'),
    ).toHaveLength(2);
    expect(within(contents).queryByRole('button', { name: /^Fixture\.Ping/ })).toBeNull();
  });

  it('unvets and vets again after a confirm that names the package and synchronizer', async () => {
    const { user } = renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    const table = await vettingTable();
    expect(table).toHaveTextContent('Vetted');
    await user.click(within(table).getByRole('button', { name: 'Unvet on local' }));
    const confirm = await screen.findByRole('dialog', { name: `Unvet ${PING_TITLE} on local?` });
    expect(confirm).toHaveTextContent(PING_MAIN_PACKAGE_ID);
    // The request the confirm sends, as curl; the console has no equivalent for one package.
    await user.click(within(confirm).getByRole('button', { name: 'Copy as…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'curl' }));
    const curl = await navigator.clipboard.readText();
    expect(curl).toMatch(/^curl -sS -X POST '.*\/v2\/package-vetting\/update'/);
    expect(curl).toContain(`"packageId": "${PING_MAIN_PACKAGE_ID}"`);
    expect(curl).toContain('"Unvet"');
    await user.click(
      await within(confirm).findByRole('button', { name: 'Copy as…' }, { timeout: 3000 }),
    );
    expect(await screen.findByRole('menuitem', { name: 'Canton console' })).toBeDisabled();
    await user.keyboard('{Escape}');
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

  it('after a conflict with a change made meanwhile, shows the vetting as it is and retries', async () => {
    const sandbox = await sandboxWithPing();
    const { user } = renderRoute(PING_PAGE, { sandbox });

    const table = await vettingTable();
    expect(table).toHaveTextContent('Vetted');
    // Someone else changes the vetting: the serial the page knows is now stale.
    await changeVettingElsewhere(sandbox);
    const unvet = async () => {
      await user.click(within(table).getByRole('button', { name: 'Unvet on local' }));
      await user.click(
        within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unvet package' }),
      );
    };
    await unvet();

    expect(await screen.findByText(/TOPOLOGY_SERIAL_MISMATCH/)).toBeVisible();
    const note = await screen.findByRole('alert', { name: 'The vetting changed meanwhile' });
    expect(note).toHaveTextContent(
      'The vetting on local changed after this page showed it, so nothing was unvetted.',
    );
    expect(note).toHaveTextContent('check it, then retry');
    // The failed change refreshed the vetting: the retry sends the current serial, and succeeds.
    expect(table).toHaveTextContent('Vetted');
    await unvet();

    expect(await screen.findByText(`${PING_TITLE} unvetted on local`)).toBeVisible();
    expect(await within(table).findByRole('button', { name: 'Vet on local' })).toBeVisible();
    expect(table).toHaveTextContent('Not vetted');
    expect(
      screen.queryByRole('alert', { name: 'The vetting changed meanwhile' }),
    ).not.toBeInTheDocument();
    const { vettedPackages } = await sandboxJson<{
      vettedPackages: { packages: { packageId: string }[] }[];
    }>(sandbox, 'POST', '/v2/package-vetting/list', {});
    expect(
      vettedPackages.flatMap((entry) => entry.packages).map((pkg) => pkg.packageId),
    ).not.toContain(PING_MAIN_PACKAGE_ID);
  });

  it('offers no change on a synchronizer the participant is not connected to, and says why', async () => {
    const sandbox = createSandbox({ synchronizers: ['alpha', 'beta'] });
    const [alpha, beta] = sandbox.state.synchronizerIds;
    if (!alpha || !beta) throw new Error('two synchronizers');
    await seedDar(sandbox, 'workflows', { vetAllPackages: false });
    for (const synchronizerId of [alpha, beta]) {
      await sandboxJson(sandbox, 'POST', '/v2/package-vetting/update', {
        changes: [
          { operation: { Vet: { value: { packages: [{ packageId: PING_MAIN_PACKAGE_ID }] } } } },
        ],
        synchronizerId,
        // Only the main package: its dependencies stay unvetted, which takes the force flag.
        updateVettedPackagesForceFlags: [ALLOW_UNVETTED_DEPENDENCIES],
      });
    }
    // The participant has since disconnected from beta; its vetting there is still listed.
    renderRoute(PING_PAGE, {
      sandbox,
      intercept: async (request, sandboxFetch) => {
        const response = await sandboxFetch(request);
        if (new URL(request.url).pathname !== '/v2/state/connected-synchronizers') return response;
        const body = (await response.json()) as {
          connectedSynchronizers: { synchronizerId: string }[];
        };
        return Response.json({
          connectedSynchronizers: body.connectedSynchronizers.filter(
            (synchronizer) => synchronizer.synchronizerId !== beta,
          ),
        });
      },
    });

    const table = await vettingTable();
    const [alphaRow, betaRow] = within(table).getAllByRole('row').slice(1);
    if (!alphaRow || !betaRow) throw new Error('a row per synchronizer');
    // Without an alias to show (the participant knows aliases of connected ones only), the
    // shortened id names it, as everywhere.
    const betaLabel = shortenIdentifier(beta);
    expect(betaRow).toHaveTextContent(`${betaLabel} (not connected)`);
    expect(betaRow).toHaveTextContent('Vetted');
    const button = within(betaRow).getByRole('button', { name: `Unvet on ${betaLabel}` });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      'Not connected: vetting can change only on a synchronizer this participant is connected to.',
    );
    expect(within(alphaRow).getByRole('button', { name: 'Unvet on alpha' })).toBeEnabled();
  });

  it('shows vetting per synchronizer when the participant has several', async () => {
    const sandbox = createSandbox({ synchronizers: ['alpha', 'beta'] });
    await seedDar(sandbox, 'workflows', { vetAllPackages: false });
    const [alpha] = sandbox.state.synchronizerIds;
    await sandboxJson(sandbox, 'POST', '/v2/package-vetting/update', {
      changes: [
        { operation: { Vet: { value: { packages: [{ packageId: PING_MAIN_PACKAGE_ID }] } } } },
      ],
      synchronizerId: alpha,
      updateVettedPackagesForceFlags: [ALLOW_UNVETTED_DEPENDENCIES],
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
    await seedDar(sandbox, 'workflows', { token: await mintToken(sandbox, 'participant_admin') });
    seedUsers(sandbox, 1, { prefix: 'reader' });
    await signInAs(sandbox, 'reader-0001');
    renderRoute(PING_PAGE, { sandbox });

    const table = await vettingTable();
    expect(table).toHaveTextContent('Vetted');
    expect(within(table).queryByRole('button', { name: /vet/i })).toBeNull();
    expect(screen.getByText('Only participant administrators can change vetting.')).toBeVisible();
  });

  it('shows template keys, non-consuming choices and interfaces with their choices', async () => {
    const sandbox = createSandbox();
    await seedDar(sandbox, 'definitions');
    const { user } = renderRoute(`/packages/${DEFINITIONS_DEP.packageId}`, { sandbox });

    expect(
      await screen.findByRole('heading', { name: 'fixture-definitions-dep 1.0.0', level: 1 }),
    ).toBeVisible();
    const contents = await screen.findByRole('region', { name: 'Contents' });
    expect(
      await within(contents).findByText(/^1 module, 2 templates, 1 interface, \d+ data types$/),
    ).toBeVisible();
    await user.click(within(contents).getByRole('button', { name: /^ExternalDep/ }));
    const module = await within(contents).findByRole('region', { name: /^ExternalDep/ });

    // A template key, and a non-consuming choice beside consuming ones.
    const foo = within(module).getByRole('region', { name: 'TemplateFoo' });
    expect(foo).toHaveTextContent('Key: Party');
    const fooChoices = within(foo).getByRole('list', { name: 'Choices of TemplateFoo' });
    expect(choiceSummaries(fooChoices)).toEqual([
      'Archive Consuming',
      'TemplateFoo_NoArgs_RetUnit Non-consuming',
      'SourceTemplate_Args_RetRecord Consuming',
    ]);

    // A compound key, and the interface the template implements.
    const bar = within(module).getByRole('region', { name: 'TemplateBar' });
    expect(bar).toHaveTextContent('Key: DA.Types:Tuple2 Party (ExternalDep:SomeParamRecord Int64)');
    expect(bar).toHaveTextContent('Implements: ExternalDep:MyInterface');

    // The interface: its view and its choices, one of them non-consuming.
    const iface = within(module).getByRole('region', { name: 'MyInterface' });
    expect(within(iface).getByText('Interface')).toBeVisible();
    expect(iface).toHaveTextContent('View: ExternalDep:MyInterfaceViewType');
    const ifaceChoices = within(iface).getByRole('list', { name: 'Choices of MyInterface' });
    expect(choiceSummaries(ifaceChoices)).toEqual([
      'MyNonConsumingChoice Non-consuming',
      'MyChoice Consuming',
      'Archive Consuming',
    ]);
    const [nonConsuming] = ifaceChoices.children;
    expect(nonConsuming).toHaveTextContent('Returns Int64');
  });

  it('says in place why a choice’s argument cannot be shown, and retries', async () => {
    let failArchives = true;
    const { user } = renderRoute(PING_PAGE, {
      sandbox: await sandboxWithPing(),
      // The standard library's package, where Archive's argument lives, cannot be fetched.
      intercept: (request, sandboxFetch) => {
        const { pathname } = new URL(request.url);
        const isOtherArchive =
          /^\/v2\/packages\/[0-9a-f]{64}$/.test(pathname) &&
          !pathname.endsWith(PING_MAIN_PACKAGE_ID);
        return failArchives && isOtherArchive
          ? Promise.resolve(new Response('the archive store is down', { status: 503 }))
          : sandboxFetch(request);
      },
    });

    const contents = await screen.findByRole('region', { name: 'Contents' });
    await user.click(await within(contents).findByRole('button', { name: /^Fixture\.Ping/ }));
    const module = await within(contents).findByRole('region', { name: /^Fixture\.Ping/ });
    const choices = within(within(module).getByRole('region', { name: 'Ping' })).getByRole('list', {
      name: 'Choices of Ping',
    });
    const archive = choices.children[1] as HTMLElement;
    expect(
      await within(archive).findByText(
        'Argument fields not known: the archive store is down (HTTP_503)',
      ),
    ).toBeVisible();
    // The rest of the choice is still there.
    expect(archive).toHaveTextContent('Argument DA.Internal.Template:Archive');

    failArchives = false;
    await user.click(
      within(archive).getByRole('button', {
        name: 'Retry reading the argument of Archive of Ping',
      }),
    );
    expect(await within(archive).findByText('No argument fields')).toBeVisible();
  });

  it('says once that the participant has no such package, with the way back and nothing to vet', async () => {
    const unknown = 'ab'.repeat(32);
    const { user, router } = renderRoute(`/packages/${unknown}`);

    const state = await screen.findByRole('region', { name: `No package “${unknown}”` });
    expect(state).toHaveTextContent('This participant has no package with this id');
    expect(screen.getByRole('heading', { name: 'Package ababab…abab', level: 1 })).toBeVisible();
    // None of the parts of a stored package: no details, vetting, contents or Retry.
    for (const name of ['Details', 'Vetting', 'Contents']) {
      expect(screen.queryByRole('region', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: /^(Vet|Retry)/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/stored on this participant/)).not.toBeInTheDocument();

    await user.click(within(state).getByRole('link', { name: 'Go to packages' }));
    expect(await screen.findByRole('table', { name: 'Packages' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/packages');
  });

  it('leads back to the packages from its header', async () => {
    const { user, router } = renderRoute(PING_PAGE, { sandbox: await sandboxWithPing() });

    await screen.findByRole('heading', { name: PING_TITLE, level: 1 });
    await user.click(screen.getByRole('link', { name: 'Back to packages' }));
    expect(await screen.findByRole('table', { name: 'Packages' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/packages');
  });
});
