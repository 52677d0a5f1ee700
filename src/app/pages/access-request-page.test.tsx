import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { accessRequestQuery } from '@/lib/access/access-request';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const IDP = 'acme-idp';

async function asAcmeAdmin() {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'access-request-page-test' });
  await signInAsIdentityProviderAdmin(sandbox, { identityProviderId: IDP });
  return sandbox;
}

describe('access request review', () => {
  it('opens onboarding prefilled, the request shown as text and checked like typed input', async () => {
    const sandbox = await asAcmeAdmin();
    const query = accessRequestQuery({
      issuer: 'https://login.acme.example',
      subject: 'acme-new-hire',
      identityProviderId: IDP,
      name: 'New <b>Hire</b>',
      requestedAccess: 'trade as <my> desk',
    });
    const { user, router } = renderRoute(`/access-requests/review?${query}`, { sandbox });

    await user.click(await screen.findByRole('link', { name: 'Onboard this person' }));

    const subject = await screen.findByRole('textbox', { name: /^Subject \(user id\)/ });
    expect(router.state.location.pathname).toBe('/onboard');
    expect(subject).toHaveValue('acme-new-hire');
    expect(screen.getByRole('textbox', { name: /^Display name/ })).toHaveValue('New <b>Hire</b>');
    expect(screen.getByRole('textbox', { name: /^Identity provider/ })).toHaveValue(IDP);
    // What they asked for, as text for the admin to choose rights by; never markup.
    expect(screen.getByText('trade as <my> desk')).toBeVisible();
    expect(document.querySelector('b')).toBeNull();
    // Nothing is chosen for the admin: the party still has to be named.
    await user.click(screen.getByRole('button', { name: 'Review the plan' }));
    await waitFor(() => {
      expect(screen.getByRole('textbox', { name: /^Party hint/ })).toHaveAccessibleDescription(
        /Required/,
      );
    });
    expect(sandbox.state.users.get('acme-new-hire')).toBeUndefined();
  });

  it('shows a prefilled subject that is no user id as a field problem at once', async () => {
    const sandbox = await asAcmeAdmin();
    const { user } = renderRoute(`/onboard?sub=${encodeURIComponent('new hire')}&idp=${IDP}`, {
      sandbox,
    });
    const subject = await screen.findByRole('textbox', { name: /^Subject \(user id\)/ });
    await user.click(screen.getByRole('button', { name: 'Review the plan' }));
    await waitFor(() => {
      expect(subject).toHaveAccessibleDescription(/A space is not allowed in a user id/);
    });
    expect(subject).toHaveValue('new hire');
  });

  it('offers no onboarding to an IdP admin of another identity provider', async () => {
    const sandbox = await asAcmeAdmin();
    const query = accessRequestQuery({
      issuer: 'https://login.other.example',
      subject: 'someone',
      identityProviderId: 'other-idp',
    });
    renderRoute(`/access-requests/review?${query}`, { sandbox });
    expect(await screen.findByText(/An IdP admin of other-idp can onboard/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Onboard this person' })).not.toBeInTheDocument();
  });

  it("leaves another IdP's request to its IdP admin, even for a participant admin", async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: 'access-request-page-test' });
    await signInAs(sandbox, 'participant_admin');
    const query = accessRequestQuery({
      issuer: 'https://login.acme.example',
      subject: 'acme-new-hire',
      identityProviderId: IDP,
    });
    renderRoute(`/access-requests/review?${query}`, { sandbox });
    expect(await screen.findByText(/An IdP admin of acme-idp can onboard/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Onboard this person' })).not.toBeInTheDocument();
  });
});
