import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { sandboxJson, seedParties } from '@/testing/seed-parties';
import { signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

// Whole-app journeys through several dialogs; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 20_000;

type SeedUser = {
  id: string;
  primaryParty?: string;
  identityProviderId?: string;
  annotations?: Record<string, string>;
  rights?: unknown[];
};

async function seedUser(sandbox: Sandbox, seed: SeedUser, token?: string) {
  await sandboxJson(
    sandbox,
    'POST',
    '/v2/users',
    {
      user: {
        id: seed.id,
        primaryParty: seed.primaryParty ?? '',
        isDeactivated: false,
        identityProviderId: seed.identityProviderId ?? '',
        metadata: { annotations: seed.annotations ?? {} },
      },
      rights: seed.rights ?? [],
    },
    token,
  );
}

const actAs = (party: string) => ({ kind: { CanActAs: { value: { party } } } });
const readAs = (party: string) => ({ kind: { CanReadAs: { value: { party } } } });

async function openUser(sandbox: Sandbox, path = '/users/ops') {
  const view = renderRoute(path, { sandbox });
  await screen.findByRole('tab', { name: 'Profile' });
  return view;
}

describe('user profile', () => {
  it('saves only what changed and shows the new resource version', async () => {
    const sandbox = createSandbox();
    const [alice] = await seedParties(sandbox, ['alice']);
    await seedUser(sandbox, { id: 'ops', primaryParty: alice ?? '', annotations: { team: 'a' } });
    const { user } = await openUser(sandbox);

    expect(screen.getByRole('heading', { name: 'ops' })).toBeVisible();
    expect(screen.getByText('Active')).toBeVisible();
    const version = screen.getByRole('group', { name: 'Resource version' });
    expect(version).toHaveTextContent('0');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    await user.click(screen.getByRole('switch', { name: 'Deactivated' }));
    await user.clear(screen.getByRole('textbox', { name: 'Annotation 1 value' }));
    await user.type(screen.getByRole('textbox', { name: 'Annotation 1 value' }), 'b');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    await waitFor(() => {
      expect(version).toHaveTextContent('1');
    });
    expect(await screen.findByText('User ops saved')).toBeVisible();
    expect(sandbox.state.users.get('ops')).toMatchObject({
      primaryParty: alice,
      isDeactivated: true,
      annotations: { team: 'b' },
      resourceVersion: 1,
    });
    expect(
      await screen.findByText('Deactivated', { selector: '.mantine-Badge-label' }),
    ).toBeVisible();
  });

  it(
    'says so when someone else changed the user meanwhile, keeps the edits, and reloads on request',
    async () => {
      const sandbox = createSandbox();
      const [alice, bob] = await seedParties(sandbox, ['alice', 'bob']);
      await seedUser(sandbox, { id: 'ops', primaryParty: alice ?? '' });
      const { user } = await openUser(sandbox);

      // Someone else, elsewhere, after this page loaded.
      await sandboxJson(sandbox, 'PATCH', '/v2/users/ops', {
        user: { id: 'ops', primaryParty: bob, identityProviderId: '' },
        updateMask: { paths: ['primary_party'] },
      });

      const deactivated = screen.getByRole('switch', { name: 'Deactivated' });
      await user.click(deactivated);
      await user.click(screen.getByRole('button', { name: 'Save changes' }));

      const form = screen.getByRole('form', { name: 'Profile' });
      const alert = await within(form).findByRole('alert');
      expect(alert).toHaveTextContent('Someone else changed this user after you opened it');
      expect(deactivated).toBeChecked();
      expect(screen.getByRole('combobox', { name: /^Primary party/ })).toHaveValue(alice);
      expect(sandbox.state.users.get('ops')?.isDeactivated).toBe(false);

      await user.click(within(alert).getByRole('button', { name: 'Reload latest' }));

      await waitFor(() => {
        expect(screen.getByRole('combobox', { name: /^Primary party/ })).toHaveValue(bob);
      });
      expect(deactivated).not.toBeChecked();
      expect(screen.getByRole('group', { name: 'Resource version' })).toHaveTextContent('1');
      expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it('shows why the user could not be loaded, and recovers on Retry', async () => {
    const sandbox = createSandbox();
    await seedUser(sandbox, { id: 'ops' });
    allowConsole(/NETWORK_UNREACHABLE/);
    const { user, interceptNetwork } = renderRoute('/users/ops', {
      sandbox,
      intercept: (request, sandboxFetch) =>
        new URL(request.url).pathname === '/v2/users/ops'
          ? Promise.reject(new TypeError('fetch failed'))
          : sandboxFetch(request),
    });

    const alert = await screen.findByRole('alert', { name: 'Cannot reach the server' });
    expect(alert).toHaveTextContent('fetch failed');
    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('tab', { name: 'Profile' })).toBeVisible();
    expect(screen.getByRole('group', { name: 'Resource version' })).toHaveTextContent('0');
  });
});

describe('user rights', () => {
  it(
    'grants after a confirm and says when nothing changed',
    async () => {
      const sandbox = createSandbox();
      const [alice] = await seedParties(sandbox, ['alice']);
      await seedUser(sandbox, { id: 'ops', rights: [actAs(alice ?? '')] });
      const { user } = await openUser(sandbox);
      await user.click(screen.getByRole('tab', { name: 'Rights' }));

      const table = await screen.findByRole('table', { name: 'Rights of ops' });
      expect(within(table).getByText('Act as')).toBeVisible();
      expect(within(table).getByTitle(alice ?? '')).toBeVisible();
      expect(
        within(table).getByRole('button', { name: `Copy party ${alice ?? ''} (Act as right)` }),
      ).toBeVisible();

      const grant = screen.getByRole('form', { name: 'Grant rights' });
      await user.click(within(grant).getByRole('button', { name: 'Add party right' }));
      await user.click(within(grant).getByRole('combobox', { name: 'Right 1 party' }));
      await user.paste(alice ?? '');
      await user.click(within(grant).getByRole('button', { name: 'Grant rights' }));

      const dialog = await screen.findByRole('dialog', { name: 'Grant right to ops?' });
      expect(dialog).toHaveTextContent(`Act as ${alice ?? ''}`);
      await user.click(within(dialog).getByRole('button', { name: 'Grant right' }));

      const report = await screen.findByRole('status', { name: /No change/ });
      expect(report).toHaveTextContent('No change: the user already had these rights.');
      expect(sandbox.state.users.rights('ops')).toEqual([{ kind: 'CanActAs', party: alice }]);

      await user.click(within(grant).getByRole('checkbox', { name: 'Participant admin' }));
      await user.click(within(grant).getByRole('button', { name: 'Grant rights' }));
      await user.click(
        within(await screen.findByRole('dialog', { name: 'Grant right to ops?' })).getByRole(
          'button',
          { name: 'Grant right' },
        ),
      );
      expect(await screen.findByRole('status', { name: 'Rights granted' })).toHaveTextContent(
        'Granted: Participant admin',
      );
      expect(await within(table).findByText('Participant admin')).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'revokes the selected rights after a confirm, and reports what was revoked',
    async () => {
      const sandbox = createSandbox();
      const [alice, bob] = await seedParties(sandbox, ['alice', 'bob']);
      await seedUser(sandbox, { id: 'ops', rights: [actAs(alice ?? ''), readAs(bob ?? '')] });
      const { user } = await openUser(sandbox);
      await user.click(screen.getByRole('tab', { name: 'Rights' }));

      const revokeSelected = await screen.findByRole('button', { name: 'Revoke selected' });
      expect(revokeSelected).toBeDisabled();
      await user.click(screen.getByRole('checkbox', { name: `Select Act as ${alice ?? ''}` }));
      await user.click(revokeSelected);

      const dialog = await screen.findByRole('dialog', { name: 'Revoke right from ops?' });
      expect(dialog).toHaveTextContent(`These rights will be revoked:Act as ${alice ?? ''}`);
      await user.click(within(dialog).getByRole('button', { name: 'Revoke right' }));

      expect(await screen.findByRole('status', { name: 'Rights revoked' })).toHaveTextContent(
        `Revoked: Act as ${alice ?? ''}`,
      );
      expect(sandbox.state.users.rights('ops')).toEqual([{ kind: 'CanReadAs', party: bob }]);
      const table = screen.getByRole('table', { name: 'Rights of ops' });
      await waitFor(() => {
        expect(within(table).queryByText('Act as')).not.toBeInTheDocument();
      });
      expect(within(table).getByText('Read as')).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'explains that the API cannot list the rights of another IdP’s user, after moving it there',
    async () => {
      const sandbox = createSandbox();
      await sandboxJson(sandbox, 'POST', '/v2/idps', {
        identityProviderConfig: {
          identityProviderId: 'acme',
          isDeactivated: false,
          issuer: 'https://acme.example',
          jwksUrl: 'https://acme.example/jwks.json',
          audience: '',
        },
      });
      await seedUser(sandbox, { id: 'ops' });
      const { user, router } = await openUser(sandbox);

      await user.click(screen.getByRole('button', { name: 'Move to another identity provider' }));
      const dialog = await screen.findByRole('dialog', {
        name: 'Move user to another identity provider',
      });
      await user.click(within(dialog).getByRole('combobox', { name: 'New identity provider' }));
      await user.click(screen.getByRole('option', { name: 'acme' }));
      await user.click(within(dialog).getByRole('button', { name: 'Move user' }));

      await waitFor(() => {
        expect(router.state.location.search).toBe('?idp=acme');
      });
      expect(sandbox.state.users.get('ops')?.identityProviderId).toBe('acme');
      expect(await screen.findByText('User of identity provider acme')).toBeVisible();

      // Delete is refused for another IdP's user; its fix, the move back, is offered in place.
      await user.click(await screen.findByRole('tab', { name: 'Offboard' }));
      const remove = await screen.findByRole('region', { name: 'Step 3: Delete' });
      expect(within(remove).getByRole('button', { name: 'Delete user' })).toBeDisabled();
      expect(within(remove).getByText(/move this user to the default IdP first/)).toBeVisible();

      await user.click(screen.getByRole('tab', { name: 'Rights' }));
      // The tab is in the URL now; the panel shows once the page has read it.
      await waitFor(() => {
        expect(router.state.location.search).toBe('?idp=acme&tab=rights');
      });
      await waitFor(() => {
        expect(screen.getByText('The API cannot list these rights')).toBeVisible();
      });
      expect(screen.getByRole('form', { name: 'Grant rights' })).toBeVisible();
      expect(screen.getByRole('form', { name: 'Revoke rights' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );
});

describe('deleting a user', () => {
  it('deletes from the Offboard tab only, after a confirm naming the user, then shows the users list', async () => {
    const sandbox = createSandbox();
    await seedUser(sandbox, { id: 'ops' });
    const { user, router } = await openUser(sandbox);

    // One place per action: the profile offers no delete.
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Offboard' }));
    await waitFor(() => {
      expect(router.state.location.search).toBe('?tab=offboard');
    });
    const remove = await screen.findByRole('region', { name: 'Step 3: Delete' });
    expect(screen.getAllByRole('button', { name: /Delete/ })).toHaveLength(1);
    await user.click(within(remove).getByRole('button', { name: 'Delete user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user ops?' });
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/users');
    });
    expect(await screen.findByText('User ops deleted')).toBeVisible();
    expect(sandbox.state.users.get('ops')).toBeUndefined();
  });
});

describe('a user without admin rights (jwt mode)', () => {
  it('sees itself read-only: no edit, grant, revoke or delete controls', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'user-detail-test-secret' });
    const [alice] = await seedParties(sandbox, ['alice'], {
      token: await signInAs(sandbox, 'participant_admin'),
    });
    await seedUser(
      sandbox,
      { id: 'viewer', primaryParty: alice ?? '', rights: [readAs(alice ?? '')] },
      await signInAs(sandbox, 'participant_admin'),
    );
    await signInAs(sandbox, 'viewer');
    const { user } = await openUser(sandbox, '/users/viewer');

    expect(screen.getByText(/^Read-only/)).toBeVisible();
    expect(
      within(screen.getByRole('group', { name: 'Primary party' })).getByTitle(alice ?? ''),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Deactivated' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete user' })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Move to another identity provider' }),
    ).not.toBeInTheDocument();
    // Offboarding is for those who may change the user: no tab, and its URL shows the profile.
    expect(screen.queryByRole('tab', { name: 'Offboard' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Access check' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Activity' })).toBeVisible();

    await user.click(screen.getByRole('tab', { name: 'Rights' }));
    const table = await screen.findByRole('table', { name: 'Rights of viewer' });
    expect(within(table).getByText('Read as')).toBeVisible();
    expect(within(table).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke selected' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Grant rights' })).not.toBeInTheDocument();
  });
});

describe('an IdP admin (jwt mode)', () => {
  it(
    'manages its IdP’s user but cannot revoke or grant admin-only rights, nor move it',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'user-detail-test-secret' });
      const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
      const [carol] = await seedParties(sandbox, ['carol'], {
        identityProviderId: 'acme',
        token: adminToken,
      });
      await seedUser(
        sandbox,
        {
          id: 'acme-ops',
          identityProviderId: 'acme',
          rights: [actAs(carol ?? ''), { kind: { CanReadAsAnyParty: { value: {} } } }],
        },
        adminToken,
      );
      const { user } = await openUser(sandbox, '/users/acme-ops?idp=acme');

      expect(screen.getByRole('button', { name: 'Save changes' })).toBeVisible();
      expect(
        screen.queryByRole('button', { name: 'Move to another identity provider' }),
      ).not.toBeInTheDocument();
      await user.click(screen.getByRole('tab', { name: 'Offboard' }));
      const remove = await screen.findByRole('region', { name: 'Step 3: Delete' });
      expect(within(remove).getByRole('button', { name: 'Delete user' })).toBeEnabled();

      await user.click(screen.getByRole('tab', { name: 'Rights' }));
      expect(
        await screen.findByRole('checkbox', { name: `Select Act as ${carol ?? ''}` }),
      ).toBeEnabled();
      expect(screen.getByRole('checkbox', { name: 'Select Read as any party' })).toBeDisabled();
      const grant = screen.getByRole('form', { name: 'Grant rights' });
      expect(within(grant).getByRole('checkbox', { name: 'Participant admin' })).toBeDisabled();
      expect(
        within(grant).getByRole('checkbox', { name: 'Identity provider admin' }),
      ).toBeEnabled();
    },
    JOURNEY_TIMEOUT,
  );
});

describe('user page address', () => {
  it(
    "moves to the user's own IdP in the URL when an IdP admin opens it without one",
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'user-page-address-secret' });
      await signInAsIdentityProviderAdmin(sandbox);
      const { router } = renderRoute('/users/acme-admin?tab=offboard', { sandbox });

      expect(await screen.findByText('User of identity provider acme')).toBeVisible();
      // The tab stays across the move to the canonical URL.
      expect(router.state.location.search).toBe('?idp=acme&tab=offboard');
      // It is the caller itself: nothing offers to delete it.
      const remove = await screen.findByRole('region', { name: 'Step 3: Delete' });
      expect(within(remove).getByRole('button', { name: 'Delete user' })).toBeDisabled();
      expect(within(remove).getByText('You cannot offboard yourself.')).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );
});

describe('user page tabs and the unknown user', () => {
  it('opens the tab its URL names, and back returns to the tab before', async () => {
    const sandbox = createSandbox();
    await seedUser(sandbox, { id: 'ops' });
    const { user, router } = await openUser(sandbox, '/users/ops?tab=rights');

    expect(screen.getByRole('tab', { name: 'Rights' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Current rights' })).toBeVisible();

    await user.click(screen.getByRole('tab', { name: 'Profile' }));
    await waitFor(() => {
      expect(router.state.location.search).toBe('');
    });
    await waitFor(() => {
      expect(screen.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
    });

    await router.navigate(-1);
    await waitFor(() => {
      expect(screen.getByRole('tab', { name: 'Rights' })).toHaveAttribute('aria-selected', 'true');
    });
    expect(router.state.location.search).toBe('?tab=rights');
  });

  it(
    'has one place per action: each tab its own copies, one delete, and the keyboard moves between tabs',
    async () => {
      const sandbox = createSandbox();
      const [alice] = await seedParties(sandbox, ['alice']);
      await seedUser(sandbox, {
        id: 'ops',
        primaryParty: alice ?? '',
        rights: [actAs(alice ?? '')],
      });
      const { user, router } = await openUser(sandbox);

      const tabNames = screen.getAllByRole('tab').map((tab) => tab.textContent);
      expect(tabNames).toEqual(['Profile', 'Rights', 'Access check', 'Offboard', 'Activity']);
      const copies: Record<string, string[]> = {};
      const deletes: Record<string, number> = {};
      for (const [name, panelContent] of [
        ['Profile', 'Save changes'],
        ['Rights', 'Revoke selected'],
        ['Access check', 'Check access'],
        ['Offboard', 'Revoke all 1 right'],
      ] as const) {
        await user.click(screen.getByRole('tab', { name }));
        await screen.findByRole('button', { name: panelContent }, { timeout: 5000 });
        copies[name] = screen
          .queryAllByRole('button', { name: /^Copy .*as…$/ })
          .map((button) => button.textContent);
        deletes[name] = screen.queryAllByRole('button', { name: /Delete/ }).length;
      }
      expect(copies).toEqual({
        Profile: ['Copy update as…'],
        Rights: ['Copy revoke as…', 'Copy grant as…'],
        'Access check': [],
        Offboard: ['Copy deactivate as…', 'Copy revoke all as…', 'Copy delete as…'],
      });
      expect(deletes).toEqual({ Profile: 0, Rights: 0, 'Access check': 0, Offboard: 1 });

      // Arrow keys move the selection, and the URL with it.
      screen.getByRole('tab', { name: 'Offboard' }).focus();
      await user.keyboard('{ArrowRight}');
      await waitFor(() => {
        expect(router.state.location.search).toBe('?tab=activity');
      });
      expect(screen.getByRole('tab', { name: 'Activity' })).toHaveFocus();
      expect(await screen.findByText('No changes made from this browser.')).toBeVisible();
      await user.keyboard('{ArrowLeft}');
      await waitFor(() => {
        expect(router.state.location.search).toBe('?tab=offboard');
      });
      expect(await screen.findByRole('region', { name: 'Offboard' })).toBeVisible();
    },
    // Four tabs opened in turn on a shared machine.
    2 * JOURNEY_TIMEOUT,
  );

  it('says there is no such user, with the way back to the users and no Retry', async () => {
    allowConsole(/USER_NOT_FOUND/);
    const { user, router } = renderRoute('/users/ghost?idp=acme');

    expect(await screen.findByText('No user “ghost”')).toBeVisible();
    expect(screen.getByText(/no user with this id in identity provider acme/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to users' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/users');
    });
  });
});
