import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIdentityProviders } from '@/testing/seed-identity-providers';

const form = () => screen.getByRole('form', { name: 'Create identity provider' });
const field = (label: string | RegExp) => within(form()).getByRole('textbox', { name: label });
const submit = () => within(form()).getByRole('button', { name: 'Create identity provider' });

async function fill(
  user: ReturnType<typeof renderRoute>['user'],
  values: { id?: string; issuer?: string; jwksUrl?: string; audience?: string },
) {
  await screen.findByRole('form', { name: 'Create identity provider' });
  if (values.id) await user.type(field(/identity provider id/i), values.id);
  if (values.issuer) await user.type(field(/issuer/i), values.issuer);
  if (values.jwksUrl) await user.type(field(/jwks url/i), values.jwksUrl);
  if (values.audience) await user.type(field(/audience/i), values.audience);
}

describe('create identity provider', { timeout: 20_000 }, () => {
  it('creates the IdP, then links to its page', async () => {
    const { user, router, sandbox } = renderRoute('/identity-providers/new');
    await fill(user, {
      id: 'acme corp/1',
      issuer: 'https://auth.acme.test',
      jwksUrl: 'https://auth.acme.test/jwks.json',
      audience: 'ledger',
    });
    await user.click(submit());

    expect(await screen.findByText('Identity provider acme corp/1 created')).toBeVisible();
    // The page goes on to the first IdP admin; the new IdP is a link away.
    await user.click(await screen.findByRole('link', { name: 'acme corp/1' }));
    expect(await screen.findByRole('heading', { name: 'acme corp/1', level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/identity-providers/acme%20corp%2F1');
    const issuer = await screen.findByRole('group', { name: 'Issuer' });
    expect(issuer).toHaveTextContent('https://auth.acme.test');
    expect(sandbox.state.idps.get('acme corp/1')).toMatchObject({
      issuer: 'https://auth.acme.test',
      jwksUrl: 'https://auth.acme.test/jwks.json',
      audience: 'ledger',
      isDeactivated: false,
    });
  });

  it('warns about plain-http URLs to other machines, and still creates the IdP', async () => {
    const { user, sandbox } = renderRoute('/identity-providers/new');
    await fill(user, {
      id: 'lab',
      issuer: 'http://idp.lab.example',
      jwksUrl: 'http://idp.lab.example/jwks',
    });
    expect(await screen.findByText(/anyone on the way can swap the keys/)).toBeVisible();
    expect(screen.getByText(/Use an https issuer/)).toBeVisible();
    await user.clear(field(/jwks url/i));
    await user.type(field(/jwks url/i), 'http://127.0.0.1:8080/jwks');
    expect(screen.queryByText(/anyone on the way can swap the keys/)).not.toBeInTheDocument();

    await user.click(submit());
    expect(await screen.findByText('Identity provider lab created')).toBeVisible();
    expect(sandbox.state.idps.get('lab')).toMatchObject({ issuer: 'http://idp.lab.example' });
  });

  it('checks the fields before sending anything', async () => {
    const { user, sandbox } = renderRoute('/identity-providers/new');
    await screen.findByRole('form', { name: 'Create identity provider' });
    await user.click(submit());

    // Validation is asynchronous (the schema resolver): on a busy machine it lands a little later.
    await waitFor(() => {
      expect(field(/identity provider id/i)).toHaveAccessibleDescription(/Required/);
    });
    expect(field(/issuer/i)).toHaveAccessibleDescription(/Required/);
    expect(field(/jwks url/i)).toHaveAccessibleDescription(/Required/);

    await fill(user, { id: 'bad!id', issuer: 'iss', jwksUrl: 'url.com' });
    await user.click(submit());
    await waitFor(() => {
      expect(field(/identity provider id/i)).toHaveAccessibleDescription(
        /Only letters, digits and \. _ : - # \/ and space/,
      );
    });
    expect(field(/jwks url/i)).toHaveAccessibleDescription(/Must be an absolute URL/);
    expect(field(/issuer/i)).not.toHaveAccessibleDescription(/Required/);
    expect(sandbox.state.idps.list()).toEqual([]);
  });

  it('shows IDP_CONFIG_ALREADY_EXISTS on the id and keeps what was typed', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [{ identityProviderId: 'acme' }]);
    const { user } = renderRoute('/identity-providers/new', { sandbox });
    await fill(user, { id: 'acme', issuer: 'https://other.test', jwksUrl: 'https://other.test/k' });
    await user.click(submit());

    expect(
      await within(form()).findByText(/identity provider "acme" already exists/),
    ).toBeVisible();
    expect(field(/identity provider id/i)).toHaveAccessibleDescription(/already exists/);
    expect(field(/identity provider id/i)).toHaveValue('acme');
    expect(field(/issuer/i)).toHaveValue('https://other.test');
  });

  it('offers to open the IdP whose id is taken, and opens it', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [{ identityProviderId: 'acme' }]);
    const { user, router } = renderRoute('/identity-providers/new', { sandbox });
    await fill(user, { id: 'acme', issuer: 'https://other.test', jwksUrl: 'https://other.test/k' });
    await user.click(submit());

    expect(
      await within(form()).findByText(/An identity provider “acme” already exists/),
    ).toBeVisible();
    await user.click(within(form()).getByRole('link', { name: 'Open acme' }));
    expect(await screen.findByRole('heading', { name: 'acme', level: 1 })).toBeVisible();
    expect(router.state.location.pathname).toBe('/identity-providers/acme');
    expect(await screen.findByRole('group', { name: 'Issuer' })).toHaveTextContent(
      'https://acme.example.com',
    );
  });

  it('copies the create request as curl, and Cancel goes back to the list', async () => {
    const { user, router } = renderRoute('/identity-providers/new');
    await fill(user, {
      id: 'lab',
      issuer: 'https://auth.lab.test',
      jwksUrl: 'https://auth.lab.test/jwks',
    });
    await user.click(within(form()).getByRole('button', { name: 'Copy as…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'curl' }));
    const curl = await navigator.clipboard.readText();
    expect(curl).toContain(`-X POST '${window.location.origin}/v2/idps'`);
    expect(JSON.parse(/-d '([\s\S]*)'$/.exec(curl)?.[1] ?? 'null')).toEqual({
      identityProviderConfig: {
        identityProviderId: 'lab',
        issuer: 'https://auth.lab.test',
        jwksUrl: 'https://auth.lab.test/jwks',
        audience: '',
        isDeactivated: false,
      },
    });

    await user.click(within(form()).getByRole('link', { name: 'Cancel' }));
    expect(
      await screen.findByRole('heading', { name: 'Identity providers', level: 1 }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe('/identity-providers');
  });

  it('shows IDP_CONFIG_ISSUER_ALREADY_EXISTS on the issuer', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(sandbox, [{ identityProviderId: 'acme' }]);
    const { user } = renderRoute('/identity-providers/new', { sandbox });
    await fill(user, {
      id: 'acme-2',
      issuer: 'https://acme.example.com',
      jwksUrl: 'https://acme.example.com/k',
    });
    await user.click(submit());

    expect(
      await within(form()).findByText(/with issuer "https:\/\/acme\.example\.com" already exists/),
    ).toBeVisible();
    expect(field(/issuer/i)).toHaveAccessibleDescription(/already exists/);
    expect(field(/identity provider id/i)).not.toHaveAccessibleDescription(/already exists/);
    // Which IdP has it, and the way there.
    expect(
      await within(form()).findByText(/Identity provider “acme” already has the issuer/),
    ).toBeVisible();
    expect(within(form()).getByRole('link', { name: 'Open acme' })).toHaveAttribute(
      'href',
      '/identity-providers/acme',
    );
  });

  it('shows INVALID_FIELD on the field the participant names', async () => {
    const { user } = renderRoute('/identity-providers/new');
    // Absolute, so the form accepts it; the participant knows no handler for the scheme.
    await fill(user, { id: 'acme', issuer: 'https://acme.test', jwksUrl: 'gopher://acme.test/k' });
    await user.click(submit());

    expect(await within(form()).findByText(/Invalid field jwks_url/)).toBeVisible();
    expect(field(/jwks url/i)).toHaveAccessibleDescription(/unknown protocol: gopher/);
  });

  it('shows errors no field owns at the top of the form', async () => {
    const sandbox = createSandbox();
    seedIdentityProviders(
      sandbox,
      Array.from({ length: 16 }, (_, index) => ({ identityProviderId: `idp-${String(index)}` })),
    );
    const { user } = renderRoute('/identity-providers/new', { sandbox });
    await fill(user, {
      id: 'one-more',
      issuer: 'https://more.test',
      jwksUrl: 'https://more.test/k',
    });
    await user.click(submit());

    const alert = await within(form()).findByRole('alert');
    expect(alert).toHaveTextContent('TOO_MANY_IDENTITY_PROVIDER_CONFIGS');
    expect(field(/identity provider id/i)).toHaveValue('one-more');
  });
});
