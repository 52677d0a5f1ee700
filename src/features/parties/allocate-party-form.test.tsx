import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedPartyRecords } from '@/testing/seed-parties';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { seedUsers } from '@/testing/seed-users';
import { signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const JWT_SECRET = 'allocate-party-form-test-secret';
// Whole-app journeys through a form and the page it opens; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 20_000;

const hintField = () => screen.getByRole('textbox', { name: /^Party id hint/ });
const submit = () => screen.getByRole('button', { name: 'Allocate party' });

async function openForm(sandbox = createSandbox(), path = '/parties/new') {
  const view = renderRoute(path, { sandbox });
  await screen.findByRole('form', { name: 'Allocate party' });
  return view;
}

describe('allocate party', () => {
  it(
    'allocates a party with annotations and a user who may act as it, then opens it',
    async () => {
      const sandbox = createSandbox();
      seedUsers(sandbox, 1, { prefix: 'ops' });
      const { user, router, interceptNetwork } = await openForm(sandbox);
      const requests: string[] = [];
      interceptNetwork((request, sandboxFetch) => {
        const call = `${request.method} ${new URL(request.url).pathname}`;
        // The update list is a read sent as POST (the new party's page reads its hosting there).
        if (request.method !== 'GET' && call !== 'POST /v2/updates') requests.push(call);
        return sandboxFetch(request);
      });

      await user.type(hintField(), 'Alice Ops');
      expect(await screen.findByText(/^Alice Ops::1220/)).toBeVisible();
      await user.type(screen.getByRole('combobox', { name: /^Grant Act as to user/ }), 'ops-0001');
      await user.click(screen.getByRole('button', { name: 'Add annotation' }));
      await user.type(screen.getByRole('textbox', { name: 'Annotation 1 key' }), 'team');
      await user.type(screen.getByRole('textbox', { name: 'Annotation 1 value' }), 'ledger ops');
      // One synchronizer: the participant uses it, so the form does not ask.
      expect(screen.queryByRole('combobox', { name: /^Synchronizer/ })).not.toBeInTheDocument();
      await user.click(submit());

      const party = `Alice Ops::${sandbox.state.namespace}`;
      expect(await screen.findByRole('heading', { name: 'Alice Ops', level: 1 })).toBeVisible();
      expect(router.state.location.pathname).toBe(`/parties/${encodeURIComponent(party)}`);
      // The first toast loads its module, so it may follow the navigation.
      expect(await screen.findByText(`Party ${party} allocated`)).toBeVisible();
      expect(requests).toEqual(['POST /v2/parties']);
      expect(sandbox.state.parties.get(party)).toMatchObject({
        isLocal: true,
        identityProviderId: '',
        annotations: { team: 'ledger ops' },
      });
      expect(sandbox.state.users.rights('ops-0001')).toEqual([{ kind: 'CanActAs', party }]);
      expect(
        within(screen.getByRole('group', { name: 'Party id' })).getByText(party),
      ).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it('lets the participant name the party when the hint is empty', async () => {
    const sandbox = createSandbox();
    const { user, router } = await openForm(sandbox);

    await user.click(submit());

    expect(
      await screen.findByRole('heading', { name: /^party-[0-9a-f-]{36}$/, level: 1 }),
    ).toBeVisible();
    expect(decodeURIComponent(router.state.location.pathname)).toMatch(
      new RegExp(`^/parties/party-[0-9a-f-]{36}::${sandbox.state.namespace}$`),
    );
  });

  it('shows what is wrong with the hint as it is typed, and sends nothing', async () => {
    const sandbox = createSandbox();
    const { user } = await openForm(sandbox);

    await user.type(hintField(), 'alice!');
    await user.click(submit());
    await waitFor(() => {
      expect(hintField()).toHaveAccessibleDescription(/"!" is not allowed/);
    });

    await user.clear(hintField());
    await user.type(hintField(), 'alice::x');
    expect(hintField()).toHaveAccessibleDescription(/must not contain "::"/);

    await user.clear(hintField());
    await user.click(hintField());
    await user.paste('a'.repeat(186));
    expect(hintField()).toHaveAccessibleDescription(/At most 185 characters \(this has 186\)/);
    expect(sandbox.state.parties.page('', '', 10)).toEqual([]);
  });

  it('puts a duplicate hint on the hint field and keeps what was typed', async () => {
    const sandbox = createSandbox();
    seedPartyRecords(sandbox, [{ hint: 'alice' }]);
    const { user } = await openForm(sandbox);

    await user.type(hintField(), 'alice');
    await user.click(screen.getByRole('button', { name: 'Add annotation' }));
    await user.type(screen.getByRole('textbox', { name: 'Annotation 1 key' }), 'team');
    await user.type(screen.getByRole('textbox', { name: 'Annotation 1 value' }), 'ops');
    await user.click(submit());

    await waitFor(() => {
      expect(hintField()).toHaveAccessibleDescription(/Party already exists/);
    });
    expect(hintField()).toHaveAttribute('aria-invalid', 'true');
    expect(hintField()).toHaveValue('alice');
    expect(screen.getByRole('textbox', { name: 'Annotation 1 value' })).toHaveValue('ops');
    expect(screen.queryByRole('alert', { name: /./ })).not.toBeInTheDocument();
  });

  it('puts an unknown user on the user field, and allocates nothing', async () => {
    const sandbox = createSandbox();
    const { user } = await openForm(sandbox);

    await user.type(hintField(), 'bob');
    const grantTo = screen.getByRole('combobox', { name: /^Grant Act as to user/ });
    await user.type(grantTo, 'nobody');
    await user.click(submit());

    await waitFor(() => {
      expect(grantTo).toHaveAccessibleDescription(/unknown user "nobody"/);
    });
    expect(hintField()).toHaveValue('bob');
    expect(sandbox.state.parties.get(`bob::${sandbox.state.namespace}`)).toBeUndefined();
  });

  it(
    'says the user belongs to another identity provider, allocates there on request, and checks the user as it is typed',
    async () => {
      const sandbox = createSandbox();
      seedIdentityProviders(sandbox, [{ identityProviderId: 'acme-idp' }]);
      const [trader] = seedUsers(sandbox, 1, { prefix: 'trader', identityProviderId: 'acme-idp' });
      const { user } = await openForm(sandbox);

      await user.type(hintField(), 'desk');
      const grantTo = screen.getByRole('combobox', { name: /^Grant Act as to user/ });
      await user.click(grantTo);
      await user.paste(trader ?? '');
      await waitFor(() => {
        expect(grantTo).toHaveAccessibleDescription(
          /⚠ “trader-0001” is not a user of the default identity provider that you may see/,
        );
      });
      await user.click(submit());

      const cause = await screen.findByText(
        'User “trader-0001” belongs to identity provider acme-idp, not to the default identity provider: a party can be granted only to a user of its own identity provider.',
      );
      const alert = cause.closest<HTMLElement>('[role="alert"]') ?? document.body;
      await user.click(
        within(alert).getByRole('button', { name: 'Use identity provider acme-idp' }),
      );
      await waitFor(() => {
        expect(grantTo).toHaveAccessibleDescription(/✓ User exists in acme-idp/);
      });
      await user.click(submit());

      const party = `desk::${sandbox.state.namespace}`;
      expect(await screen.findByRole('heading', { name: 'desk', level: 1 })).toBeVisible();
      expect(sandbox.state.parties.get(party)).toMatchObject({ identityProviderId: 'acme-idp' });
      expect(sandbox.state.users.rights(trader ?? '')).toEqual([{ kind: 'CanActAs', party }]);
    },
    JOURNEY_TIMEOUT,
  );

  it('copies the request Allocate party would send as curl, and Cancel goes back to the parties', async () => {
    const { user, router } = await openForm();
    await user.type(hintField(), 'carol');
    await user.click(screen.getByRole('button', { name: 'Copy as…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'curl' }));
    const copied = await navigator.clipboard.readText();
    expect(copied).toMatch(/^curl -sS -X POST '.*\/v2\/parties'/);
    expect(copied).toContain('"partyIdHint": "carol"');

    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/parties');
    });
  });

  it(
    'offers the new party in the party picker of the create-user form right away',
    async () => {
      const sandbox = createSandbox();
      seedPartyRecords(sandbox, [{ hint: 'existing' }]);
      const { user, router } = renderRoute('/users/new', { sandbox });
      const primaryParty = () => screen.getByRole('combobox', { name: /^Primary party/ });
      await waitFor(() => {
        expect(primaryParty()).toBeEnabled();
      });
      // The picker's parties are now cached, as they would be after a visit to this page.
      await user.click(primaryParty());
      expect(await screen.findByRole('option', { name: /^existing / })).toBeVisible();

      await router.navigate('/parties/new');
      await screen.findByRole('form', { name: 'Allocate party' });
      await user.type(hintField(), 'zed');
      await user.click(submit());
      await screen.findByRole('heading', { name: 'zed', level: 1 });

      await router.navigate('/users/new');
      await waitFor(() => {
        expect(primaryParty()).toBeEnabled();
      });
      await user.type(primaryParty(), 'ze');
      expect(
        await screen.findByRole('option', {
          name: `zed zed::${sandbox.state.namespace}`,
        }),
      ).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );
});

describe('allocate party on a participant with several synchronizers', () => {
  it(
    'asks for the synchronizer and allocates the party there',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      const [, global] = sandbox.state.synchronizerIds;
      const { user } = await openForm(sandbox);

      const synchronizer = await screen.findByRole('combobox', { name: /^Synchronizer/ });
      expect(synchronizer).toBeRequired();
      await user.type(hintField(), 'alice');
      await user.click(submit());
      await waitFor(() => {
        expect(synchronizer).toHaveAccessibleDescription(/Choose a synchronizer/);
      });

      await user.click(synchronizer);
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        expect.stringMatching(/^local \(local::1220/),
        expect.stringMatching(/^global \(global::1220/),
      ]);
      await user.click(screen.getByRole('option', { name: /^global / }));
      await user.click(submit());

      expect(await screen.findByRole('heading', { name: 'alice', level: 1 })).toBeVisible();
      expect(sandbox.state.hostingSynchronizers(`alice::${sandbox.state.namespace}`)).toEqual([
        global,
      ]);
    },
    JOURNEY_TIMEOUT,
  );
});

describe('allocate party when the synchronizers cannot be listed', () => {
  it(
    'shows the failure in place with Retry, which brings the synchronizer select',
    async () => {
      const sandbox = createSandbox({ synchronizers: ['local', 'global'] });
      let isDown = true;
      const { user } = renderRoute('/parties/new', {
        sandbox,
        intercept: (request, sandboxFetch) =>
          isDown && new URL(request.url).pathname === '/v2/state/connected-synchronizers'
            ? Promise.resolve(
                Response.json(
                  {
                    code: 'SERVICE_NOT_RUNNING',
                    cause: 'Synchronizers are down',
                    errorCategory: 1,
                  },
                  { status: 503 },
                ),
              )
            : sandboxFetch(request),
      });
      await screen.findByRole('form', { name: 'Allocate party' });

      expect(await screen.findByText('Synchronizers are down')).toBeVisible();
      expect(screen.getByText(/The connected synchronizers could not be loaded/)).toBeVisible();
      expect(screen.queryByRole('combobox', { name: /^Synchronizer/ })).not.toBeInTheDocument();

      isDown = false;
      await user.click(screen.getByRole('button', { name: 'Retry' }));

      expect(await screen.findByRole('combobox', { name: /^Synchronizer/ })).toBeRequired();
      expect(screen.queryByText('Synchronizers are down')).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );
});

describe('allocate party as an IdP admin (jwt mode)', () => {
  it(
    'allocates into its own IdP, which it cannot change',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
      await signInAsIdentityProviderAdmin(sandbox);
      const { user, router } = await openForm(sandbox);

      const identityProvider = screen.getByRole('combobox', { name: /^Identity provider/ });
      await waitFor(() => {
        expect(identityProvider).toHaveValue('acme');
      });
      expect(identityProvider).toBeDisabled();
      expect(identityProvider).toHaveAccessibleDescription(/into your own identity provider/);

      await user.type(hintField(), 'acme-party');
      await user.click(submit());

      expect(await screen.findByRole('heading', { name: 'acme-party', level: 1 })).toBeVisible();
      const party = `acme-party::${sandbox.state.namespace}`;
      expect(router.state.location.search).toBe('?idp=acme');
      expect(sandbox.state.parties.get(party)?.identityProviderId).toBe('acme');
      expect(
        // The party page shows its hosting once the party details arrive, after the heading.
        within(await screen.findByRole('group', { name: 'Hosting' })).getByText('Local'),
      ).toBeVisible();
      // An IdP admin holds no read right for it: the Hosting section says so and reads nothing
      // the participant would refuse.
      expect(
        screen.getByText(/^Where this party is hosted is read from the update stream/),
      ).toHaveTextContent('You hold none of these rights.');
    },
    JOURNEY_TIMEOUT,
  );

  it('tells a user without admin rights that it cannot allocate', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
    seedUsers(sandbox, 1, { prefix: 'reader' });
    await signInAs(sandbox, 'reader-0001');
    renderRoute('/parties/new', { sandbox });

    expect(
      await screen.findByRole('region', { name: 'You may not allocate parties' }),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Allocate party' })).not.toBeInTheDocument();
  });
});
