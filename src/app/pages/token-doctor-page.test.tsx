import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readAccessToken, writeAccessToken } from '@/api/access-token';
import { AppProviders } from '@/app/app-providers';
import { createQueryClient } from '@/app/query-client';
import { renderRoute } from '@/testing/render-route';
import {
  createSandbox,
  hs256Token,
  routeFetchToSandbox,
  TEST_SECRET,
} from '@/testing/sandbox-network';
import { signInProvidersAnswer } from '@/testing/sign-in-providers';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { sandboxJson } from '@/testing/seed-parties';
import { TokenDoctorPage } from './token-doctor-page';

const jwtSandbox = () => createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });

/** The verdict named `title`, as a list item of the verdict list. */
async function verdict(title: string): Promise<HTMLElement> {
  const list = await screen.findByRole('list', { name: 'Verdicts' }, { timeout: 5000 });
  return within(list).getByRole('listitem', { name: title });
}

async function signedInAdmin() {
  const sandbox = jwtSandbox();
  const admin = await hs256Token('participant_admin');
  writeAccessToken(admin);
  return { sandbox, admin };
}

describe('token doctor', { timeout: 30_000 }, () => {
  it("explains why a deactivated user's token is refused, without sending that token", async () => {
    const { sandbox, admin } = await signedInAdmin();
    await sandboxJson(
      sandbox,
      'POST',
      '/v2/users',
      { user: { id: 'bob', isDeactivated: true }, rights: [] },
      admin,
    );
    const { participantId } = await sandboxJson<{ participantId: string }>(
      sandbox,
      'GET',
      '/v2/parties/participant-id',
      undefined,
      admin,
    );
    const bobToken = await hs256Token('bob', {
      claims: { aud: `https://daml.com/jwt/aud/participant/${participantId}` },
    });
    const sent: string[] = [];
    const { user } = renderRoute('/token-doctor', {
      sandbox,
      intercept: async (request, sandboxFetch) => {
        const body = request.body ? await request.clone().text() : '';
        sent.push(`${request.url} ${request.headers.get('authorization') ?? ''} ${body}`);
        return sandboxFetch(request);
      },
    });

    expect(await screen.findByRole('heading', { name: 'Token doctor', level: 1 })).toBeVisible();
    expect(
      screen.getByText(
        'The pasted token is only decoded in this browser; lookups use your current sign-in.',
      ),
    ).toBeVisible();
    await user.click(screen.getByRole('textbox', { name: 'Token' }));
    await user.paste(`Bearer ${bobToken}`);
    await user.click(screen.getByRole('button', { name: 'Examine token' }));

    const record = await verdict('User record');
    expect(within(record).getByText('Problem')).toBeVisible();
    expect(record).toHaveTextContent(
      'User "bob" in the default IdP is deactivated: the participant answers 403',
    );
    expect(record).toHaveTextContent('Fix: Reactivate user "bob"');
    const audience = await verdict('Participant audience');
    expect(within(audience).getByText('OK')).toBeVisible();
    expect(audience).toHaveTextContent(participantId);
    expect(within(await verdict('Signing algorithm (alg)')).getByText('Warning')).toBeVisible();
    expect(await verdict('User id (sub)')).toHaveTextContent('User "bob": a valid Canton user id.');

    // The lookups went out with the console's own sign-in; bob's token went nowhere.
    expect(sent.some((line) => line.includes('/v2/users/bob'))).toBe(true);
    expect(sent.filter((line) => line.includes(bobToken))).toEqual([]);
  });

  it('calls an unknown issuer a 401 and names the fix, for a token signed by a stranger', async () => {
    const { sandbox } = await signedInAdmin();
    seedIdentityProviders(sandbox, [
      {
        identityProviderId: 'acme-idp',
        issuer: 'https://idp.acme.example',
        jwksUrl: 'https://idp.acme.example/jwks.json',
      },
    ]);
    const { privateKey } = await generateKeyPair('RS256');
    const strangerToken = await new SignJWT({ scope: 'openid daml_ledger_api' })
      .setProtectedHeader({ alg: 'RS256', kid: 'stranger-key' })
      .setIssuer('https://login.stranger.example')
      .setSubject('alice@stranger')
      .setExpirationTime('-2h')
      .sign(privateKey);
    const { user } = renderRoute('/token-doctor', { sandbox });

    await user.click(await screen.findByRole('textbox', { name: 'Token' }));
    await user.paste(strangerToken);
    await user.click(screen.getByRole('button', { name: 'Examine token' }));

    const issuer = await verdict('Issuer (iss)');
    expect(within(issuer).getByText('Problem')).toBeVisible();
    expect(issuer).toHaveTextContent(
      'Unknown issuer "https://login.stranger.example": no active IdP configuration has it',
    );
    expect(issuer).toHaveTextContent('Fix: Add an IdP configuration with this issuer');
    const expiry = await verdict('Expiry (exp)');
    expect(within(expiry).getByText('Problem')).toBeVisible();
    expect(expiry).toHaveTextContent('Expired 2 h ago');
    expect(expiry).toHaveTextContent('Fix: Get a fresh token');
    const form = await verdict('Audience or scope');
    expect(form).toHaveTextContent('3.5 deprecates scope-based tokens');
    // Looked up in the default IdP, since no IdP configuration has the issuer.
    expect(await verdict('User record')).toHaveTextContent(
      'There is no user "alice@stranger" in the default IdP',
    );
  });

  it("examines the console's current token, with its rights in short", async () => {
    const { sandbox } = await signedInAdmin();
    const { user } = renderRoute('/token-doctor', { sandbox });

    expect(await screen.findByRole('link', { name: 'Token doctor' })).toBeVisible();
    await user.click(await screen.findByRole('button', { name: 'Use my current token' }));

    expect(await verdict('Rights')).toHaveTextContent('Participant admin.');
    expect(await verdict('User record')).toHaveTextContent(
      'User "participant_admin" exists in the default IdP and is active.',
    );
    // The form shows what it examined.
    expect(screen.getByRole('textbox', { name: 'Token' })).toHaveValue(readAccessToken());
  });

  it('says what is wrong with text that is not a token, and that there is no current one', async () => {
    const { user } = renderRoute('/token-doctor');

    await user.click(await screen.findByRole('button', { name: 'Use my current token' }));
    expect(
      await screen.findByText('This console has no current token: it is not signed in with one.'),
    ).toBeVisible();

    await user.click(screen.getByRole('textbox', { name: 'Token' }));
    await user.paste('<b>not</b> a token');
    await user.click(screen.getByRole('button', { name: 'Examine token' }));
    const structure = await verdict('Structure');
    expect(within(structure).getByText('Problem')).toBeVisible();
    expect(structure).toHaveTextContent('this has 1');
    expect(structure.querySelector('b')).toBeNull();

    // This sandbox runs without auth, which the console can tell: it answered without a token.
    await user.clear(screen.getByRole('textbox', { name: 'Token' }));
    await user.paste(await hs256Token('alice'));
    await user.click(screen.getByRole('button', { name: 'Examine token' }));
    expect(await verdict('Participant authentication')).toHaveTextContent(
      'runs without auth services and ignores tokens',
    );
    // HS256, scope-based and the ignored tokens; alice does not exist.
    expect(screen.getByText('1 problem, 3 warnings, 8 fine, 1 unknown.')).toBeVisible();
  });
});

const acmeProvider = {
  id: 'acme',
  name: 'Acme SSO',
  identityProviderId: 'acme',
  oidc: {
    authority: 'https://idp.acme.example',
    client_id: 'ledger-console',
    scope: 'openid',
    extraQueryParams: {},
  },
};

// The app's layout stands in front of every page until someone signs in, so the page is
// rendered on its own here: it must work for a person who cannot sign in yet.
function renderSignedOut() {
  const requests: Request[] = [];
  const network = routeFetchToSandbox({
    sandbox: createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET }),
    intercept: (request, sandboxFetch) => {
      requests.push(request);
      // The console server's own endpoint, which the sandbox does not serve.
      return signInProvidersAnswer(request, [acmeProvider]) ?? sandboxFetch(request);
    },
  });
  const queryClient = createQueryClient({ retries: 0 });
  const view = render(
    <AppProviders queryClient={queryClient} env="test">
      <TokenDoctorPage />
    </AppProviders>,
  );
  onTestFinished(() => {
    view.unmount();
    queryClient.clear();
    network.sandbox.close();
  });
  return { user: userEvent.setup(), requests };
}

describe('token doctor before sign-in', () => {
  it('decodes and checks against the sign-in providers, and says the lookups need a sign-in', async () => {
    const { user, requests } = renderSignedOut();
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({ aud: 'https://daml.com/jwt/aud/participant/p1::1220ab' })
      .setProtectedHeader({ alg: 'RS256', kid: 'acme-key' })
      .setIssuer('https://idp.acme.example')
      .setSubject('alice')
      .setExpirationTime('1h')
      .sign(privateKey);

    await user.click(screen.getByRole('textbox', { name: 'Token' }));
    await user.paste(token);
    await user.click(screen.getByRole('button', { name: 'Examine token' }));

    const list = await screen.findByRole('list', { name: 'Verdicts' });
    expect(screen.getByRole('alert', { name: 'Lookups need a sign-in' })).toBeVisible();
    const issuer = within(list).getByRole('listitem', { name: 'Issuer (iss)' });
    expect(within(issuer).getByText('OK')).toBeVisible();
    expect(issuer).toHaveTextContent(
      `"https://idp.acme.example" is the issuer of this console's sign-in provider "Acme SSO", whose users are in IdP "acme".`,
    );
    const record = within(list).getByRole('listitem', { name: 'User record' });
    expect(within(record).getByText('Unknown')).toBeVisible();
    expect(record).toHaveTextContent('Sign in to look up user "alice"');
    const audience = within(list).getByRole('listitem', { name: 'Participant audience' });
    expect(audience).toHaveTextContent("this participant's id could not be read");
    expect(
      within(within(list).getByRole('listitem', { name: 'Expiry (exp)' })).getByText('OK'),
    ).toBeVisible();

    // Nothing about the token's user was asked, and the token itself went nowhere.
    const urls = requests.map((request) => request.url);
    expect(urls.some((url) => url.includes('/v2/users/'))).toBe(false);
    expect(
      requests.filter(
        (request) =>
          request.url.includes(token) || request.headers.get('authorization')?.includes(token),
      ),
    ).toEqual([]);
  });
});
