import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readAccessToken, writeAccessToken } from '@/api/access-token';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, hs256Token, TEST_SECRET } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { sandboxJson } from '@/testing/seed-parties';

const jwtSandbox = () => createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });

// Whole sign-in journeys against the in-process sandbox: up to ~5 s each on a loaded 2-core machine.
describe('sign-in', { timeout: 20_000 }, () => {
  it('explains a refused request and signs in with a pasted token, back to where the user was', async () => {
    const { user, router } = renderRoute('/no/such/page?x=1', { sandbox: jwtSandbox() });

    const state = await screen.findByRole('region', { name: 'Sign in to see this' });
    // No sign-in was tried yet: an invitation, not a refusal.
    expect(state).toHaveTextContent('shows its data to signed-in users only');
    // The participant's redacted answer (code NA) is not what a person reads.
    expect(state).not.toHaveTextContent('security-sensitive');
    await user.click(within(state).getByRole('link', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeVisible();
    const token = await hs256Token('participant_admin', { claims: { scope: 'daml_ledger_api' } });
    await user.click(screen.getByLabelText('Bearer token'));
    await user.paste(`Bearer ${token}`);

    const user_ = await screen.findByRole('group', { name: 'User' });
    expect(user_).toHaveTextContent('participant_admin');
    expect(screen.getByRole('group', { name: 'Scope' })).toHaveTextContent('daml_ledger_api');
    expect(screen.queryByText('This token has expired')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign in with token' }));
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/no/such/page');
    expect(router.state.location.search).toBe('?x=1');
    expect(readAccessToken()).toBe(token);
    expect(window.localStorage.length).toBe(0);
    expect(
      await screen.findByRole('button', {
        name: 'Signed in: participant_admin, Participant admin',
      }),
    ).toBeVisible();
  });

  it('warns about an expired token and keeps the previous one when the participant refuses it', async () => {
    const sandbox = jwtSandbox();
    const good = await hs256Token('participant_admin');
    writeAccessToken(good);
    const { user } = renderRoute('/sign-in', { sandbox });
    expect(
      await screen.findByRole('button', {
        name: 'Signed in: participant_admin, Participant admin',
      }),
    ).toBeVisible();

    const expired = await hs256Token('participant_admin', { expiresIn: '-1h' });
    await user.click(screen.getByLabelText('Bearer token'));
    await user.paste(expired);
    expect(await screen.findByText('This token has expired')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Sign in with token' }));

    const form = screen.getByRole('region', { name: 'Sign in with a bearer token' });
    const title = await within(form).findByText('Sign-in needed');
    const alert = title.closest<HTMLElement>('[role="alert"]');
    if (!alert) throw new Error('The error is not in an alert');
    expect(within(alert).getByRole('button', { name: 'Sign in again' })).toBeVisible();
    // What the user pasted stays, and so does the token that worked.
    expect(screen.getByLabelText('Bearer token')).toHaveValue(expired);
    expect(readAccessToken()).toBe(good);
  });

  it('says what is wrong with text that is not a JWT, before sending anything', async () => {
    const { user } = renderRoute('/sign-in');
    await user.click(await screen.findByLabelText('Bearer token'));
    await user.paste('not a token');
    await user.click(screen.getByRole('button', { name: 'Sign in with token' }));
    expect(await screen.findByText(/This is not a JSON Web Token/)).toBeVisible();
    expect(readAccessToken()).toBeUndefined();
  });

  it('remembers the token on this device only when asked to', async () => {
    const { user } = renderRoute('/sign-in', { sandbox: jwtSandbox() });
    const token = await hs256Token('participant_admin');
    await user.click(await screen.findByLabelText('Bearer token'));
    await user.paste(token);
    await user.click(screen.getByLabelText('Remember on this device'));
    await user.click(screen.getByRole('button', { name: 'Sign in with token' }));

    expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
    expect(window.localStorage.getItem('ledger-console.access-token')).toBe(token);
    expect(window.sessionStorage.length).toBe(0);
  });

  it('lets any sandbox user be tried through a minted token, IdP users included', async () => {
    const sandbox = jwtSandbox();
    const admin = await hs256Token('participant_admin');
    seedIdentityProviders(sandbox, [
      {
        identityProviderId: 'acme-idp',
        issuer: 'https://idp.acme.example',
        jwksUrl: 'https://idp.acme.example/jwks.json',
      },
    ]);
    await sandboxJson(
      sandbox,
      'POST',
      '/v2/users',
      {
        user: { id: 'acme-admin', identityProviderId: 'acme-idp' },
        rights: [{ kind: { IdentityProviderAdmin: { value: {} } } }],
      },
      admin,
    );
    const { user } = renderRoute('/sign-in', { sandbox });

    const section = await screen.findByRole('region', { name: 'Sign in as a sandbox user' });
    expect(within(section).getByText('Sandbox only')).toBeVisible();
    await user.click(within(section).getByRole('combobox', { name: 'Sandbox user' }));
    await user.click(await screen.findByRole('option', { name: 'acme-admin (IdP admin)' }));
    await user.click(within(section).getByRole('button', { name: 'Sign in as this user' }));

    expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
    expect(
      await screen.findByRole('button', { name: 'Signed in: acme-admin, IdP admin of acme-idp' }),
    ).toBeVisible();
    // An IdP admin manages users but not identity providers.
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: 'Users' })).toBeVisible();
    expect(within(nav).queryByRole('link', { name: 'Identity providers' })).not.toBeInTheDocument();
  });

  it('offers no minting on a participant without authentication, and continues without a token', async () => {
    writeAccessToken('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln');
    const { user } = renderRoute('/sign-in');
    expect(
      await screen.findByText(/No user: the participant accepts these requests/),
    ).toBeVisible();
    expect(
      screen.queryByRole('region', { name: 'Sign in as a sandbox user' }),
    ).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Continue without a token' }));
    expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
    expect(readAccessToken()).toBeUndefined();
    expect(
      screen.getByRole('button', { name: 'Signed in: No token, No authentication required' }),
    ).toBeVisible();
  });
});
