import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { sandboxJson, seedParties } from '@/testing/seed-parties';
import { signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';

const TIMEOUT = 30_000;

const jwtSandbox = () => createSandbox({ auth: 'jwt', jwtSecret: 'offboarding-test-secret' });

async function offboardSection() {
  return screen.findByRole('region', { name: 'Offboard' }, { timeout: 10_000 });
}

function step(section: HTMLElement, name: string) {
  return within(section).getByRole('region', { name });
}

async function confirmIn(user: { click: (element: Element) => Promise<void> }, label: string) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: label }));
}

describe('offboarding', { timeout: TIMEOUT }, () => {
  it('lets an IdP admin deactivate, revoke and delete a user of its IdP; the party stays', async () => {
    const sandbox = jwtSandbox();
    const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
    const [dana = ''] = await seedParties(sandbox, ['dana'], {
      identityProviderId: 'acme',
      token: adminToken,
    });
    await sandboxSteps(sandbox, adminToken).createUser('dana', {
      identityProviderId: 'acme',
      primaryParty: dana,
      rights: [{ kind: 'CanActAs', party: dana }, { kind: 'IdentityProviderAdmin' }],
    });
    const { user, router } = renderRoute('/users/dana?idp=acme&tab=offboard', { sandbox });

    const section = await offboardSection();
    const warning = within(section).getByRole('alert', { name: 'The party stays' });
    expect(warning).toHaveTextContent('Parties can never be deleted.');
    expect(warning).toHaveTextContent(`${dana} stays on the participant`);
    expect(warning).toHaveTextContent('the participant answers 403 to their token');
    expect(warning).toHaveTextContent('not-onboarded page');

    // Someone else changes the user after the page loaded: deactivating still goes through.
    await sandboxJson(
      sandbox,
      'PATCH',
      '/v2/users/dana',
      {
        user: { id: 'dana', identityProviderId: 'acme', metadata: { annotations: { team: 'x' } } },
        updateMask: { paths: ['metadata.annotations'] },
      },
      adminToken,
    );
    expect(sandbox.state.users.get('dana')?.resourceVersion).toBe(1);

    // Step 1: a confirm first; cancelling changes nothing.
    await user.click(
      within(step(section, 'Step 1: Deactivate')).getByRole('button', { name: 'Deactivate' }),
    );
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect(sandbox.state.users.get('dana')?.isDeactivated).toBe(false);
    await user.click(
      within(step(section, 'Step 1: Deactivate')).getByRole('button', { name: 'Deactivate' }),
    );
    await confirmIn(user, 'Deactivate user');
    expect(
      await within(step(section, 'Step 1: Deactivate')).findByText('Done: deactivated'),
    ).toBeVisible();
    expect(sandbox.state.users.get('dana')?.isDeactivated).toBe(true);

    const revokeStep = step(section, 'Step 2: Revoke all rights');
    await user.click(
      await within(revokeStep).findByRole('button', { name: 'Revoke all 2 rights' }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(`Act as ${dana}`);
    expect(dialog).toHaveTextContent('Identity provider admin');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke 2 rights' }));
    expect(await within(revokeStep).findByText('Done: no rights left')).toBeVisible();
    expect(sandbox.state.users.rights('dana')).toEqual([]);

    await user.click(
      within(step(section, 'Step 3: Delete')).getByRole('button', { name: 'Delete user' }),
    );
    await confirmIn(user, 'Delete user');
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/users');
    });
    expect(sandbox.state.users.get('dana')).toBeUndefined();
    expect(sandbox.state.parties.get(dana)?.identityProviderId).toBe('acme');
  });

  it('says what a participant admin cannot do for a user of another IdP through the JSON API', async () => {
    const sandbox = jwtSandbox();
    const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
    await sandboxSteps(sandbox, adminToken).createUser('erin', { identityProviderId: 'acme' });
    await signInAs(sandbox, 'participant_admin');
    const { user, router } = renderRoute('/users/erin?idp=acme&tab=offboard', { sandbox });

    const section = await offboardSection();
    expect(
      within(step(section, 'Step 1: Deactivate')).getByRole('button', { name: 'Deactivate' }),
    ).toBeEnabled();
    const revoke = step(section, 'Step 2: Revoke all rights');
    expect(within(revoke).getByRole('button', { name: /^Revoke all/ })).toBeDisabled();
    expect(revoke).toHaveTextContent('lists rights only of default-IdP users');
    const remove = step(section, 'Step 3: Delete');
    expect(within(remove).getByRole('button', { name: 'Delete user' })).toBeDisabled();
    expect(remove).toHaveTextContent('move this user to the default IdP first');
    // The fix sits next to the refused delete; applying it keeps the user on the Offboard tab.
    await user.click(
      within(remove).getByRole('button', { name: 'Move to the default identity provider' }),
    );
    await waitFor(() => {
      expect(router.state.location.search).toBe('?tab=offboard');
    });
    expect(sandbox.state.users.get('erin')?.identityProviderId).toBe('');
    // The page remounts at the user's new address; its delete is allowed now.
    await waitFor(() => {
      const moved = step(screen.getByRole('region', { name: 'Offboard' }), 'Step 3: Delete');
      expect(within(moved).getByRole('button', { name: 'Delete user' })).toBeEnabled();
    });
  });

  it('keeps an IdP admin from offboarding itself, and names the rights only a participant admin revokes', async () => {
    const sandbox = jwtSandbox();
    const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
    await sandboxSteps(sandbox, adminToken).createUser('boss', { identityProviderId: 'acme' });
    const participantAdmin = await signInAs(sandbox, 'participant_admin');
    await sandboxSteps(sandbox, participantAdmin).client.request('POST', '/v2/users/boss/rights', {
      body: {
        userId: 'boss',
        identityProviderId: 'acme',
        rights: [
          { kind: { CanReadAsAnyParty: { value: {} } } },
          { kind: { IdentityProviderAdmin: { value: {} } } },
        ],
      },
    });
    await signInAs(sandbox, 'acme-admin');
    const { unmount } = renderRoute('/users/boss?idp=acme&tab=offboard', { sandbox });

    const section = await offboardSection();
    const revoke = step(section, 'Step 2: Revoke all rights');
    expect(await within(revoke).findByRole('button', { name: 'Revoke all 1 right' })).toBeEnabled();
    expect(revoke).toHaveTextContent('Only a participant admin can revoke: Read as any party.');
    unmount();

    renderRoute('/users/acme-admin?idp=acme&tab=offboard', { sandbox });
    const own = await offboardSection();
    for (const name of ['Deactivate', 'Delete user']) {
      expect(within(own).getByRole('button', { name })).toBeDisabled();
    }
    expect(own).toHaveTextContent('You cannot offboard yourself.');
  });
});
