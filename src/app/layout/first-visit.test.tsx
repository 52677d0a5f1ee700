import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET, type NetworkIntercept } from '@/testing/sandbox-network';
import { signInProvidersAnswer } from '@/testing/sign-in-providers';

// Answered without a token by a participant with auth too; asking them is not noise.
const PUBLIC_PATHS = new Set(['/v2/version', '/livez', '/readyz']);

/**
 * Records every Ledger API request that reaches the participant without a token (its path), and
 * optionally serves the console server's provider list in front of it, as `npm start --auth oidc`.
 */
function recordTokenless({ withProviders = false } = {}) {
  const tokenless: string[] = [];
  const intercept: NetworkIntercept = (request, sandboxFetch) => {
    const { pathname } = new URL(request.url);
    const listed = withProviders ? signInProvidersAnswer(request) : undefined;
    if (listed) return listed;
    const isLedgerApi = pathname.startsWith('/v2/') && !PUBLIC_PATHS.has(pathname);
    if (isLedgerApi && !request.headers.has('Authorization')) tokenless.push(pathname);
    return sandboxFetch(request);
  };
  return { tokenless, intercept };
}

/** A real participant: no sandbox controls, no providers (the Vite dev server answers 404). */
function asRealParticipant(recorder: ReturnType<typeof recordTokenless>): NetworkIntercept {
  return (request, sandboxFetch) =>
    new URL(request.url).pathname.startsWith('/__')
      ? Promise.resolve(new Response('Not found', { status: 404 }))
      : recorder.intercept(request, sandboxFetch);
}

// Whole-app renders; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

const jwtSandbox = () => createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });

describe('a first visit to a participant that needs a sign-in', () => {
  it.each([
    ['the sandbox says it runs with auth', false],
    ['the console server lists sign-in providers (a participant that is not the sandbox)', true],
  ])(
    'asks the participant nothing without a token when %s, and invites a sign-in without an error',
    async (_, withProviders) => {
      const recorder = recordTokenless({ withProviders });
      const { tokenless } = recorder;
      // With providers, the participant is a real one: no sandbox controls to ask.
      const intercept: NetworkIntercept = (request, sandboxFetch) =>
        withProviders && new URL(request.url).pathname.startsWith('/__sandbox')
          ? Promise.resolve(new Response('Not found', { status: 404 }))
          : recorder.intercept(request, sandboxFetch);
      renderRoute('/', { sandbox: jwtSandbox(), intercept });

      const state = await screen.findByRole('region', { name: 'Sign in to see this' });
      expect(state).toHaveTextContent('shows its data to signed-in users only');
      // Nothing was refused: no sign-in was tried, so there is no refusal to explain.
      expect(state).not.toHaveTextContent('did not accept');
      expect(within(state).getByRole('link', { name: 'Sign in' })).toHaveAttribute(
        'href',
        '/sign-in?from=%2F',
      );
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      // The header's public probes still answer (they need no token).
      expect(await screen.findByLabelText('Health: Live · Ready')).toBeInTheDocument();
      expect(tokenless).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'asks one probe only when nothing else tells (a participant that is not the sandbox)',
    async () => {
      const recorder = recordTokenless();
      renderRoute('/', { sandbox: jwtSandbox(), intercept: asRealParticipant(recorder) });

      const state = await screen.findByRole('region', { name: 'Sign in to see this' });
      expect(state).not.toHaveTextContent('did not accept');
      expect(recorder.tokenless).toEqual(['/v2/authenticated-user']);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows the sign-in page without a refusal before anyone tried',
    async () => {
      const { tokenless, intercept } = recordTokenless({ withProviders: true });
      renderRoute('/sign-in', { sandbox: jwtSandbox(), intercept });

      const identity = await screen.findByRole('region', { name: 'Current identity' });
      expect(await within(identity).findByText(/^Not signed in\./)).toBeVisible();
      expect(identity).not.toHaveTextContent('Sign-in needed');
      expect(tokenless).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'sends nothing without a token while an OpenID callback completes',
    async () => {
      const { tokenless, intercept } = recordTokenless({ withProviders: true });
      const { router } = renderRoute('/sign-in/callback?code=stolen&state=forged', {
        sandbox: jwtSandbox(),
        intercept,
      });

      // The exchange fails (no sign-in of this tab started it); the layout asked nothing meanwhile.
      expect(await screen.findByRole('alert', { name: 'Sign-in did not complete' })).toBeVisible();
      expect(router.state.location.pathname).toBe('/sign-in');
      expect(tokenless).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});

describe('a participant without authentication', () => {
  it(
    'loads the overview without a token and without a sign-in prompt',
    async () => {
      const { tokenless, intercept } = recordTokenless();
      const { sandbox } = renderRoute('/', { intercept });

      expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
      const participant = await screen.findByRole('group', { name: 'Participant id' });
      expect(
        within(participant).getByText(sandbox.state.participantId, { exact: true }),
      ).toBeVisible();
      expect(screen.queryByRole('region', { name: 'Sign in to see this' })).not.toBeInTheDocument();
      expect(tokenless).toContain('/v2/authenticated-user');
      expect(tokenless).toContain('/v2/state/ledger-end');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'asks who the caller is once when that is also what finds out (a participant that is not the sandbox)',
    async () => {
      const recorder = recordTokenless();
      renderRoute('/users', { intercept: asRealParticipant(recorder) });

      // The list is shown once the caller is known (what it may do decides the list's actions).
      expect(
        await screen.findByRole('table', { name: 'Users' }, { timeout: 10_000 }),
      ).toBeVisible();
      // The probe's answer served the session's who-am-I: one request, not two.
      expect(recorder.tokenless.filter((path) => path === '/v2/authenticated-user')).toEqual([
        '/v2/authenticated-user',
      ]);
    },
    JOURNEY_TIMEOUT,
  );
});
