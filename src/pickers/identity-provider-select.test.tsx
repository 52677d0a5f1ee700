import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { sandboxJson } from '@/testing/seed-parties';

async function seedIdentityProvider(sandbox: Sandbox, id: string, isDeactivated = false) {
  await sandboxJson(sandbox, 'POST', '/v2/idps', {
    identityProviderConfig: {
      identityProviderId: id,
      isDeactivated,
      issuer: `https://${id}.example`,
      jwksUrl: `https://${id}.example/jwks.json`,
      audience: '',
    },
  });
}

// Journeys that also open the created user; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 20_000;

// The picker is exercised where the app uses it: the create-user form.
const picker = () => screen.getByRole('combobox', { name: /^Identity provider/ });

describe('identity provider picker', () => {
  it(
    'offers the default IdP and every IdP config, and creates the user in the chosen one',
    async () => {
      const sandbox = createSandbox();
      await seedIdentityProvider(sandbox, 'acme');
      await seedIdentityProvider(sandbox, 'old', true);
      const { user } = renderRoute('/users/new', { sandbox });

      await waitFor(() => {
        expect(picker()).toBeEnabled();
      });
      expect(picker()).toHaveValue('Default IdP');
      await user.click(picker());
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        'Default IdP',
        'acme',
        'old (deactivated)',
      ]);
      await user.click(screen.getByRole('option', { name: 'acme' }));

      await user.type(screen.getByRole('textbox', { name: /^User id/ }), 'ops');
      await user.click(screen.getByRole('button', { name: 'Create user' }));

      expect(await screen.findByText('User of identity provider acme')).toBeVisible();
      expect(sandbox.state.users.get('ops')?.identityProviderId).toBe('acme');
    },
    JOURNEY_TIMEOUT,
  );

  it('keeps the default IdP usable when the IdP list fails, and says so', async () => {
    renderRoute('/users/new', {
      intercept: (request, sandboxFetch) =>
        new URL(request.url).pathname === '/v2/idps'
          ? Promise.reject(new TypeError('fetch failed'))
          : sandboxFetch(request),
    });

    await waitFor(() => {
      expect(picker()).toHaveAccessibleDescription(/Identity providers could not be loaded/);
    });
    expect(picker()).toBeEnabled();
    expect(picker()).toHaveValue('Default IdP');
  });
});
