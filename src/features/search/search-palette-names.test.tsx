import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { seedDemoLedger } from '@/testing/seed-demo';
import { seedIouSplit } from '@/testing/seed-transactions';
import { seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';
import { flushVisits } from './visits';

// Whole-app journeys against the in-process sandbox, seeded as `npm start` is; tight on a
// shared 2-core machine.
const JOURNEY_TIMEOUT = 60_000;

// The first opening loads the palette's chunk.
const searchBox = () =>
  screen.findByRole('combobox', { name: 'Id, page or action' }, { timeout: 10_000 });
const results = () => screen.getByRole('listbox', { name: 'Results' });
const namedGroup = () => within(results()).findByRole('group', { name: 'By name or id' });
const namedRows = async () =>
  within(await namedGroup())
    .getAllByRole('option')
    .map((option) => option.textContent);

/** Opens the search box on the app rendered at `/token-doctor` and returns its input. */
async function openSearch(options: Parameters<typeof renderRoute>[1] = {}) {
  const view = renderRoute('/token-doctor', options);
  await view.user.click(await screen.findByRole('button', { name: 'Search Ctrl+K' }));
  return { ...view, input: await searchBox() };
}

/** Every request path the app sent, to tell which lists it read. */
function recordRequests(asked: string[]) {
  return (request: Request, sandboxFetch: (request: Request) => Promise<Response>) => {
    asked.push(`${request.method} ${new URL(request.url).pathname}`);
    return sandboxFetch(request);
  };
}

describe('the search box, by name and by the start of an id', () => {
  afterEach(flushVisits);

  it(
    'finds "alice", "bank" and "Iou" in the demo, ranked, labelled and highlighted, and opens them',
    async () => {
      const sandbox = createSandbox();
      await seedDemoLedger(sandbox);
      const { user, input, router } = await openSearch({ sandbox });

      await user.type(input, 'alice');
      await waitFor(async () => {
        expect((await namedRows()).slice(0, 2)).toEqual([
          expect.stringMatching(/^Party alice alice::1220[0-9a-f]{64}/),
          expect.stringMatching(/^User Alice Anderson alice\.anderson Primary party alice::/),
        ]);
      });
      // The typed text is marked in each row, as text.
      const [party, person] = within(await namedGroup()).getAllByRole('option');
      expect(party?.querySelector('mark')).toHaveTextContent(/^alice$/);
      expect(person?.querySelector('mark')).toHaveTextContent(/^Alice$/);

      await user.clear(input);
      await user.type(input, 'bank');
      await waitFor(async () => {
        expect(await namedRows()).toEqual([
          expect.stringMatching(/^Party bank bank::/),
          expect.stringMatching(/^User bank-operator bank-operator Primary party bank::/),
          expect.stringMatching(/^User bank-reader bank-reader Primary party bank::/),
        ]);
      });

      await user.clear(input);
      await user.type(input, 'Iou');
      await waitFor(async () => {
        const rows = await namedRows();
        expect(rows[0]).toMatch(/^Template Iou Demo\.Iou:Iou Template in sandbox-demo /);
        expect(rows).toContainEqual(
          expect.stringMatching(/^Choice Iou_Transfer Demo\.Iou:Iou Choice of Iou in sandbox-demo/),
        );
      });
      // The first row is active: Enter opens the template's package.
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(router.state.location.pathname).toMatch(/^\/packages\/[0-9a-f]{64}$/);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'finds an update and a contract by the first 12 characters of their ids among the latest updates, and opens them',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const asked: string[] = [];
      const { user, input, router } = await openSearch({
        sandbox,
        intercept: recordRequests(asked),
      });

      const updateId = seeded.split.updateId;
      await user.type(input, updateId.slice(0, 12));
      await waitFor(async () => {
        expect(await namedRows()).toEqual([
          expect.stringMatching(
            new RegExp(`^Update Update at offset \\d+ ${updateId} Seen in the last 2 updates$`),
          ),
        ]);
      });
      // One bounded read of the latest updates: the API looks ids up whole only.
      expect(asked.filter((request) => request === 'POST /v2/updates')).toHaveLength(1);
      const row = within(await namedGroup()).getByRole('option');
      expect(row.querySelector('mark')).toHaveTextContent(updateId.slice(0, 12));

      const [contractId] = seeded.splitIds;
      await user.clear(input);
      await user.type(input, contractId.slice(0, 12));
      await waitFor(async () => {
        expect(await namedRows()).toContainEqual(
          `Contract Iou ${contractId} Seen in the last 2 updates`,
        );
      });
      // Read once for both.
      expect(asked.filter((request) => request === 'POST /v2/updates')).toHaveLength(1);
      await user.clear(input);
      await user.type(input, updateId.slice(0, 12));
      // Another row may come first: a prefix of digits only (1 id in ~40) is also an offset to go
      // to. The keys move the selection onto the update's row, then Enter opens it.
      const updateRow = await within(await namedGroup()).findByRole('option', {
        name: new RegExp(updateId),
      });
      let stepsLeft = screen.getAllByRole('option').length;
      while (updateRow.getAttribute('aria-selected') !== 'true' && stepsLeft-- > 0) {
        await user.keyboard('{ArrowDown}');
      }
      expect(updateRow).toHaveAttribute('aria-selected', 'true');
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(router.state.location.search).toBe(`?update=${updateId}`);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows a display name that looks like markup as text, and says when it searched only the first users',
    async () => {
      const sandbox = createSandbox();
      seedUsers(sandbox, 1001, {
        prefix: 'zed',
        each: (index) =>
          index === 0 ? { annotations: { 'display-name': '<img src=x onerror=alert(1)>zed' } } : {},
      });
      const { user, input } = await openSearch({ sandbox });
      await user.type(input, 'onerror');
      await waitFor(async () => {
        expect((await namedRows())[0]).toBe(
          'User <img src=x onerror=alert(1)>zed zed-0001 Default identity provider',
        );
      });
      expect(results().querySelector('img')).toBeNull();
      expect(results().querySelector('mark')).toHaveTextContent(/^onerror$/);
      // The participant admin's list holds participant_admin and 1001 users: a page of 1000.
      expect(await screen.findByText(/First 1000 users searched/)).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "searches an IdP admin's own users only, and every party it may list",
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      await seedDemoLedger(sandbox, { jwtSecret: TEST_SECRET });
      await signInAs(sandbox, 'acme-admin');
      const { user, input, router } = await openSearch({ sandbox });

      await user.type(input, 'acme');
      await waitFor(async () => {
        const rows = await namedRows();
        expect(rows).toContainEqual(expect.stringMatching(/^User acme-trader acme-trader/));
        expect(rows).toContainEqual(expect.stringMatching(/^Party acme-treasury acme-treasury::/));
      });
      await user.clear(input);
      await user.type(input, 'bank');
      // The bank party is listed to it (hosted in another IdP); the default IdP's users are not.
      await waitFor(async () => {
        expect(await namedRows()).toEqual([
          expect.stringMatching(/^Party bank bank::\S+ Not hosted in your view$/),
        ]);
      });
      await user.keyboard('{Enter}');
      await waitFor(() => {
        expect(decodeURIComponent(router.state.location.pathname)).toMatch(/^\/parties\/bank::/);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'searches a plain user only its own user and parties, without asking for lists it may not read',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      await seedDemoLedger(sandbox, { jwtSecret: TEST_SECRET });
      await signInAs(sandbox, 'bank-reader');
      const asked: string[] = [];
      const { user, input } = await openSearch({ sandbox, intercept: recordRequests(asked) });
      await screen.findByRole('link', { name: 'My user' });

      await user.type(input, 'bank');
      await waitFor(async () => {
        expect(await namedRows()).toEqual([
          expect.stringMatching(/^Party bank bank::/),
          'User bank-reader bank-reader Default identity provider',
        ]);
      });
      expect(asked).not.toContain('GET /v2/users');
      expect(asked).not.toContain('GET /v2/parties');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );
});
