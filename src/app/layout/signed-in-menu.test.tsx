import { screen, waitFor, within } from '@testing-library/react';
import { User } from 'oidc-client-ts';
import { describe, expect, it } from 'vitest';
import { writeAccessToken } from '@/api/access-token';
import { renderRoute } from '@/testing/render-route';
import {
  createSandbox,
  hs256Token,
  TEST_SECRET,
  type NetworkIntercept,
} from '@/testing/sandbox-network';
import { seedRightsHolders } from '@/testing/seed-party-access';
import { signInAs } from '@/testing/sign-in-as';
import { CORP_PROVIDER, signInProvidersAnswer } from '@/testing/sign-in-providers';
import { decodeJwtSegment } from '@/lib/access/token-claims';

// Whole app renders on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

const withProviders: NetworkIntercept = (request, sandboxFetch) =>
  signInProvidersAnswer(request) ?? sandboxFetch(request);

const PERSON_ID = '5f3c2d1e-7b4a-4c1e-9a2b-1234567890ab';
const ISSUER = 'https://login.corp.example';

/**
 * Signs in as an OpenID provider would: its access token for the participant, and the ID token
 * (with `idClaims`) stored for the provider in this tab, as oidc-client-ts keeps it.
 */
async function signInThroughCorp(subject: string, idClaims: Record<string, unknown>) {
  const accessToken = await hs256Token(subject, {
    claims: { scope: 'daml_ledger_api', iss: ISSUER },
  });
  const idToken = await hs256Token(subject, {
    claims: { iss: ISSUER, aud: 'ledger-console', ...idClaims },
  });
  const profile = decodeJwtSegment(idToken.split('.')[1] ?? '') as User['profile'];
  const stored = new User({
    id_token: idToken,
    access_token: accessToken,
    token_type: 'Bearer',
    scope: 'openid profile email',
    profile,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
  });
  sessionStorage.setItem(
    `oidc.user:${CORP_PROVIDER.oidc.authority}:${CORP_PROVIDER.oidc.client_id}`,
    stored.toStorageString(),
  );
  writeAccessToken(accessToken, { providerId: CORP_PROVIDER.id });
}

function jwtSandboxWithPerson() {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
  seedRightsHolders(sandbox, [{ userId: PERSON_ID, rights: [{ kind: 'ParticipantAdmin' }] }]);
  return sandbox;
}

describe('the header identity', () => {
  it(
    'shows the name from the ID token for a UUID subject, with user id, issuer and expiry in the menu',
    async () => {
      const sandbox = jwtSandboxWithPerson();
      await signInThroughCorp(PERSON_ID, { name: 'Alice Anderson', email: 'alice@corp.example' });
      const { user } = renderRoute('/', { sandbox, intercept: withProviders });

      // The ID token is read through oidc-client-ts, loaded on demand.
      const button = await screen.findByRole(
        'button',
        { name: `Signed in: Alice Anderson, Participant admin (user ${PERSON_ID})` },
        { timeout: 15_000 },
      );
      expect(button).toHaveTextContent('Alice Anderson Participant admin');
      expect(button).not.toHaveTextContent(PERSON_ID);
      // Hovering gives the rest too.
      expect(button).toHaveAttribute('title', expect.stringContaining(`User id: ${PERSON_ID}`));

      await user.click(button);
      const identity = await screen.findByRole('group', { name: 'Signed-in identity' });
      expect(identity).toHaveTextContent('Alice Anderson');
      expect(identity).toHaveTextContent(`User id: ${PERSON_ID}`);
      expect(identity).toHaveTextContent(`Issuer: ${ISSUER}`);
      expect(identity).toHaveTextContent('Through: Corp login · default IdP');
      // An hour from the whole second of its minting: 1 h 0 min left within that second, 59 min after.
      expect(identity).toHaveTextContent(/Token: expires in (59 min|1 h 0 min) \(at .+\)/);
      expect(screen.getByRole('menuitem', { name: 'Sign out' })).toBeVisible();
      expect(screen.getByRole('menuitem', { name: 'Sign in as someone else' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'falls back to preferred_username, then email, and shows a claim as bounded text only',
    async () => {
      const sandbox = jwtSandboxWithPerson();
      await signInThroughCorp(PERSON_ID, {
        preferred_username: `<img src=x onerror="alert(1)"> ${'Bobby '.repeat(200)}`,
      });
      const { user } = renderRoute('/', { sandbox, intercept: withProviders });

      const button = await screen.findByRole(
        'button',
        { name: /^Signed in: <img src=x/ },
        { timeout: 15_000 },
      );
      expect(button.querySelector('img')).toBeNull();
      // Fitted in whole words: 28 columns at most, ending in an ellipsis after a whole word.
      const shown = button.querySelector('p')?.textContent ?? '';
      expect(shown).toMatch(/^<img src=x onerror="alert\(1\)"> …$|^<img src=x …$/);
      expect(shown.length).toBeLessThanOrEqual(28);
      await user.click(button);
      const identity = await screen.findByRole('group', { name: 'Signed-in identity' });
      expect(identity.querySelector('img')).toBeNull();
      expect(identity.textContent.length).toBeLessThan(600);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows the user id where there is no ID token, an id too long shortened at its middle',
    async () => {
      const sandbox = jwtSandboxWithPerson();
      await signInAs(sandbox, PERSON_ID);
      renderRoute('/', { sandbox });

      const button = await screen.findByRole('button', {
        name: /^Signed in: 5f3c2d…90ab, Participant admin \(5f3c2d1e-7b4a-4c1e-9a2b-1234567890ab\)$/,
      });
      expect(button).toHaveTextContent('5f3c2d…90ab');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'adds the lifetime under the name when it runs short, whole, whatever the role',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      seedRightsHolders(sandbox, [
        { userId: 'ops', identityProviderId: '', rights: [{ kind: 'ParticipantAdmin' }] },
      ]);
      writeAccessToken(await hs256Token('ops', { expiresIn: '3m' }));
      renderRoute('/', { sandbox });
      const button = await screen.findByRole('button', {
        name: /^Signed in: ops, Participant admin · expires in [23] min$/,
      });
      expect(button).toHaveTextContent(/Participant admin · expires in [23] min$/);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers Switch user and Sign out in the navigation when signed in, Sign in when not',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      await signInAs(sandbox, 'participant_admin');
      const first = renderRoute('/', { sandbox });
      const nav = await screen.findByRole('navigation', { name: 'Main' });
      expect(await within(nav).findByRole('link', { name: 'Switch user' })).toHaveAttribute(
        'href',
        '/sign-in?from=%2F',
      );
      expect(within(nav).queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();

      await first.user.click(within(nav).getByRole('button', { name: 'Sign out' }));
      expect(await within(nav).findByRole('link', { name: 'Sign in' })).toBeVisible();
      expect(within(nav).queryByRole('link', { name: 'Switch user' })).not.toBeInTheDocument();
      await waitFor(() => {
        expect(first.router.state.location.pathname).toBe('/sign-in');
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'names the Search button by its visible text',
    async () => {
      renderRoute('/');
      const search = await screen.findByRole('button', { name: 'Search Ctrl+K' });
      expect(search).toHaveTextContent('Search Ctrl+K');
    },
    JOURNEY_TIMEOUT,
  );
});
