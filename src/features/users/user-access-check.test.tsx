import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SignInProviderConfig } from '@/api/sign-in-providers';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type NetworkIntercept } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedParties, seedPartyRecords } from '@/testing/seed-parties';
import { signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const TIMEOUT = 30_000;

const provider = (id: string, name: string, identityProviderId: string): SignInProviderConfig => ({
  id,
  name,
  identityProviderId,
  oidc: {
    authority: `https://${id}.login.example`,
    client_id: 'ledger-console',
    scope: 'openid daml_ledger_api',
    extraQueryParams: {},
  },
});

/** The console server's provider list, which the in-process sandbox does not serve. */
const withProviders =
  (providers: SignInProviderConfig[]): NetworkIntercept =>
  (request, sandboxFetch) =>
    new URL(request.url).pathname === '/__console/sign-in-providers'
      ? Promise.resolve(Response.json({ providers }))
      : sandboxFetch(request);

async function runCheck(user: { click: (element: Element) => Promise<void> }) {
  await user.click(
    await screen.findByRole('button', { name: 'Check access' }, { timeout: 10_000 }),
  );
  return screen.findByRole('list', { name: 'Access check' }, { timeout: 10_000 });
}

function verdict(list: HTMLElement, title: string, status: string) {
  const item = within(list).getByRole('listitem', { name: title });
  expect(within(item).getByText(status)).toBeVisible();
  return item;
}

describe('check access', { timeout: TIMEOUT }, () => {
  it('follows each party of a user: hosted here on a synchronizer, hosted elsewhere, unknown', async () => {
    const sandbox = createSandbox();
    const [alice = ''] = await seedParties(sandbox, ['alice']);
    const [remote = ''] = seedPartyRecords(sandbox, [{ hint: 'remote', isLocal: false }]);
    const steps = sandboxSteps(sandbox);
    await steps.createIdentityProvider('acme');
    const [acmeParty = ''] = await seedParties(sandbox, ['acme-desk'], {
      identityProviderId: 'acme',
    });
    const nobody = `nobody::1220${'ab'.repeat(32)}`;
    await steps.createUser('trader', {
      primaryParty: alice,
      rights: [
        { kind: 'CanActAs', party: alice },
        { kind: 'CanReadAs', party: remote },
        { kind: 'CanReadAs', party: nobody },
        { kind: 'CanExecuteAs', party: acmeParty },
      ],
    });
    const { user } = renderRoute('/users/trader?tab=access', {
      sandbox,
      intercept: withProviders([provider('corp', 'Corporate login', '')]),
    });

    const list = await runCheck(user);
    expect(verdict(list, 'Status', 'OK')).toHaveTextContent('User "trader" is active');
    expect(verdict(list, 'Rights', 'OK')).toHaveTextContent(
      'Acts as 1 party, reads as 2 parties, executes as 1 party.',
    );
    expect(verdict(list, 'Primary party', 'OK')).toHaveTextContent(alice);
    expect(verdict(list, `Party ${alice}`, 'OK')).toHaveTextContent(
      'Its primary party, acts as it. Hosted here on local (submission).',
    );
    expect(verdict(list, `Party ${remote}`, 'Problem')).toHaveTextContent(
      'Known to this participant but not hosted here',
    );
    expect(verdict(list, `Party ${acmeParty}`, 'Warning')).toHaveTextContent(
      'Executes as it. Hosted here on local (submission), but not as a party of the default IdP',
    );
    const unknown = verdict(list, `Party ${nobody}`, 'Problem');
    expect(unknown).toHaveTextContent('This participant does not know the party');
    expect(unknown).toHaveTextContent('Fix: Check the party id');
    expect(verdict(list, 'Sign-in provider', 'OK')).toHaveTextContent(
      'Signs in through "Corporate login", as subject "trader"',
    );
  });

  it('flags a deactivated user without rights, and its primary party nobody may use', async () => {
    const sandbox = createSandbox();
    const [alice = ''] = await seedParties(sandbox, ['alice']);
    await sandboxSteps(sandbox).createUser('idle', { primaryParty: alice, isDeactivated: true });
    const { user } = renderRoute('/users/idle?tab=access', { sandbox });

    const list = await runCheck(user);
    expect(verdict(list, 'Status', 'Problem')).toHaveTextContent(
      'Fix: Reactivate it: clear "Deactivated" on the Profile tab.',
    );
    expect(verdict(list, 'Rights', 'Warning')).toHaveTextContent('No rights');
    expect(verdict(list, 'Primary party', 'Warning')).toHaveTextContent(
      `Fix: Grant Act as or Read as for "${alice}"`,
    );
    // The Vite-style server without the console's endpoint: no providers at all.
    expect(verdict(list, 'Sign-in provider', 'Unknown')).toHaveTextContent(
      'This console offers no sign-in providers',
    );
  });

  it('offers the fixes it finds: reactivates the user and grants Read as its primary party', async () => {
    const sandbox = createSandbox();
    const [alice = ''] = await seedParties(sandbox, ['alice']);
    await sandboxSteps(sandbox).createUser('idle', { primaryParty: alice, isDeactivated: true });
    const { user } = renderRoute('/users/idle?tab=access', { sandbox });

    await runCheck(user);
    await user.click(screen.getByRole('button', { name: 'Reactivate user' }));
    expect(await screen.findByText('User idle reactivated')).toBeVisible();
    expect(sandbox.state.users.get('idle')?.isDeactivated).toBe(false);
    // The check runs again: the verdict shows the fixed user, and the fix is gone.
    const list = await screen.findByRole('list', { name: 'Access check' });
    await within(list).findByText(/is active: the participant accepts its tokens/);
    expect(screen.queryByRole('button', { name: 'Reactivate user' })).not.toBeInTheDocument();

    await user.click(
      await screen.findByRole('button', { name: /^Grant Read as alice::.* to idle$/ }),
    );
    expect(await screen.findByText('Read as granted to idle')).toBeVisible();
    expect(sandbox.state.users.rights('idle')).toEqual([{ kind: 'CanReadAs', party: alice }]);
  });

  it('tells an IdP admin that its IdP has no configured sign-in provider', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'access-check-secret' });
    const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
    const [dana = ''] = await seedParties(sandbox, ['dana'], {
      identityProviderId: 'acme',
      token: adminToken,
    });
    await sandboxSteps(sandbox, adminToken).createUser('dana', {
      identityProviderId: 'acme',
      primaryParty: dana,
      rights: [{ kind: 'CanActAs', party: dana }],
    });
    const { user } = renderRoute('/users/dana?idp=acme&tab=access', {
      sandbox,
      intercept: withProviders([provider('corp', 'Corporate login', '')]),
    });

    const list = await runCheck(user);
    expect(verdict(list, 'Rights', 'OK')).toHaveTextContent('Acts as 1 party.');
    expect(verdict(list, `Party ${dana}`, 'OK')).toHaveTextContent('Hosted here on local');
    const sign = verdict(list, 'Sign-in provider', 'Problem');
    expect(sign).toHaveTextContent('No configured provider for IdP "acme"');
    expect(sign).toHaveTextContent('Fix: Add a sign-in provider for IdP "acme"');
  });

  it('names what a participant admin cannot check for a user of another IdP', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'access-check-secret' });
    const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
    await sandboxSteps(sandbox, adminToken).createUser('erin', { identityProviderId: 'acme' });
    await signInAs(sandbox, 'participant_admin');
    const { user } = renderRoute('/users/erin?idp=acme&tab=access', {
      sandbox,
      intercept: withProviders([provider('acme', 'Acme login', 'acme')]),
    });

    const list = await runCheck(user);
    expect(verdict(list, 'Rights', 'Unknown')).toHaveTextContent(
      'lists rights only of default-IdP users for a participant admin',
    );
    expect(verdict(list, 'Sign-in provider', 'OK')).toHaveTextContent('"Acme login"');
  });
});
