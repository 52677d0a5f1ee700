import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readAccessToken, writeAccessToken } from '@/api/access-token';
import { renderRoute } from '@/testing/render-route';
import {
  createSandbox,
  hs256Token,
  TEST_SECRET,
  type NetworkIntercept,
} from '@/testing/sandbox-network';
import { CORP_PROVIDER, signInProvidersAnswer } from '@/testing/sign-in-providers';

/** The console server's provider list, as `npm start` serves it in front of the sandbox. */
const withProviders: NetworkIntercept = (request, sandboxFetch) =>
  signInProvidersAnswer(request) ?? sandboxFetch(request);

describe('the OpenID callback', () => {
  it('refuses an answer with a state no sign-in of this tab started, keeping the sign-in', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    const token = await hs256Token('participant_admin');
    writeAccessToken(token);
    const { router } = renderRoute('/sign-in/callback?code=stolen&state=forged', {
      sandbox,
      intercept: withProviders,
    });

    const alert = await screen.findByRole('alert', { name: 'Sign-in did not complete' });
    expect(alert).toHaveTextContent('belongs to no sign-in started in this tab');
    expect(router.state.location.pathname).toBe('/sign-in');
    // Nothing of the answer stays in the address.
    expect(router.state.location.search).toBe('');
    expect(readAccessToken()).toBe(token);
  });

  it('says what a provider error without a state or a bare code means', async () => {
    const { router } = renderRoute(
      '/sign-in/callback?error=server_error&error_description=%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      { intercept: withProviders },
    );
    const alert = await screen.findByRole('alert', { name: 'Sign-in did not complete' });
    // The provider's words are text, never markup.
    expect(alert).toHaveTextContent('server_error: <script>alert(1)</script>');
    expect(alert.querySelector('script')).toBeNull();
    expect(router.state.location.pathname).toBe('/sign-in');

    await router.navigate('/sign-in/callback?code=abc');
    expect(await screen.findByText(/not a complete answer from a provider/)).toBeVisible();
  });
});

describe('the sign-in page with OpenID providers', () => {
  it('reports a provider whose discovery fails on its own, and keeps the token as an advanced option', async () => {
    const gone = {
      ...CORP_PROVIDER,
      id: 'gone',
      name: 'Gone login',
      oidc: { ...CORP_PROVIDER.oidc, authority: 'https://gone.example' },
    };
    const { user } = renderRoute('/sign-in', {
      intercept: (request, sandboxFetch) => {
        const listed = signInProvidersAnswer(request, [CORP_PROVIDER, gone]);
        if (listed) return listed;
        const url = new URL(request.url);
        if (url.origin === 'https://login.corp.example') {
          return Promise.resolve(
            Response.json({
              issuer: 'https://login.corp.example',
              authorization_endpoint: 'https://login.corp.example/authorize',
              token_endpoint: 'https://login.corp.example/token',
              jwks_uri: 'https://login.corp.example/jwks',
            }),
          );
        }
        if (url.origin === 'https://gone.example') {
          return Promise.reject(new TypeError('Failed to fetch'));
        }
        return sandboxFetch(request);
      },
    });

    const goneRegion = await screen.findByRole('region', { name: 'Gone login' });
    expect(
      await within(goneRegion).findByText(/could not be read/, {}, { timeout: 5000 }),
    ).toHaveTextContent('https://gone.example/.well-known/openid-configuration');
    expect(
      within(goneRegion).getByRole('button', { name: 'Sign in with Gone login' }),
    ).toBeDisabled();
    const corp = screen.getByRole('region', { name: 'Corp login' });
    expect(within(corp).getByRole('button', { name: 'Sign in with Corp login' })).toBeEnabled();

    // Pasting a token is still there, one click away. The closed panel may already hold the form
    // (Mantine keeps it mounted in a hidden React Activity, rendered when React has time), so the
    // check is that nobody can reach it yet, not that it is absent.
    expect(screen.queryByRole('textbox', { name: 'Bearer token' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Advanced: paste a bearer token/ }));
    const field = await screen.findByLabelText('Bearer token');
    expect(field).toBeInTheDocument();

    // A pasted token from an issuer none of the providers has gets a hint before it is sent.
    await user.click(field);
    await user.paste(await hs256Token('someone', { claims: { iss: 'https://elsewhere.example' } }));
    expect(await screen.findByText('Issuer unknown to this console')).toBeInTheDocument();
  });
});
