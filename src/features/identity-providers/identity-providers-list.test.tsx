import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';

describe('identity providers list', () => {
  it('lists each IdP with issuer, JWKS URL, audience and status, linked to its page', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [
      { identityProviderId: 'acme', audience: 'ledger-api' },
      { identityProviderId: 'globex', isDeactivated: true },
    ]);
    renderRoute('/identity-providers', { sandbox });

    const table = await screen.findByRole('table', { name: 'Identity providers' });
    expect(screen.getByRole('heading', { name: 'Identity providers', level: 1 })).toBeVisible();
    const acme = within(table).getByRole('link', { name: 'acme' });
    expect(acme).toHaveAttribute('href', '/identity-providers/acme');
    const acmeRow = acme.closest('tr');
    if (!acmeRow) throw new Error('no row');
    expect(within(acmeRow).getByText('https://acme.example.com')).toBeVisible();
    expect(within(acmeRow).getByText('https://acme.example.com/jwks.json')).toBeVisible();
    expect(within(acmeRow).getByText('ledger-api')).toBeVisible();
    expect(within(acmeRow).getByText('Active')).toBeVisible();
    const globexRow = within(table).getByRole('link', { name: 'globex' }).closest('tr');
    if (!globexRow) throw new Error('no row');
    expect(within(globexRow).getByText('none')).toBeVisible();
    expect(within(globexRow).getByText('Deactivated')).toBeVisible();

    expect(screen.getByText('2 of 16 identity providers configured.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Create identity provider' })).toHaveAttribute(
      'href',
      '/identity-providers/new',
    );
  });

  it('offers "Create identity provider" when there is none', async () => {
    const { user } = renderRoute('/identity-providers');

    expect(await screen.findByText('No identity providers yet')).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Create identity provider' }));
    expect(await screen.findByRole('heading', { name: 'Create identity provider' })).toBeVisible();
  });

  it('says when the participant holds the most IdPs it can', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(
      sandbox,
      Array.from({ length: 16 }, (_, index) => ({ identityProviderId: `idp-${String(index)}` })),
    );
    renderRoute('/identity-providers', { sandbox });

    expect(
      await screen.findByText(
        '16 of 16 identity providers configured: the participant holds no more; delete one to add another.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Create identity provider' })).toBeDisabled();
  });

  it('shows why the list could not be read, and recovers on Retry', async () => {
    const { user, interceptNetwork } = renderRoute('/identity-providers', {
      intercept: (request, sandboxFetch) =>
        new URL(request.url).pathname === '/v2/idps'
          ? Promise.resolve(
              Response.json(
                {
                  code: 'NA',
                  cause: 'A security-sensitive error has been received',
                  correlationId: 'corr-1',
                  traceId: 'corr-1',
                  context: {},
                  resources: [],
                  errorCategory: -1,
                  grpcCodeValue: 13,
                  retryInfo: null,
                  definiteAnswer: null,
                },
                { status: 500 },
              ),
            )
          : sandboxFetch(request),
    });
    allowConsole(/^ApiError: NA/);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('A security-sensitive error has been received');
    expect(within(alert).getByRole('button', { name: 'Copy correlation id' })).toBeVisible();

    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No identity providers yet')).toBeVisible();
    await waitFor(() => {
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });
  });
});
