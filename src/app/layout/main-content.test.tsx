import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { readAccessToken, writeAccessToken } from '@/api/access-token';
import { sessionQueries } from '@/api/session';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, hs256Token, TEST_SECRET } from '@/testing/sandbox-network';

describe('a session refused mid-way', () => {
  it('keeps the page and what was typed, and signs in again in a dialog', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    writeAccessToken(await hs256Token('participant_admin'));
    const { user, queryClient } = renderRoute('/users/new', { sandbox });
    const userId = await screen.findByRole('textbox', { name: /^User id/ });
    await user.type(userId, 'half-typed');

    // The token stops working (it expired, or its IdP was deactivated) and who-am-I is asked again.
    const expired = await hs256Token('participant_admin', { expiresIn: '-1m' });
    writeAccessToken(expired);
    await queryClient.invalidateQueries({ queryKey: sessionQueries.all() });

    const banner = (await screen.findByText('Sign-in needed')).closest<HTMLElement>(
      '[role="alert"]',
    );
    if (!banner) throw new Error('no banner');
    expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveValue('half-typed');

    await user.click(within(banner).getByRole('button', { name: 'Sign in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    const fresh = await hs256Token('participant_admin');
    // The dialog's form loads on demand.
    await user.click(await within(dialog).findByLabelText('Bearer token'));
    await user.paste(fresh);
    await user.click(within(dialog).getByRole('button', { name: 'Sign in with token' }));

    expect(
      await screen.findByRole('button', {
        name: 'Signed in: participant_admin, Participant admin',
      }),
    ).toBeVisible();
    expect(screen.queryByText('Sign-in needed')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveValue('half-typed');
    expect(readAccessToken()).toBe(fresh);
  });
});

describe('a person the participant does not know', () => {
  it('sees who they are and a request link that an admin opens as prefilled onboarding', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    // Valid for the participant (its shared secret) but naming no user: 403 on who-am-I.
    writeAccessToken(
      await hs256Token('dana.k', {
        claims: { scope: 'daml_ledger_api', iss: 'https://login.corp.example' },
      }),
    );
    // The page behind fails with the same 403 before who-am-I answers; React reports what its
    // boundary caught (the browser build logs it as a warning, see main.tsx).
    allowConsole(/security-sensitive error/);
    const first = renderRoute('/', { sandbox });

    const alert = await screen.findByRole('alert', { name: 'Not onboarded on this participant' });
    expect(alert).toHaveTextContent('Signed in as dana.k at https://login.corp.example');
    await first.user.type(
      screen.getByRole('textbox', { name: 'What do you need to do?' }),
      'act as <my> party',
    );
    const link = screen.getByLabelText('Access request link').textContent;
    expect(link).toMatch(/^http:\/\/localhost:3000\/access-requests\/review\?v=1&/);
    const query = new URL(link).search;
    expect(new URLSearchParams(query).get('access')).toBe('act as <my> party');
    first.unmount();

    // The admin who receives it.
    writeAccessToken(await hs256Token('participant_admin'));
    const { user, router } = renderRoute(`/access-requests/review${query}`, { sandbox });
    expect(await screen.findByRole('group', { name: 'Subject (user id)' })).toHaveTextContent(
      'dana.k',
    );
    expect(screen.getByRole('group', { name: 'Asks for' })).toHaveTextContent('act as <my> party');
    await user.click(await screen.findByRole('link', { name: 'Onboard this person' }));
    expect(await screen.findByRole('textbox', { name: /^Subject \(user id\)/ })).toHaveValue(
      'dana.k',
    );
    expect(router.state.location.pathname).toBe('/onboard');
  });

  it('a link that is not a request says why, and offers nothing to act on', async () => {
    renderRoute('/access-requests/review?v=1&iss=javascript:alert(1)&sub=x');
    expect(await screen.findByText('The issuer is not an http or https URL.')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Onboard this person' })).not.toBeInTheDocument();
  });
});

describe('a token the participant does not accept from the start', () => {
  it('explains the refusal of a token the participant does not accept, and offers the token doctor', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    writeAccessToken(await hs256Token('participant_admin', { expiresIn: '-1h' }));
    allowConsole(/security-sensitive error/);
    renderRoute('/users', { sandbox });

    const state = await screen.findByRole('region', { name: 'Sign in to see this' });
    expect(state).toHaveTextContent('did not accept a sign-in from this browser');
    expect(within(state).getByRole('link', { name: 'Why? Check the token' })).toBeVisible();
  });
});
