import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { sandboxJson } from '@/testing/seed-parties';

// The user id pattern allows `.` and `..` (ledger-api-behaviour.md §2.2), and `new`.
const createUser = (sandbox: ReturnType<typeof createSandbox>, id: string) =>
  sandboxJson(sandbox, 'POST', '/v2/users', { user: { id }, rights: [] });

describe('user page for ids a URL path cannot carry as they are', { timeout: 30_000 }, () => {
  it('opens "..", saying why it cannot be read, and sends no request that lands elsewhere', async () => {
    allowConsole(/UNADDRESSABLE_PATH_PARAMETER/);
    const sandbox = createSandbox();
    await createUser(sandbox, '..');
    await createUser(sandbox, 'new');
    const requested: string[] = [];
    const { user, router } = renderRoute('/users', {
      sandbox,
      intercept: (request, sandboxFetch) => {
        requested.push(`${request.method} ${new URL(request.url).pathname}`);
        return sandboxFetch(request);
      },
    });
    const table = await screen.findByRole('table', { name: 'Users' });
    await user.click(within(table).getByRole('link', { name: '..' }));

    expect(await screen.findByRole('heading', { name: '..', level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/users/*..');
    expect(
      await screen.findAllByText(/The user-id "\.\." cannot be put in a URL path/),
    ).not.toHaveLength(0);
    // `/v2/users/..` would have become `/v2/`, `/v2/users/../rights` `/v2/rights`.
    expect(requested).not.toContainEqual(expect.stringMatching(/ \/v2\/(rights)?$/));

    await user.click(screen.getByRole('link', { name: 'Back to users' }));
    await user.click(
      within(await screen.findByRole('table', { name: 'Users' })).getByRole('link', {
        name: 'new',
      }),
    );
    // The user named `new`, not the form that creates one.
    expect(await screen.findByRole('heading', { name: 'new', level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/users/*new');
    await waitFor(() => {
      expect(requested).toContain('GET /v2/users/new');
    });
  });

  it('opens an identity provider called ".." with the same explanation', async () => {
    allowConsole(/UNADDRESSABLE_PATH_PARAMETER/);
    const sandbox = createSandbox();
    await sandboxJson(sandbox, 'POST', '/v2/idps', {
      identityProviderConfig: {
        identityProviderId: '..',
        isDeactivated: false,
        issuer: 'https://dots.example',
        jwksUrl: 'https://dots.example/jwks.json',
        audience: '',
      },
    });
    const { user, router } = renderRoute('/identity-providers', { sandbox });
    await user.click(await screen.findByRole('link', { name: '..' }));
    expect(await screen.findByRole('heading', { name: '..', level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/identity-providers/*..');
    expect(
      await screen.findAllByText(/The idp-id "\.\." cannot be put in a URL path/),
    ).not.toHaveLength(0);
  });
});
