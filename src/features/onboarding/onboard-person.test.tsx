import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type NetworkIntercept, type Sandbox } from '@/testing/sandbox-network';
import { sandboxJson, seedParties } from '@/testing/seed-parties';
import { mintToken, signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const JWT_SECRET = 'onboard-person-test-secret';
const IDP = 'acme-idp';
// Whole-app journeys through form, plan and run; the default 5 s is tight on a shared machine.
const JOURNEY_TIMEOUT = 30_000;

const acmeProvider = {
  id: 'acme',
  name: 'Acme SSO',
  identityProviderId: IDP,
  oidc: {
    authority: 'https://idp.acme.example',
    client_id: 'ledger-console',
    scope: 'openid',
    extraQueryParams: {},
  },
};

/** The console server's provider list (not the participant's: the sandbox has no such route). */
function withProviders(writes: string[]): NetworkIntercept {
  return (request, sandboxFetch) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/__console/sign-in-providers') {
      return Promise.resolve(Response.json({ providers: [acmeProvider] }));
    }
    if (request.method !== 'GET') writes.push(`${request.method} ${pathname}`);
    return sandboxFetch(request);
  };
}

function mintAdminToken(sandbox: Sandbox): Promise<string> {
  return mintToken(sandbox, 'participant_admin');
}

async function setUp() {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
  const setup = await signInAsIdentityProviderAdmin(sandbox, { identityProviderId: IDP });
  return { sandbox, ...setup };
}

async function openOnboarding(sandbox: Sandbox, path = '/onboard') {
  const writes: string[] = [];
  const view = renderRoute(path, { sandbox, intercept: withProviders(writes) });
  await screen.findByRole('form', { name: 'Onboard a person' });
  return { ...view, writes };
}

async function fill(
  user: UserEvent,
  { subject, displayName, hint }: { subject: string; displayName?: string; hint: string },
) {
  await user.type(screen.getByRole('textbox', { name: /^Subject \(user id\)/ }), subject);
  if (displayName) {
    await user.type(screen.getByRole('textbox', { name: /^Display name/ }), displayName);
  }
  await user.type(screen.getByRole('textbox', { name: /^Party hint/ }), hint);
}

function planItems() {
  return within(screen.getByRole('list', { name: 'Planned calls' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

describe('onboard a person', () => {
  it(
    'plans the exact calls, runs them in order and hands off a message',
    async () => {
      const { sandbox } = await setUp();
      const namespace = sandbox.state.namespace;
      const { user, writes, router } = await openOnboarding(sandbox);

      expect(screen.getByRole('textbox', { name: /^Identity provider/ })).toHaveValue(IDP);
      // The least-privilege default, DEFAULT_RIGHTS_PRESET, which a bulk import without rights uses too.
      expect(screen.getByRole('radio', { name: /^Acts as own party/ })).toBeChecked();
      await fill(user, { subject: 'dana', displayName: 'Dana Doe', hint: 'dana' });
      expect(screen.getByText(`dana::${namespace}`)).toBeVisible();
      await user.click(screen.getByRole('radio', { name: /^IdP co-admin/ }));
      await user.click(screen.getByRole('button', { name: 'Review the plan' }));

      await screen.findByRole('list', { name: 'Planned calls' });
      const items = planItems();
      expect(items).toHaveLength(4);
      expect(items[0]).toMatch(/^POST\/v2\/usersCreate user dana in identity provider acme-idp/);
      expect(items[0]).toContain('"ledger-console/display-name": "Dana Doe"');
      expect(items[1]).toMatch(/^POST\/v2\/partiesAllocate party dana::/);
      expect(items[1]).toContain('"userId": "dana"');
      expect(items[2]).toMatch(/^PATCH\/v2\/users\/danaSet dana::\S+ as the primary party/);
      expect(items[2]).toContain('"primary_party"');
      expect(items[3]).toMatch(
        /^POST\/v2\/users\/dana\/rightsGrant Identity provider admin to dana/,
      );
      // Reviewing reads; it never writes.
      expect(writes).toEqual([]);

      await user.click(screen.getByRole('button', { name: 'Run the plan' }));

      expect(await screen.findByText('dana is onboarded')).toBeVisible();
      expect(writes).toEqual([
        'POST /v2/users',
        'POST /v2/parties',
        'PATCH /v2/users/dana',
        'POST /v2/users/dana/rights',
      ]);
      const party = `dana::${namespace}`;
      expect(sandbox.state.users.get('dana')).toMatchObject({
        identityProviderId: IDP,
        primaryParty: party,
        annotations: { 'ledger-console/display-name': 'Dana Doe' },
      });
      expect(sandbox.state.users.rights('dana')).toEqual(
        expect.arrayContaining([
          { kind: 'CanActAs', party },
          expect.objectContaining({ kind: 'IdentityProviderAdmin' }),
        ]),
      );
      expect(sandbox.state.users.rights('dana')).toHaveLength(2);

      const message = screen.getByRole<HTMLTextAreaElement>('textbox', {
        name: 'Message for the person',
      });
      await waitFor(() => {
        expect(message.value).toContain('choose "Acme SSO"');
      });
      const text = message.value;
      expect(text).toContain(`Participant: ${sandbox.state.participantId}`);
      expect(text).toContain(`Identity provider: ${IDP}`);
      expect(text).toContain('User id: dana');
      expect(text).toContain(`Party: ${party}`);
      expect(text).toContain('sign in as dana (login hint: dana)');
      expect(text).toContain('http://localhost:3000/sign-in');
      expect(text).toContain(`- submit commands as ${party}`);
      expect(text).toContain(`- administer the users and parties of identity provider ${IDP}`);

      await user.click(screen.getByRole('button', { name: 'Onboard another person' }));
      expect(screen.getByRole('textbox', { name: /^Subject \(user id\)/ })).toHaveValue('');

      // Every call of the run is in the activity log, like any admin change made here.
      await router.navigate('/activity?log=browser');
      const table = await screen.findByRole('table', { name: 'Activity' });
      await waitFor(() => {
        expect(
          within(table)
            .getAllByRole('row')
            .slice(1)
            .map((row) => row.textContent),
        ).toEqual([
          expect.stringContaining('user.rights.grant'),
          expect.stringContaining('user.update'),
          expect.stringContaining('party.allocate'),
          expect.stringContaining('user.create'),
        ]);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'deletes the created user when the hint is taken between plan and run, then reuses the party on retry',
    async () => {
      const { sandbox, adminToken } = await setUp();
      const party = `erin::${sandbox.state.namespace}`;
      const { user, writes } = await openOnboarding(sandbox);
      await fill(user, { subject: 'erin', hint: 'erin' });
      await user.click(screen.getByRole('button', { name: 'Review the plan' }));
      await screen.findByRole('list', { name: 'Planned calls' });

      // Someone else allocates the hint after the plan was shown.
      await seedParties(sandbox, ['erin'], { identityProviderId: IDP, token: adminToken });
      await user.click(screen.getByRole('button', { name: 'Run the plan' }));

      const report = await screen.findByRole('alert', { name: 'The run stopped' });
      expect(report).toHaveTextContent(/POST \/v2\/parties failed: .*Party already exists/);
      expect(report).toHaveTextContent(
        `The party ${party} was allocated by someone else after the plan was made.`,
      );
      expect(report).toHaveTextContent('Deleted user erin.');
      expect(report).toHaveTextContent('No party was created by this run.');
      expect(report).toHaveTextContent('Once user erin is deleted, nothing of this run remains.');
      expect(writes).toEqual(['POST /v2/users', 'POST /v2/parties', 'DELETE /v2/users/erin']);
      expect(sandbox.state.users.get('erin')).toBeUndefined();
      const calls = within(screen.getByRole('list', { name: 'Calls' })).getAllByRole('listitem');
      expect(calls.map((item) => item.textContent.slice(0, 7))).toEqual([
        'donePOS',
        'failedP',
        'not run',
      ]);

      // The retry reads the participant again: the party is of this IdP, so it is reused.
      await user.click(screen.getByRole('button', { name: 'Plan again' }));
      await screen.findByRole('list', { name: 'Planned calls' });
      expect(
        screen.getByText(`Party ${party} exists already in this identity provider: it is reused.`),
      ).toBeVisible();
      const items = planItems();
      expect(items.map((item) => item.split('/v2')[0])).toEqual(['POST', 'PATCH', 'POST']);
      expect(items[2]).toContain(`Grant Act as ${party} to erin`);

      await user.click(screen.getByRole('button', { name: 'Run the plan' }));
      expect(await screen.findByText('erin is onboarded')).toBeVisible();
      expect(sandbox.state.users.get('erin')).toMatchObject({ primaryParty: party });
      expect(sandbox.state.users.rights('erin')).toEqual([{ kind: 'CanActAs', party }]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers an existing user only its missing rights, and nothing once complete',
    async () => {
      const { sandbox, adminToken } = await setUp();
      const [party] = await seedParties(sandbox, ['fay'], {
        identityProviderId: IDP,
        token: adminToken,
      });
      await sandboxJson(
        sandbox,
        'POST',
        '/v2/users',
        {
          user: { id: 'fay', primaryParty: '', isDeactivated: false, identityProviderId: IDP },
          rights: [{ kind: { CanReadAs: { value: { party } } } }],
        },
        adminToken,
      );
      const first = await openOnboarding(sandbox);
      await fill(first.user, { subject: 'fay', hint: 'fay' });
      await first.user.click(screen.getByRole('radio', { name: /^External signer/ }));
      await first.user.click(screen.getByRole('button', { name: 'Review the plan' }));

      await screen.findByRole('list', { name: 'Planned calls' });
      expect(
        screen.getByText('User fay exists already: it is kept, not created again.'),
      ).toBeVisible();
      expect(screen.getByText(`fay already holds Read as ${party ?? ''}.`)).toBeVisible();
      const items = planItems();
      expect(items).toHaveLength(2);
      expect(items[0]).toMatch(/^PATCH/);
      expect(items[1]).toContain(`Grant Execute as ${party ?? ''} to fay`);
      await first.user.click(screen.getByRole('button', { name: 'Run the plan' }));
      expect(await screen.findByText('fay is onboarded')).toBeVisible();
      expect(first.writes).toEqual(['PATCH /v2/users/fay', 'POST /v2/users/fay/rights']);
      first.unmount();

      // The same again: nothing left to do, nothing sent.
      const second = await openOnboarding(sandbox);
      await fill(second.user, { subject: 'fay', hint: 'fay' });
      await second.user.click(screen.getByRole('radio', { name: /^External signer/ }));
      await second.user.click(screen.getByRole('button', { name: 'Review the plan' }));
      expect(
        await screen.findByText('Nothing to do: this person is onboarded as planned already.'),
      ).toBeVisible();
      await second.user.click(screen.getByRole('button', { name: 'Show the hand-off' }));
      expect(await screen.findByText('fay is onboarded')).toBeVisible();
      expect(second.writes).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it('shows each problem on its field, keeps what was typed and sends nothing', async () => {
    const { sandbox } = await setUp();
    const { user, writes } = await openOnboarding(sandbox);
    await fill(user, { subject: 'dana doe', hint: 'dana!' });
    await user.click(screen.getByRole('radio', { name: /^Custom/ }));
    await user.click(screen.getByRole('button', { name: 'Review the plan' }));

    const subject = screen.getByRole('textbox', { name: /^Subject \(user id\)/ });
    await waitFor(() => {
      expect(subject).toHaveAccessibleDescription(/A space is not allowed in a user id/);
    });
    expect(screen.getByRole('textbox', { name: /^Party hint/ })).toHaveAccessibleDescription(
      /"!" is not allowed/,
    );
    expect(screen.getByText('Choose at least one right')).toBeVisible();
    expect(screen.getByText('The new party id will be <hint>::')).toBeVisible();
    expect(subject).toHaveValue('dana doe');
    expect(screen.getByRole('textbox', { name: /^Party hint/ })).toHaveValue('dana!');
    expect(writes).toEqual([]);
  });

  it('Cancel goes back to the users list, sending nothing', async () => {
    const { sandbox } = await setUp();
    const { user, writes, router } = await openOnboarding(sandbox);
    await fill(user, { subject: 'gus', hint: 'gus' });
    await user.click(
      within(screen.getByRole('form', { name: 'Onboard a person' })).getByRole('link', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/users');
    });
    expect(writes).toEqual([]);
  });

  it('blocks a subject taken by a user of another IdP', async () => {
    const { sandbox, adminToken } = await setUp();
    await sandboxJson(
      sandbox,
      'POST',
      '/v2/users',
      { user: { id: 'ivan', primaryParty: '', isDeactivated: false, identityProviderId: '' } },
      adminToken,
    );
    const { user, writes } = await openOnboarding(sandbox);
    await fill(user, { subject: 'ivan', hint: 'ivan' });
    await user.click(screen.getByRole('button', { name: 'Review the plan' }));

    expect(await screen.findByText(/the id is taken in another identity provider/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Run the plan' })).toBeDisabled();
    expect(writes).toEqual([]);
  });

  it('blocks a hint taken by a party outside this IdP', async () => {
    const { sandbox, adminToken } = await setUp();
    // A default-IdP party: the IdP admin sees it, but not as one of its own.
    await seedParties(sandbox, ['gus'], { token: adminToken });
    const { user, writes } = await openOnboarding(sandbox);
    await fill(user, { subject: 'gus', hint: 'gus' });
    await user.click(screen.getByRole('button', { name: 'Review the plan' }));

    expect(
      await screen.findByText(/exists already but is not a party of identity provider acme-idp/),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Run the plan' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Back to the form' }));
    expect(screen.getByRole('textbox', { name: /^Party hint/ })).toHaveValue('gus');
    expect(writes).toEqual([]);
  });

  it(
    'lets a participant admin onboard into the default IdP with an existing party',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
      await signInAs(sandbox, 'participant_admin');
      const [party = ''] = await seedParties(sandbox, ['hank'], {
        token: await mintAdminToken(sandbox),
      });
      const { user, writes } = await openOnboarding(sandbox, `/onboard?sub=hank&idp=${IDP}`);

      await user.type(screen.getByRole('textbox', { name: /^Party hint/ }), 'hank');
      await user.click(screen.getByRole('button', { name: 'Review the plan' }));

      // The request's IdP is not the default one: the field says so and can be corrected.
      const idp = screen.getByRole('textbox', { name: /^Identity provider/ });
      await waitFor(() => {
        expect(idp).toHaveAccessibleDescription(
          /A participant admin onboards into the default identity provider/,
        );
      });
      await user.clear(idp);

      await user.click(screen.getByRole('radio', { name: /^An existing party/ }));
      const picker = screen.getByRole('combobox', { name: /^Existing party/ });
      await waitFor(() => {
        expect(picker).toBeEnabled();
      });
      await user.type(picker, 'han');
      await user.click(await screen.findByRole('option', { name: new RegExp(`^hank ${party}`) }));
      await user.click(screen.getByRole('radio', { name: /^Reads own party/ }));
      await user.click(screen.getByRole('button', { name: 'Review the plan' }));

      await screen.findByRole('list', { name: 'Planned calls' });
      const items = planItems();
      expect(items.map((item) => item.split('/v2')[0])).toEqual(['POST', 'PATCH', 'POST']);
      expect(items[2]).toContain(`Grant Read as ${party} to hank`);
      await user.click(screen.getByRole('button', { name: 'Run the plan' }));
      expect(await screen.findByText('hank is onboarded')).toBeVisible();
      expect(writes).toEqual([
        'POST /v2/users',
        'PATCH /v2/users/hank',
        'POST /v2/users/hank/rights',
      ]);
      expect(sandbox.state.users.get('hank')).toMatchObject({
        identityProviderId: '',
        primaryParty: party,
      });
      expect(sandbox.state.users.rights('hank')).toEqual([{ kind: 'CanReadAs', party }]);
    },
    JOURNEY_TIMEOUT,
  );
});
