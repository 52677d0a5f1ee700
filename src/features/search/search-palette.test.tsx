import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedIouSplit } from '@/testing/seed-transactions';
import { mintToken, signInAs, signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';
import { flushVisits } from './visits';

// Whole-app journeys against the in-process sandbox; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

const pressSearchShortcut = (user: ReturnType<typeof renderRoute>['user']) =>
  user.keyboard('{Control>}k{/Control}');

const searchBox = () => screen.findByRole('combobox', { name: 'Id, page or action' });
const results = () => screen.getByRole('listbox', { name: 'Results' });
const optionNames = () =>
  within(results())
    .queryAllByRole('option')
    .map((option) => option.textContent);

describe('the search box', () => {
  // As when the page is left: the visits go to the storage each test starts without.
  afterEach(flushVisits);

  it(
    'opens on Ctrl+K as a dialog whose combobox drives the results, announces their count, and closes on Esc',
    async () => {
      const { user } = renderRoute('/token-doctor');
      const trigger = await screen.findByRole('button', { name: 'Search Ctrl+K' });
      expect(trigger).toHaveAttribute('aria-keyshortcuts', 'Control+K');

      await pressSearchShortcut(user);
      // The first opening loads the palette's chunk: slow on a loaded machine.
      const dialog = await screen.findByRole('dialog', { name: 'Search' }, { timeout: 10_000 });
      const input = await searchBox();
      expect(input).toHaveFocus();
      expect(input).toHaveAttribute('aria-controls', results().id);
      // Every button has a name: axe found the modal's close button without one.
      expect(within(dialog).getByRole('button', { name: 'Close search' })).toBeVisible();
      // With nothing typed: the pages and actions (no authentication: the caller may do all).
      await waitFor(() => {
        expect(within(results()).getByRole('group', { name: 'Actions' })).toBeVisible();
      });
      expect(within(results()).getByRole('group', { name: 'Pages' })).toBeVisible();
      const count = within(dialog).getByRole('status');
      expect(count).toHaveTextContent(/^\d+ results$/);

      // The first option is active; the arrows move through them, the input keeping the focus.
      const options = within(results()).getAllByRole('option');
      expect(options[0]).toHaveAttribute('aria-selected', 'true');
      expect(input).toHaveAttribute('aria-activedescendant', options[0]?.id);
      await user.keyboard('{ArrowDown}');
      expect(options[1]).toHaveAttribute('aria-selected', 'true');
      expect(input).toHaveAttribute('aria-activedescendant', options[1]?.id);
      await user.keyboard('{ArrowUp}{ArrowUp}');
      expect(options.at(-1)).toHaveAttribute('aria-selected', 'true');
      expect(input).toHaveFocus();

      // A word is a user id too, but the action it names comes first.
      await user.type(input, 'upload');
      expect(optionNames()).toEqual(['Upload DAR', expect.stringMatching(/^User upload/)]);
      expect(within(results()).getByRole('group', { name: 'Other matches' })).toBeVisible();
      expect(count).toHaveTextContent('2 results');
      await user.clear(input);
      await user.type(input, 'no such thing here');
      expect(count).toHaveTextContent('No id, name, page or action matches this');
      expect(input).toHaveAttribute('aria-expanded', 'false');

      await user.keyboard('{Escape}');
      await waitFor(() => {
        expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();
      });

      // Opened from the header's button, it gives the focus back to it, and starts empty.
      await user.click(trigger);
      expect(await searchBox()).toHaveValue('');
      await user.keyboard('{Escape}');
      await waitFor(() => {
        expect(trigger).toHaveFocus();
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'takes Cmd+K on a Mac, and says so',
    async () => {
      vi.spyOn(window.navigator, 'userAgent', 'get').mockReturnValue(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko)',
      );
      const { user } = renderRoute('/token-doctor');
      const trigger = await screen.findByRole('button', { name: 'Search ⌘K' });
      expect(trigger).toHaveAttribute('aria-keyshortcuts', 'Meta+K');
      expect(trigger).toHaveTextContent('⌘K');
      await user.keyboard('{Meta>}k{/Meta}');
      expect(await screen.findByRole('dialog', { name: 'Search' })).toBeVisible();
      await user.keyboard('{Escape}');
      await waitFor(() => {
        expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();
      });
      // Ctrl+K is a text field's "delete to the end of the line" there (the palette is loaded
      // now, so it would show at once).
      await pressSearchShortcut(user);
      expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'goes to the contract page of a pasted contract id on Enter, and lists it and the pages visited among recent items next time',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const contractId = seeded.splitIds[0];
      const { user, router } = renderRoute('/token-doctor', { sandbox });
      await screen.findByRole('button', { name: 'Search Ctrl+K' });

      await pressSearchShortcut(user);
      await searchBox();
      await user.paste(`  ${contractId}\n`);
      const [first] = within(results()).getAllByRole('option');
      expect(first).toHaveTextContent(`Contract ${contractId}`);
      expect(first).toHaveAttribute('aria-selected', 'true');
      await user.keyboard('{Enter}');

      await waitFor(() => {
        expect(router.state.location.pathname).toBe(`/contracts/${contractId}`);
      });
      expect(await screen.findByRole('heading', { name: 'Contract', level: 1 })).toBeVisible();
      await waitFor(() => {
        expect(screen.queryByRole('dialog', { name: 'Search' })).not.toBeInTheDocument();
      });

      // Next time the pages visited are listed, but not the one the user is on.
      await pressSearchShortcut(user);
      const input = await searchBox();
      const recentNames = async () =>
        within(await within(results()).findByRole('group', { name: 'Recent' }))
          .getAllByRole('option')
          .map((option) => option.textContent);
      expect(await recentNames()).toEqual(['Token doctor']);
      // Typing filters them.
      await user.type(input, 'composer');
      expect(within(results()).queryByRole('group', { name: 'Recent' })).not.toBeInTheDocument();
      // A party id says whether the party is hosted here.
      await user.clear(input);
      await user.paste(seeded.owner);
      await waitFor(() => {
        expect(within(results()).getAllByRole('option')[0]).toHaveTextContent(
          `Party ${seeded.owner} Hosted here`,
        );
      });
      // An update id goes to the transaction view.
      await user.clear(input);
      await user.paste(seeded.split.updateId);
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(router.state.location.search).toBe(`?update=${seeded.split.updateId}`);
      });

      // From there, the contract opened before is the newest recent item.
      await pressSearchShortcut(user);
      await searchBox();
      expect(await recentNames()).toEqual([
        expect.stringMatching(new RegExp(`^Contract ${contractId}`)),
        'Token doctor',
      ]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'looks a contract id up through the contract service: active, archived, or not visible',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const asked: string[] = [];
      const { user, router } = renderRoute('/token-doctor', {
        sandbox,
        intercept: (request, sandboxFetch) => {
          asked.push(new URL(request.url).pathname);
          return sandboxFetch(request);
        },
      });
      await screen.findByRole('button', { name: 'Search Ctrl+K' });
      await pressSearchShortcut(user);
      const input = await searchBox();
      const firstOption = () => within(results()).getAllByRole('option')[0];

      // The Iou that was split is archived; one of its halves is active.
      await user.paste(seeded.iouId);
      await waitFor(() => {
        expect(firstOption()).toHaveTextContent(`Contract ${seeded.iouId} An archived Iou`);
      });
      expect(asked).toContain('/v2/contracts/contract-by-id');
      await user.clear(input);
      await user.paste(seeded.splitIds[0]);
      await waitFor(() => {
        expect(firstOption()).toHaveTextContent(`Contract ${seeded.splitIds[0]} An active Iou`);
      });
      await user.clear(input);
      const unknown = `00${'ab'.repeat(33)}`;
      await user.paste(unknown);
      await waitFor(() => {
        expect(firstOption()).toHaveTextContent(
          `Contract ${unknown} No contract with this id is visible to you`,
        );
      });

      // The result leads to the contract page, which says the same.
      await user.clear(input);
      await user.paste(seeded.iouId);
      await waitFor(() => {
        expect(firstOption()).toHaveTextContent('An archived Iou');
      });
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(router.state.location.pathname).toBe(`/contracts/${seeded.iouId}`);
      });
      expect(
        await screen.findByText('Archived', { selector: '.mantine-Badge-label' }),
      ).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'still offers the contract page where the participant has no contract service',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      // An older participant: the endpoint is not there at all.
      let lookups = 0;
      const { user } = renderRoute('/token-doctor', {
        sandbox,
        intercept: (request, sandboxFetch) => {
          if (new URL(request.url).pathname !== '/v2/contracts/contract-by-id') {
            return sandboxFetch(request);
          }
          lookups += 1;
          return Promise.resolve(new Response('Not Found', { status: 404 }));
        },
      });
      await screen.findByRole('button', { name: 'Search Ctrl+K' });
      await pressSearchShortcut(user);
      await searchBox();
      await user.paste(seeded.splitIds[0]);
      await waitFor(() => {
        expect(lookups).toBe(1);
      });
      // The lookup failed: the item is today's, a link to the contract page.
      const first = within(results()).getAllByRole('option')[0];
      expect(first).toHaveTextContent(`Contract ${seeded.splitIds[0]} Its create and archive`);
      await user.keyboard('{Enter}');
      expect(await screen.findByRole('heading', { name: 'Contract', level: 1 })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers a number as an offset and as a user id, saying whether that user exists',
    async () => {
      const sandbox = createSandbox();
      await sandboxSteps(sandbox).createUser('42');
      const { user, router } = renderRoute('/token-doctor', { sandbox });
      await screen.findByRole('button', { name: 'Search Ctrl+K' });

      await pressSearchShortcut(user);
      await user.type(await searchBox(), '42');
      // Once the lookup finds the user, it is among the pages to go to, after the offset.
      await waitFor(() => {
        const goTo = within(results()).getByRole('group', { name: 'Go to' });
        expect(
          within(goTo)
            .getAllByRole('option')
            .map((option) => option.textContent),
        ).toEqual([
          // A fresh ledger has not reached offset 42.
          expect.stringMatching(/^Update at offset 42 Beyond the ledger end, \d+$/),
          'User 42 A user of the default identity provider',
        ]);
      });

      // No user 427: that reading comes last, saying so; the offset stays first.
      await user.type(await searchBox(), '7');
      await waitFor(() => {
        const other = within(results()).getByRole('group', { name: 'Other matches' });
        expect(within(other).getByRole('option')).toHaveTextContent(
          'User 427 No user with this id here',
        );
      });
      expect(within(results()).getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
      expect(within(results()).getAllByRole('option')[0]).toHaveTextContent(
        /^Update at offset 427/,
      );
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(router.state.location.search).toBe('?offset=427');
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'reads a template id by package name, tells from the package that it is a template, and goes to its package',
    async () => {
      const { user, router } = renderRoute('/token-doctor');
      await screen.findByRole('button', { name: 'Search Ctrl+K' });

      await pressSearchShortcut(user);
      await searchBox();
      await user.paste('#sandbox-demo:Demo.Iou:Iou');
      // Once the newest sandbox-demo package is decoded, the option names the kind.
      const goTo = await within(results()).findByRole('group', { name: 'Go to' });
      await waitFor(() => {
        expect(
          within(goTo)
            .getAllByRole('option')
            .map((option) => option.textContent),
        ).toEqual([
          'Template #sandbox-demo:Demo.Iou:Iou Demo.Iou:Iou in its package',
          'Active contracts #sandbox-demo:Demo.Iou:Iou Of Demo.Iou:Iou',
        ]);
      });
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(router.state.location.pathname).toMatch(/^\/packages\/[0-9a-f]{64}$/);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'looks a user id up in the identity provider an IdP admin administers, and opens it there',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      const { adminToken } = await signInAsIdentityProviderAdmin(sandbox);
      await sandboxSteps(sandbox, adminToken).createUser('acme.trader', {
        identityProviderId: 'acme',
      });
      const { user, router } = renderRoute('/token-doctor', { sandbox });
      await screen.findByRole('link', { name: 'Users' });

      await pressSearchShortcut(user);
      await user.type(await searchBox(), 'acme.trader');
      const goTo = await within(results()).findByRole('group', { name: 'Go to' });
      expect(within(goTo).getByRole('option')).toHaveTextContent(
        'User acme.trader A user of identity provider acme',
      );
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
          '/users/acme.trader?idp=acme',
        );
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'offers a plain user only the pages and actions it may use',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      const admin = sandboxSteps(sandbox, await mintToken(sandbox, 'participant_admin'));
      await admin.createUser('plain.pat');
      await signInAs(sandbox, 'plain.pat');
      const { user } = renderRoute('/token-doctor', { sandbox });
      // The navigation shows once the caller is known; so do the palette's actions.
      await screen.findByRole('link', { name: 'My user' });

      await user.click(await screen.findByRole('button', { name: 'Search Ctrl+K' }));
      await searchBox();
      const names = optionNames();
      expect(names).toEqual(
        expect.arrayContaining([
          'Command composer',
          'Active contracts',
          'Live',
          'Transactions',
          'Token doctor',
          // Everyone's own calls are in the shared audit log.
          'Activity',
        ]),
      );
      for (const adminOnly of [
        'Users',
        'Create user',
        'Onboard a person',
        'Allocate party',
        'Create identity provider',
        'Upload DAR',
      ]) {
        expect(names).not.toContain(adminOnly);
      }
      expect(within(results()).queryByRole('group', { name: 'Actions' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );
});
