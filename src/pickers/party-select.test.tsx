import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedParties } from '@/testing/seed-parties';

// Journeys that also open the created user; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 20_000;

// The picker is exercised where the app uses it: the create-user form's primary party.
const primaryParty = () => screen.getByRole('combobox', { name: /^Primary party/ });

describe('party picker', () => {
  it('offers the parties with their hint and full id, filtered by what is typed', async () => {
    const sandbox = createSandbox();
    const [alice, bob] = await seedParties(sandbox, ['alice', 'bob']);
    const { user } = renderRoute('/users/new', { sandbox });

    await waitFor(() => {
      expect(primaryParty()).toBeEnabled();
    });
    await user.click(primaryParty());
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      `alice ${alice ?? ''}`,
      `bob ${bob ?? ''}`,
    ]);
    await user.type(primaryParty(), 'bo');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      `bob ${bob ?? ''}`,
    ]);
  });

  it(
    'still takes a typed party id when the parties cannot be loaded, and says why',
    async () => {
      const { user, sandbox } = renderRoute('/users/new', {
        intercept: (request, sandboxFetch) =>
          new URL(request.url).pathname === '/v2/parties'
            ? Promise.reject(new TypeError('fetch failed'))
            : sandboxFetch(request),
      });

      await waitFor(() => {
        expect(primaryParty()).toHaveAccessibleDescription(
          /Parties could not be loaded \(The server could not be reached: fetch failed\); type a party id\./,
        );
      });
      await user.type(screen.getByRole('textbox', { name: /^User id/ }), 'ops');
      await user.click(primaryParty());
      await user.paste('typed::1220ab');
      await user.click(screen.getByRole('button', { name: 'Create user' }));

      expect(await screen.findByRole('heading', { name: 'ops' })).toBeVisible();
      expect(sandbox.state.users.get('ops')?.primaryParty).toBe('typed::1220ab');
    },
    JOURNEY_TIMEOUT,
  );

  it('says when it shows only the first page of parties', async () => {
    const sandbox = createSandbox();
    await seedParties(sandbox, ['alice']);
    renderRoute('/users/new', {
      sandbox,
      // A participant with more parties than one page holds answers with a next page token.
      intercept: async (request, sandboxFetch) => {
        const response = await sandboxFetch(request);
        if (new URL(request.url).pathname !== '/v2/parties') return response;
        const body = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...body, nextPageToken: 'more' });
      },
    });

    await waitFor(() => {
      expect(primaryParty()).toHaveAccessibleDescription(
        /Showing the first 1 parties; type any other party id in full\./,
      );
    });
  });

  it('checks the party it holds: hosted here, or a warning for one the participant does not know', async () => {
    const sandbox = createSandbox();
    const [alice] = await seedParties(sandbox, ['alice']);
    const { user } = renderRoute('/users/new', { sandbox });
    await waitFor(() => {
      expect(primaryParty()).toBeEnabled();
    });

    await user.type(primaryParty(), 'ali');
    await waitFor(() => {
      expect(primaryParty()).toHaveAccessibleDescription(/⚠ No party “ali” on this participant/);
    });

    await user.click(
      await screen.findByRole('option', { name: new RegExp(`^alice ${alice ?? ''}`) }),
    );
    await waitFor(() => {
      expect(primaryParty()).toHaveAccessibleDescription(/✓ Hosted here/);
    });

    // A pasted id that is not in the list is looked up.
    await user.clear(primaryParty());
    await user.paste(`remote::1220${'ab'.repeat(32)}`);
    await waitFor(() => {
      expect(primaryParty()).toHaveAccessibleDescription(/⚠ No party “remote::1220ab…/);
    });
  });
});
