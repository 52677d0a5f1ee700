import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type NetworkIntercept } from '@/testing/sandbox-network';
import { seedUsers } from '@/testing/seed-users';

// The whole page against an in-process sandbox. The console server's discovery endpoint is not
// the participant's, so the network in front answers it as that server would (its own behaviour
// is tested on loopback in server/src/oidc-discovery.test.ts); every Ledger API call is real.

const ISSUER = 'https://login.globex.example/realms/globex';
const JWKS = 'https://keys.globex.example/realms/globex/certs';

type ConsoleServerAnswer = { status: number; body: unknown };

function errorBody(code: string, cause: string, errorCategory: number) {
  return {
    code,
    cause,
    correlationId: null,
    traceId: null,
    context: {},
    resources: [],
    errorCategory,
    grpcCodeValue: errorCategory === 7 ? 7 : 14,
    retryInfo: null,
    definiteAnswer: null,
  };
}

const GOOD: ConsoleServerAnswer = {
  status: 200,
  body: {
    issuer: ISSUER,
    jwksUrl: JWKS,
    jwks: { keys: [{ kid: 'globex-1', kty: 'RSA', alg: 'RS256', use: 'sig' }] },
    checks: [
      { name: 'Issuer', status: 'ok', detail: `The discovery document names exactly ${ISSUER}.` },
      {
        name: 'JWKS location',
        status: 'ok',
        detail: `${JWKS}, on keys.globex.example — another host than the issuer's (login.globex.example).`,
      },
      { name: 'Signing keys', status: 'ok', detail: '1 signing key (RS256).' },
    ],
  },
};

/** The console server's discovery endpoint as the network in front; records the issuers asked. */
function consoleServer(answer: (issuer: string) => ConsoleServerAnswer) {
  const asked: string[] = [];
  const intercept: NetworkIntercept = (request, sandboxFetch) => {
    const url = new URL(request.url);
    if (url.pathname !== '/__console/oidc-discovery') return sandboxFetch(request);
    const issuer = url.searchParams.get('issuer') ?? '';
    asked.push(issuer);
    const { status, body } = answer(issuer);
    return Promise.resolve(Response.json(body, { status }));
  };
  return { asked, intercept };
}

const lookup = () => screen.getByRole('form', { name: 'Fill from issuer' });
const issuerUrl = () => within(lookup()).getByRole('textbox', { name: /issuer url/i });
const createForm = () => screen.getByRole('form', { name: 'Create identity provider' });
const field = (label: RegExp) => within(createForm()).getByRole('textbox', { name: label });

describe('delegate an identity provider', { timeout: 30_000 }, () => {
  it('fills from the issuer, creates the IdP and its first admin, and hands it over', async () => {
    const server = consoleServer(() => GOOD);
    const { user, sandbox } = renderRoute('/identity-providers/new', {
      intercept: server.intercept,
    });
    await screen.findByRole('form', { name: 'Fill from issuer' });

    // Plain http to a host that is not loopback: a field message, and nothing is asked.
    await user.type(issuerUrl(), 'http://login.globex.example/realms/globex');
    await user.click(within(lookup()).getByRole('button', { name: 'Fill from issuer' }));
    expect(issuerUrl()).toHaveAccessibleDescription(/Must be https \(http only on loopback/);
    expect(issuerUrl()).toHaveValue('http://login.globex.example/realms/globex');
    expect(server.asked).toEqual([]);

    await user.clear(issuerUrl());
    await user.type(issuerUrl(), ISSUER);
    await user.click(within(lookup()).getByRole('button', { name: 'Fill from issuer' }));

    const checks = await screen.findByRole('list', { name: 'Discovery checks' });
    expect(server.asked).toEqual([ISSUER]);
    expect(checks).toHaveTextContent('Signing keys: 1 signing key (RS256).');
    expect(checks).toHaveTextContent('another host than the issuer');
    expect(checks).toHaveTextContent(
      'Not yet configured: No identity provider on this participant has this issuer yet.',
    );
    expect(screen.getByRole('list', { name: 'Keys found (1)' })).toHaveTextContent(
      'globex-1 RSA · RS256 · sig',
    );
    expect(field(/^issuer/i)).toHaveValue(ISSUER);
    expect(field(/jwks url/i)).toHaveValue(JWKS);

    await user.type(field(/identity provider id/i), 'globex-idp');
    await user.click(
      within(createForm()).getByRole('button', { name: 'Create identity provider' }),
    );
    expect(await screen.findByText('Identity provider created')).toBeVisible();
    expect(sandbox.state.idps.get('globex-idp')).toMatchObject({ issuer: ISSUER, jwksUrl: JWKS });

    const adminForm = screen.getByRole('form', { name: 'Create first IdP admin' });
    const userId = within(adminForm).getByRole('textbox', { name: /user id/i });
    await user.type(userId, 'globex admin');
    await user.click(within(adminForm).getByRole('button', { name: 'Create IdP admin' }));
    expect(userId).toHaveAccessibleDescription(/A space is not allowed/);
    expect(sandbox.state.users.get('globex admin')).toBeUndefined();

    await user.clear(userId);
    await user.type(userId, 'globex-admin');
    // Copy as… copies the user create the button sends: this IdP, Identity provider admin only.
    await user.click(within(adminForm).getByRole('button', { name: 'Copy as…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Canton console' }));
    expect(await navigator.clipboard.readText()).toBe(
      'participant.ledger_api.users.create(id = "globex-admin", identityProviderAdmin = true, identityProviderId = "globex-idp")',
    );
    await user.click(within(adminForm).getByRole('button', { name: 'Create IdP admin' }));

    const sheet = await screen.findByRole('region', { name: 'Hand-off sheet' });
    expect(sandbox.state.users.get('globex-admin')).toMatchObject({
      identityProviderId: 'globex-idp',
      primaryParty: '',
    });
    expect(sandbox.state.users.rights('globex-admin')).toEqual([
      expect.objectContaining({ kind: 'IdentityProviderAdmin' }),
    ]);
    const text = within(sheet).getByLabelText('Hand-off sheet text');
    const participantId = sandbox.state.participantId;
    expect(text).toHaveTextContent(`Participant id: ${participantId}`);
    expect(text).toHaveTextContent('Identity provider id: globex-idp');
    expect(text).toHaveTextContent(`Issuer (iss): ${ISSUER}`);
    expect(text).toHaveTextContent(
      `Audience expected: https://daml.com/jwt/aud/participant/${participantId}`,
    );
    expect(text).toHaveTextContent('First IdP admin: globex-admin (right: IdentityProviderAdmin)');
    expect(text).toHaveTextContent('cannot: grant ParticipantAdmin');
    const snippet = within(sheet).getByLabelText('Sign-in configuration (--sign-in-config)');
    expect(JSON.parse(snippet.textContent)).toEqual({
      providers: [
        {
          id: 'globex-idp',
          name: 'globex-idp',
          issuer: ISSUER,
          clientId: 'ledger-console',
          scopes: ['openid', 'profile', 'email', 'offline_access'],
          audience: `https://daml.com/jwt/aud/participant/${participantId}`,
          identityProviderId: 'globex-idp',
        },
      ],
    });
    expect(within(sheet).getByRole('button', { name: 'Copy hand-off sheet' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'globex-admin' })).toHaveAttribute(
      'href',
      '/users/globex-admin?idp=globex-idp',
    );
  });

  it('shows the server’s verdict on the issuer on its field and keeps what was typed', async () => {
    const server = consoleServer((issuer) => ({
      status: 502,
      body: errorBody(
        'LEDGER_CONSOLE_ISSUER_MISMATCH',
        `The discovery document at ${issuer}/.well-known/openid-configuration names the issuer "${issuer}/", not "${issuer}"`,
        1,
      ),
    }));
    const { user, sandbox } = renderRoute('/identity-providers/new', {
      intercept: server.intercept,
    });
    await screen.findByRole('form', { name: 'Fill from issuer' });
    await user.type(issuerUrl(), ISSUER);
    await user.click(within(lookup()).getByRole('button', { name: 'Fill from issuer' }));

    expect(await screen.findByText(/names the issuer/, { selector: '*' })).toBeVisible();
    expect(issuerUrl()).toHaveAccessibleDescription(/names the issuer/);
    expect(issuerUrl()).toHaveValue(ISSUER);
    expect(field(/^issuer/i)).toHaveValue('');
    expect(screen.queryByRole('list', { name: 'Discovery checks' })).toBeNull();
    expect(sandbox.state.idps.list()).toEqual([]);
  });

  it('says so at the top when the caller is not a participant admin', async () => {
    const server = consoleServer(() => ({
      status: 403,
      body: errorBody(
        'LEDGER_CONSOLE_PARTICIPANT_ADMIN_REQUIRED',
        "Only a participant admin may have the console fetch an issuer's discovery document: user alice has no ParticipantAdmin right.",
        7,
      ),
    }));
    const { user } = renderRoute('/identity-providers/new', { intercept: server.intercept });
    await screen.findByRole('form', { name: 'Fill from issuer' });
    await user.type(issuerUrl(), ISSUER);
    await user.click(within(lookup()).getByRole('button', { name: 'Fill from issuer' }));

    const alert = await within(lookup()).findByRole('alert');
    expect(alert).toHaveTextContent('LEDGER_CONSOLE_PARTICIPANT_ADMIN_REQUIRED');
    expect(issuerUrl()).not.toHaveAccessibleDescription(/ParticipantAdmin/);
    expect(issuerUrl()).toHaveValue(ISSUER);
  });

  it('warns when an identity provider already has the issuer', async () => {
    const server = consoleServer(() => GOOD);
    const { user, sandbox } = renderRoute('/identity-providers/new', {
      intercept: server.intercept,
    });
    sandbox.state.idps.save({
      identityProviderId: 'globex-old',
      issuer: ISSUER,
      jwksUrl: JWKS,
      audience: '',
      isDeactivated: false,
    });
    await screen.findByRole('form', { name: 'Fill from issuer' });
    await user.type(issuerUrl(), ISSUER);
    await user.click(within(lookup()).getByRole('button', { name: 'Fill from issuer' }));

    const checks = await screen.findByRole('list', { name: 'Discovery checks' });
    expect(checks).toHaveTextContent(
      'Not yet configured: The identity provider globex-old already has this issuer',
    );
    expect(within(lookup()).getByRole('link', { name: 'Open globex-old' })).toHaveAttribute(
      'href',
      '/identity-providers/globex-old',
    );
  });

  it('offers Activate for an IdP created deactivated, whose admin could not sign in', async () => {
    const { user, sandbox } = renderRoute('/identity-providers/new');
    await screen.findByRole('form', { name: 'Create identity provider' });
    await user.type(field(/identity provider id/i), 'dormant');
    await user.type(field(/^issuer/i), 'https://dormant.example');
    await user.type(field(/jwks url/i), 'https://dormant.example/jwks');
    await user.click(within(createForm()).getByRole('switch', { name: /create deactivated/i }));
    await user.click(
      within(createForm()).getByRole('button', { name: 'Create identity provider' }),
    );

    expect(
      await screen.findByText(/none of its users, the first IdP admin included/),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Activate dormant' }));
    expect(await screen.findByText('Identity provider dormant activated')).toBeVisible();
    expect(sandbox.state.idps.get('dormant')?.isDeactivated).toBe(false);
    expect(screen.queryByRole('button', { name: 'Activate dormant' })).not.toBeInTheDocument();
  });

  it('names the identity provider a first admin id is taken in, and opens that user', async () => {
    allowConsole(/ApiError: NA/);
    const sandbox = createSandbox();
    const [taken] = seedUsers(sandbox, 1, { prefix: 'taken' });
    const { user, router } = renderRoute('/identity-providers/new', { sandbox });
    await screen.findByRole('form', { name: 'Create identity provider' });
    await user.type(field(/identity provider id/i), 'initech');
    await user.type(field(/^issuer/i), 'https://initech.example');
    await user.type(field(/jwks url/i), 'https://initech.example/jwks');
    await user.click(
      within(createForm()).getByRole('button', { name: 'Create identity provider' }),
    );

    const adminForm = await screen.findByRole('form', { name: 'Create first IdP admin' });
    await user.type(within(adminForm).getByRole('textbox', { name: /user id/i }), taken ?? '');
    await user.click(within(adminForm).getByRole('button', { name: 'Create IdP admin' }));

    expect(
      await within(adminForm).findByText(
        `A user “${taken ?? ''}” already exists in the default identity provider.`,
        { exact: false },
      ),
    ).toBeVisible();
    expect(within(adminForm).queryByRole('button', { name: /move/i })).not.toBeInTheDocument();
    await user.click(within(adminForm).getByRole('link', { name: `Open user ${taken ?? ''}` }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe(`/users/${taken ?? ''}`);
    });
    expect(sandbox.state.users.get(taken ?? '')?.identityProviderId).toBe('');
  });
});
