import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { seedParties } from '@/testing/seed-parties';
import { seedUserRights, seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';

function sandboxWithAcme(options: Parameters<typeof createSandbox>[0] = {}): Sandbox {
  const sandbox = createSandbox(options);
  seedIdentityProviders(sandbox, [
    { identityProviderId: 'acme', audience: 'ledger-api' },
    { identityProviderId: 'globex' },
  ]);
  return sandbox;
}

const allocateParty = (sandbox: Sandbox, hint: string, identityProviderId: string) =>
  seedParties(sandbox, [hint], { identityProviderId });

const settings = () => screen.findByRole('region', { name: 'Settings' });
const editForm = () => screen.getByRole('form', { name: 'Edit identity provider' });
/** The settings are shown once, read-only; Edit swaps them for the form in place. */
async function openEditForm(user: ReturnType<typeof renderRoute>['user']) {
  const section = await settings();
  await user.click(within(section).getByRole('button', { name: 'Edit settings' }));
  return editForm();
}

describe('identity provider page', { timeout: 20_000 }, () => {
  it('shows the settings, the parties, and how to find its users', async () => {
    const sandbox = sandboxWithAcme();
    await allocateParty(sandbox, 'Alice', 'acme');
    await allocateParty(sandbox, 'Bob', 'acme');
    await allocateParty(sandbox, 'Carol', '');
    renderRoute('/identity-providers/acme', { sandbox });

    const section = await settings();
    expect(within(section).getByRole('group', { name: 'Issuer' })).toHaveTextContent(
      'https://acme.example.com',
    );
    expect(within(section).getByRole('group', { name: 'JWKS URL' })).toHaveTextContent(
      'https://acme.example.com/jwks.json',
    );
    expect(within(section).getByRole('group', { name: 'Audience' })).toHaveTextContent(
      'ledger-api',
    );
    // Once: no second copy of the settings as an open form.
    expect(screen.queryByRole('form', { name: 'Edit identity provider' })).not.toBeInTheDocument();
    expect(screen.getAllByText('https://acme.example.com/jwks.json')).toHaveLength(1);
    // The status beside the title.
    expect(await screen.findByRole('group', { name: 'Status' })).toHaveTextContent('Active');
    expect(screen.getByRole('heading', { name: 'acme', level: 1 })).toBeVisible();

    const parties = screen.getByRole('region', { name: 'Parties' });
    expect(
      await within(parties).findByText('2 parties belong to this identity provider.'),
    ).toBeVisible();
    const list = within(parties).getByRole('list', { name: 'Parties of this identity provider' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByText(/^Alice::/)).toBeVisible();

    const users = screen.getByRole('region', { name: 'Users' });
    expect(users).toHaveTextContent(
      /lists an identity provider's users only to that provider's own admins/,
    );
    expect(within(users).getByRole('search', { name: 'Find a user of this IdP' })).toBeVisible();
  });

  it('finds a user of this IdP by id, and says when there is none', async () => {
    const sandbox = sandboxWithAcme();
    seedUsers(sandbox, 1, { prefix: 'acme-user', identityProviderId: 'acme' });
    seedUsers(sandbox, 1, { prefix: 'default-user' });
    const { user } = renderRoute('/identity-providers/acme', { sandbox });
    const users = await screen.findByRole('region', { name: 'Users' });

    await user.type(within(users).getByLabelText('User id'), 'acme-user-0001');
    await user.click(within(users).getByRole('button', { name: 'Find user' }));
    expect(await within(users).findByRole('link', { name: 'acme-user-0001' })).toHaveAttribute(
      'href',
      '/users/acme-user-0001?idp=acme',
    );

    await user.clear(within(users).getByLabelText('User id'));
    await user.type(within(users).getByLabelText('User id'), 'default-user-0001');
    await user.click(within(users).getByRole('button', { name: 'Find user' }));
    expect(
      await within(users).findByText(/User “default-user-0001” is not in this identity provider/),
    ).toBeVisible();

    await user.clear(within(users).getByLabelText('User id'));
    await user.type(within(users).getByLabelText('User id'), 'nobody');
    await user.click(within(users).getByRole('button', { name: 'Find user' }));
    expect(
      await within(users).findByText('No user “nobody” exists on this participant.'),
    ).toBeVisible();
  });

  it('saves only the changed settings, with an update mask naming them', async () => {
    const sandbox = sandboxWithAcme();
    const patches: unknown[] = [];
    const { user } = renderRoute('/identity-providers/acme', {
      sandbox,
      intercept: async (request, sandboxFetch) => {
        if (request.method === 'PATCH') patches.push(await request.clone().json());
        return sandboxFetch(request);
      },
    });
    const form = await openEditForm(user);
    const jwksUrl = within(form).getByRole('textbox', { name: /jwks url/i });
    await user.clear(jwksUrl);
    await user.type(jwksUrl, 'https://keys.acme.test/jwks');
    // Copy as… copies the PATCH that Save sends next: same path, same body, same mask.
    await user.click(within(form).getByRole('button', { name: 'Copy as…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'curl' }));
    const curl = await navigator.clipboard.readText();
    expect(curl).toContain(`-X PATCH '${window.location.origin}/v2/idps/acme'`);
    const copiedBody = /-d '([\s\S]*)'$/.exec(curl)?.[1];
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Identity provider acme updated')).toBeVisible();
    expect(patches).toEqual([
      {
        identityProviderConfig: {
          identityProviderId: 'acme',
          isDeactivated: false,
          issuer: '',
          jwksUrl: 'https://keys.acme.test/jwks',
          audience: '',
        },
        updateMask: { paths: ['jwks_url'], unknownFields: { fields: {} } },
      },
    ]);
    expect(JSON.parse(copiedBody ?? 'null')).toEqual(patches[0]);
    // Back to the read-only settings, with the saved value.
    expect(await within(await settings()).findByText('https://keys.acme.test/jwks')).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Edit identity provider' })).not.toBeInTheDocument();
    expect(sandbox.state.idps.get('acme')).toMatchObject({
      issuer: 'https://acme.example.com',
      jwksUrl: 'https://keys.acme.test/jwks',
      audience: 'ledger-api',
    });
  });

  it('names the IdP that has the issuer, keeps the input, and opens that IdP', async () => {
    const { user, router } = renderRoute('/identity-providers/acme', {
      sandbox: sandboxWithAcme(),
    });
    const form = await openEditForm(user);
    const issuer = within(form).getByRole('textbox', { name: /issuer/i });
    await user.clear(issuer);
    await user.type(issuer, 'https://globex.example.com');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    await waitFor(() => {
      expect(issuer).toHaveAccessibleDescription(/already exists/);
    });
    expect(issuer).toHaveValue('https://globex.example.com');
    expect(
      await within(form).findByText(/Identity provider “globex” already has the issuer/),
    ).toBeVisible();
    await user.click(within(form).getByRole('link', { name: 'Open globex' }));
    expect(await screen.findByRole('heading', { name: 'globex', level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/identity-providers/globex');
  });

  it('Cancel leaves the settings as they were', async () => {
    const sandbox = sandboxWithAcme();
    const { user } = renderRoute('/identity-providers/acme', { sandbox });
    const form = await openEditForm(user);
    await user.type(within(form).getByRole('textbox', { name: /audience/i }), '-2');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    const section = await settings();
    expect(within(section).getByRole('group', { name: 'Audience' })).toHaveTextContent(
      /^Audienceledger-api$/,
    );
    expect(sandbox.state.idps.get('acme')?.audience).toBe('ledger-api');
  });

  it('checks the settings and refuses to save nothing', async () => {
    const { user } = renderRoute('/identity-providers/acme', { sandbox: sandboxWithAcme() });
    await openEditForm(user);
    await user.click(within(editForm()).getByRole('button', { name: 'Save changes' }));
    expect(await within(editForm()).findByRole('alert')).toHaveTextContent('Nothing to save');

    const jwksUrl = within(editForm()).getByRole('textbox', { name: /jwks url/i });
    await user.clear(jwksUrl);
    await user.click(within(editForm()).getByRole('button', { name: 'Save changes' }));
    expect(jwksUrl).toHaveAccessibleDescription(/Required/);
  });

  it('deactivates and activates again after a confirm step', async () => {
    const sandbox = sandboxWithAcme();
    const { user } = renderRoute('/identity-providers/acme', { sandbox });
    await settings();

    await user.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Deactivate identity provider acme?',
    });
    expect(dialog).toHaveTextContent(/rejects every token from its issuer/);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));

    expect(await screen.findByText('Identity provider acme deactivated')).toBeVisible();
    await waitFor(() => {
      expect(screen.getByRole('group', { name: 'Status' })).toHaveTextContent('Deactivated');
    });
    // Its users are blocked now: the page says so and offers the fix.
    expect(screen.getByText(/none of its users can sign in/)).toBeVisible();
    expect(sandbox.state.idps.get('acme')).toMatchObject({
      isDeactivated: true,
      issuer: 'https://acme.example.com',
      audience: 'ledger-api',
    });

    await user.click(screen.getByRole('button', { name: 'Activate' }));
    await user.click(
      within(
        await screen.findByRole('dialog', { name: 'Activate identity provider acme?' }),
      ).getByRole('button', { name: 'Activate' }),
    );
    expect(await screen.findByText('Identity provider acme activated')).toBeVisible();
    expect(sandbox.state.idps.get('acme')?.isDeactivated).toBe(false);
  });

  it('deletes after a confirm that names its parties and says users cannot be counted', async () => {
    const sandbox = sandboxWithAcme();
    const { user, router } = renderRoute('/identity-providers/globex', { sandbox });
    await settings();
    await screen.findByText('No parties belong to this identity provider.');

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete identity provider globex?' });
    expect(dialog).toHaveTextContent('It has 0 parties.');
    expect(dialog).toHaveTextContent(/How many users it has cannot be known here/);
    await user.click(within(dialog).getByRole('button', { name: 'Delete identity provider' }));

    expect(await screen.findByText('Identity provider globex deleted')).toBeVisible();
    expect(await screen.findByRole('table', { name: 'Identity providers' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/identity-providers');
    expect(screen.queryByRole('link', { name: 'globex' })).not.toBeInTheDocument();
    expect(sandbox.state.idps.get('globex')).toBeUndefined();
  });

  it('reports as a toast when the participant refuses to delete an IdP with parties', async () => {
    const sandbox = sandboxWithAcme();
    await allocateParty(sandbox, 'Alice', 'acme');
    const { user, router } = renderRoute('/identity-providers/acme', { sandbox });
    await settings();
    await screen.findByText('1 party belongs to this identity provider.');

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete identity provider acme?' });
    expect(dialog).toHaveTextContent('It has 1 party.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete identity provider' }));

    expect(await screen.findByText(/A security-sensitive error has been received/)).toBeVisible();
    expect(router.state.location.pathname).toBe('/identity-providers/acme');
    expect(sandbox.state.idps.get('acme')).toBeDefined();
  });

  it('says when the IdP does not exist, with the way back and no Retry', async () => {
    allowConsole(/IDP_CONFIG_NOT_FOUND/);
    renderRoute('/identity-providers/nope');

    const state = await screen.findByRole('region', { name: 'No identity provider “nope”' });
    expect(within(state).getByRole('link', { name: 'Go to identity providers' })).toHaveAttribute(
      'href',
      '/identity-providers',
    );
    expect(screen.queryByRole('button', { name: /retry/i })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to identity providers' })).toHaveAttribute(
      'href',
      '/identity-providers',
    );
  });

  it('offers Activate on a deactivated IdP, which lets its users in again', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [{ identityProviderId: 'acme', isDeactivated: true }]);
    const { user } = renderRoute('/identity-providers/acme', { sandbox });

    expect(await screen.findByText(/none of its users can sign in/)).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Activate acme' }));
    expect(await screen.findByText('Identity provider acme activated')).toBeVisible();
    expect(sandbox.state.idps.get('acme')?.isDeactivated).toBe(false);
    await waitFor(() => {
      expect(screen.queryByText(/none of its users can sign in/)).not.toBeInTheDocument();
    });
    expect(screen.getByRole('group', { name: 'Status' })).toHaveTextContent('Active');
  });

  it("lists the IdP's users to its own admin, without the admin-only settings", async () => {
    const sandbox = sandboxWithAcme({ auth: 'jwt', jwtSecret: 'idp-details-test-secret' });
    seedUsers(sandbox, 3, { prefix: 'acme', identityProviderId: 'acme' });
    seedUserRights(sandbox, 'acme-0001', ['IdentityProviderAdmin']);
    await signInAs(sandbox, 'acme-0001');
    renderRoute('/identity-providers/acme', { sandbox });

    const users = await screen.findByRole('list', { name: 'Users of this identity provider' });
    expect(
      within(users)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['acme-0001', 'acme-0002', 'acme-0003']);
    expect(
      screen.getByText(/settings can be read and changed only by a participant admin/),
    ).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it('tells a user without Participant admin that it may not see the settings, and who can grant it', async () => {
    const sandbox = sandboxWithAcme({ auth: 'jwt', jwtSecret: 'idp-details-test-secret' });
    seedUsers(sandbox, 1, { prefix: 'plain' });
    await signInAs(sandbox, 'plain-0001');
    renderRoute('/identity-providers/acme', { sandbox });

    const state = await screen.findByRole('region', {
      name: 'Only participant admins manage identity providers',
    });
    expect(state).toHaveTextContent('You are signed in as plain-0001 (default identity provider)');
    expect(state).toHaveTextContent('This needs the right Participant admin');
    expect(state).toHaveTextContent('A participant admin can grant it.');
    expect(screen.queryByRole('region', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Status' })).not.toBeInTheDocument();
  });
});
