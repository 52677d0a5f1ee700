import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';
import { seedUsers } from '@/testing/seed-users';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

// Whole-app journeys; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 20_000;

// The block is exercised where the app shows it: the create-user form's error area.
describe('admin form error', () => {
  it(
    'looks for the user in each identity provider only once a create is refused',
    async () => {
      const sandbox = createSandbox();
      seedIdentityProviders(sandbox, [{ identityProviderId: 'acme-idp' }]);
      const [trader] = seedUsers(sandbox, 1, { prefix: 'trader', identityProviderId: 'acme-idp' });
      const { user, interceptNetwork } = renderRoute('/users/new', { sandbox });
      await screen.findByRole('button', { name: 'Create user' });
      const lookups: string[] = [];
      interceptNetwork((request, sandboxFetch) => {
        const url = new URL(request.url);
        if (request.method === 'GET' && url.pathname === `/v2/users/${trader ?? ''}`) {
          lookups.push(url.searchParams.get('identity-provider-id') ?? '');
        }
        return sandboxFetch(request);
      });

      await user.type(screen.getByRole('textbox', { name: /^User id/ }), trader ?? '');
      expect(lookups).toEqual([]);
      await user.click(screen.getByRole('button', { name: 'Create user' }));

      const form = screen.getByRole('form', { name: 'Create user' });
      expect(
        await within(form).findByText(/already exists in identity provider acme-idp/),
      ).toBeVisible();
      // The default IdP first, then the others, until one has it.
      expect(lookups).toEqual(['', 'acme-idp']);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "keeps the server's message for a caller who may not look in other identity providers",
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'admin-form-error-test-secret' });
      await signInAsIdentityProviderAdmin(sandbox);
      const [taken] = seedUsers(sandbox, 1, { prefix: 'taken' });
      const { user, interceptNetwork } = renderRoute('/users/new', { sandbox });
      await screen.findByRole('button', { name: 'Create user' });
      const requests: string[] = [];
      interceptNetwork((request, sandboxFetch) => {
        requests.push(`${request.method} ${new URL(request.url).pathname}`);
        return sandboxFetch(request);
      });

      await user.type(screen.getByRole('textbox', { name: /^User id/ }), taken ?? '');
      await user.click(screen.getByRole('button', { name: 'Create user' }));

      const form = screen.getByRole('form', { name: 'Create user' });
      const alert = await within(form).findByRole('alert');
      // The participant's redacted refusal, as it said it.
      expect(alert).toHaveTextContent('Not allowed');
      expect(alert).not.toHaveTextContent('already exists in');
      expect(within(alert).queryByRole('link', { name: /^Open user/ })).not.toBeInTheDocument();
      expect(requests).not.toContain(`GET /v2/users/${taken ?? ''}`);
    },
    JOURNEY_TIMEOUT,
  );
});
