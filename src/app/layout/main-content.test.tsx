import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readAccessToken, writeAccessToken } from '@/api/access-token';
import { sessionQueries } from '@/api/session';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, hs256Token, TEST_SECRET } from '@/testing/sandbox-network';

describe('a session refused mid-way', () => {
  it('keeps the page and what was typed, and signs in again in a dialog', async () => {
    const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
    writeAccessToken(await hs256Token('participant_admin'));
    const { user, queryClient } = renderRoute('/users/new', { sandbox });
    const userId = await screen.findByRole('textbox', { name: /^User id/ });
    await user.type(userId, 'half-typed');

    // The token stops working (it expired, or its IdP was deactivated) and who-am-I is asked again.
    const expired = await hs256Token('participant_admin', { expiresIn: '-1m' });
    writeAccessToken(expired);
    await queryClient.invalidateQueries({ queryKey: sessionQueries.all() });

    const banner = (await screen.findByText('Sign-in needed')).closest<HTMLElement>(
      '[role="alert"]',
    );
    if (!banner) throw new Error('no banner');
    expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveValue('half-typed');

    await user.click(within(banner).getByRole('button', { name: 'Sign in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign in again' });
    const fresh = await hs256Token('participant_admin');
    // The dialog's form loads on demand.
    await user.click(await within(dialog).findByLabelText('Bearer token'));
    await user.paste(fresh);
    await user.click(within(dialog).getByRole('button', { name: 'Sign in with token' }));

    expect(
      await screen.findByRole('button', { name: 'Signed in: participant_admin' }),
    ).toBeVisible();
    expect(screen.queryByText('Sign-in needed')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^User id/ })).toHaveValue('half-typed');
    expect(readAccessToken()).toBe(fresh);
  });
});
