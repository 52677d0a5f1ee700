import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { mintToken, signInAs } from '@/testing/sign-in-as';

// Each state as a person meets it, through the real routes against the sandbox: the participant's
// answer decides which state shows, not a fixture.

describe('the forbidden state', () => {
  it('tells a plain user who they are, what is missing and who can grant it — not "NA"', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    const admin = sandboxSteps(sandbox, await mintToken(sandbox, 'participant_admin'));
    await admin.createUser('plain.pat');
    await signInAs(sandbox, 'plain.pat');
    allowConsole(/security-sensitive error/);

    renderRoute('/users', { sandbox });

    const state = await screen.findByRole('region', { name: 'You may not see this' });
    expect(state).toHaveTextContent('You are signed in as plain.pat (default identity provider)');
    expect(state).toHaveTextContent('A participant admin can grant it');
    expect(state).not.toHaveTextContent('security-sensitive');
    expect(within(state).getByRole('link', { name: 'See your rights' })).toHaveAttribute(
      'href',
      '/users/plain.pat',
    );
    // Nothing to retry: the answer will not change by asking again.
    expect(within(state).queryByRole('button', { name: /retry/i })).not.toBeInTheDocument();
  });

  it('names the identity provider whose admin can grant it, for a user of one', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    const admin = sandboxSteps(sandbox, await mintToken(sandbox, 'participant_admin'));
    await admin.createIdentityProvider('acme');
    await admin.createUser('acme.trader', { identityProviderId: 'acme' });
    await signInAs(sandbox, 'acme.trader');
    allowConsole(/security-sensitive error/);

    renderRoute('/users', { sandbox });

    const state = await screen.findByRole('region', { name: 'You may not see this' });
    expect(state).toHaveTextContent('acme.trader (identity provider acme)');
    expect(state).toHaveTextContent('or an admin of identity provider acme, can grant it');
  });
});

describe('the signed-out state', () => {
  it('offers sign-in instead of the participant’s redacted answer', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    allowConsole(/security-sensitive error/);
    renderRoute('/users', { sandbox });

    const state = await screen.findByRole('region', { name: 'Sign in to see this' });
    expect(within(state).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/sign-in?from=%2Fusers',
    );
    // Without a token there is nothing for the token doctor to examine.
    expect(within(state).queryByRole('link', { name: 'Why? Check the token' })).toBeNull();
    expect(state).not.toHaveTextContent('NA');
  });
});

describe('the unreachable participant', () => {
  it('keeps the navigation and shows one banner, not an error per section', async () => {
    const { interceptNetwork } = renderRoute('/packages', {
      intercept: () => Promise.reject(new TypeError('fetch failed')),
    });
    allowConsole(/^ApiError: NETWORK_UNREACHABLE/);

    expect(
      await screen.findByRole('alert', { name: 'The participant does not answer' }),
    ).toBeVisible();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    // Before any answer the console cannot know the caller's rights: every page stays listed.
    for (const page of ['Users', 'Parties', 'Packages', 'Transactions', 'Identity providers']) {
      expect(within(nav).getByRole('link', { name: page })).toBeVisible();
    }
    expect(await screen.findByText(/Waiting for the participant/)).toBeVisible();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
  });
});
