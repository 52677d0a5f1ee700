import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { allowConsole } from '@/testing/console-guard';
import { fixedMatchMedia } from '@/testing/match-media';
import { createSandbox, TEST_SECRET } from '@/testing/sandbox-network';
import { seedUsers } from '@/testing/seed-users';
import { signInAs } from '@/testing/sign-in-as';
import { seedFanout, seedIouSplit } from '@/testing/seed-transactions';
import { TRANSACTION_TABS_QUERY } from './transaction-view';

// Whole-app journeys with several requests each; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

const outline = () => screen.findByRole('tree', { name: 'Transaction outline' });
const details = () => {
  const section = screen.getByRole('heading', { level: 3 }).closest('section');
  if (!section) throw new Error('The details panel is not shown');
  return section;
};
const nth = <T,>(items: readonly T[], index: number): T => {
  const item = items[index];
  if (item === undefined) throw new Error(`No item ${String(index)}`);
  return item;
};

/** Waits until the URL's query is `search`. */
async function searchIs(router: ReturnType<typeof renderRoute>['router'], search: string) {
  await waitFor(() => {
    expect(router.state.location.search).toBe(search);
  });
}

/** A screen as narrow as a phone's, as far as media queries tell: setup-dom's shim matches none. */
function emulateNarrowScreen() {
  vi.stubGlobal(
    'matchMedia',
    fixedMatchMedia((query) => query === TRANSACTION_TABS_QUERY),
  );
}

describe('transaction viewer', () => {
  it(
    'on a narrow screen shows outline or graph as tabs, the choice in the URL, the node kept',
    async () => {
      emulateNarrowScreen();
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user, router } = renderRoute(`/transactions?update=${seeded.split.updateId}&node=1`, {
        sandbox,
      });
      const graphTab = await screen.findByRole('tab', { name: 'Graph' });
      expect(screen.getByRole('tab', { name: 'Outline' })).toHaveAttribute('aria-selected', 'true');
      expect(await outline()).toBeVisible();
      expect(screen.queryByRole('region', { name: 'Transaction graph' })).not.toBeInTheDocument();
      // Fitting is the graph's; with only the outline shown there is nothing to fit.
      expect(screen.queryByRole('button', { name: 'Fit view' })).not.toBeInTheDocument();

      await user.click(graphTab);
      expect(await screen.findByRole('region', { name: 'Transaction graph' })).toBeVisible();
      expect(screen.getByRole('button', { name: 'Fit view' })).toBeVisible();
      expect(screen.queryByRole('tree', { name: 'Transaction outline' })).not.toBeInTheDocument();
      await searchIs(router, `?update=${seeded.split.updateId}&node=1&view=graph`);
      // The selected node's details stay while the panes change.
      expect(screen.getByRole('heading', { level: 3, name: 'Create Iou' })).toBeVisible();

      // Back on the outline, the selection is where it was; picking another node keeps the tab.
      await user.click(screen.getByRole('tab', { name: 'Outline' }));
      const items = within(await outline()).getAllByRole('treeitem');
      expect(items[1]).toHaveAttribute('aria-selected', 'true');
      await searchIs(router, `?update=${seeded.split.updateId}&node=1`);
      await user.click(nth(items, 0));
      await searchIs(router, `?update=${seeded.split.updateId}&node=0`);
      expect(
        screen.getByRole('heading', { level: 3, name: 'Exercise Iou_Split on Iou' }),
      ).toBeVisible();

      // A link with view=graph opens on the graph, with its node selected.
      await router.navigate(`/transactions?update=${seeded.split.updateId}&node=2&view=graph`);
      await waitFor(() => {
        expect(screen.getByRole('tab', { name: 'Graph' })).toHaveAttribute('aria-selected', 'true');
      });
      expect(screen.getByRole('region', { name: 'Transaction graph' })).toBeVisible();
      expect(screen.getByRole('heading', { level: 3, name: 'Create Iou' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it('on a wide screen shows outline, graph and node details side by side, without tabs', async () => {
    const sandbox = createSandbox();
    const seeded = await seedIouSplit(sandbox);
    renderRoute(`/transactions?update=${seeded.split.updateId}&node=1&view=graph`, { sandbox });
    expect(await outline()).toBeVisible();
    const graph = screen.getByRole('region', { name: 'Transaction graph' });
    expect(graph).toBeVisible();
    expect(screen.queryByRole('tab', { name: 'Graph' })).not.toBeInTheDocument();
    // This participant reports no traffic cost: the header says nothing of it.
    expect(screen.getByRole('group', { name: 'Offset' })).toBeVisible();
    expect(screen.queryByRole('group', { name: 'Traffic cost' })).not.toBeInTheDocument();
    // The details are a panel in the same row as the panes, not a card below them.
    expect(graph.parentElement).toContainElement(
      screen.getByRole('heading', { level: 3, name: 'Create Iou' }),
    );
    expect(graph.parentElement).toContainElement(await outline());
    // The minimap: one path per node kind (an exercise and creates here) and the view's mask.
    const minimap = within(graph).getByRole('img', { name: 'Minimap of the transaction graph' });
    const paths = [...minimap.querySelectorAll('path')].map((path) => path.getAttribute('d') ?? '');
    expect(paths.filter((d) => d !== '')).toHaveLength(3);
  });

  it('shows in its header the traffic cost the participant reports paying', async () => {
    const sandbox = createSandbox({ trafficCost: true });
    const seeded = await seedIouSplit(sandbox);
    const paid = seeded.split.paidTrafficCost;
    // The split as prepare measures it: well over the 1024-byte envelope the model adds.
    expect(paid).toBeGreaterThan(1024);
    renderRoute(`/transactions?update=${seeded.split.updateId}`, { sandbox });
    const cost = await screen.findByRole('group', { name: 'Traffic cost' });
    expect(cost).toHaveTextContent(`Traffic cost${(paid ?? 0).toLocaleString('en-US')} bytes`);
  });

  it('says so when the URL names a node the transaction does not have', async () => {
    const sandbox = createSandbox();
    const seeded = await seedIouSplit(sandbox);
    const { user, router } = renderRoute(`/transactions?update=${seeded.split.updateId}&node=999`, {
      sandbox,
    });
    const alert = await screen.findByRole('alert', { name: 'No node 999 here' });
    expect(alert).toHaveTextContent('This transaction has nodes 0 to 2');
    // Picking a node that exists clears it.
    await user.click(nth(within(await outline()).getAllByRole('treeitem'), 0));
    await searchIs(router, `?update=${seeded.split.updateId}&node=0`);
    expect(screen.queryByRole('alert', { name: 'No node 999 here' })).not.toBeInTheDocument();
  });

  it(
    'opens a past transaction by id: its tree in the outline, a node selected from the URL',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { router, user } = renderRoute(`/transactions?update=${seeded.split.updateId}&node=1`, {
        sandbox,
      });
      const tree = await outline();
      const items = within(tree).getAllByRole('treeitem');
      expect(items.map((item) => item.textContent)).toEqual([
        expect.stringContaining('Exercise Iou_Split on Iou'),
        expect.stringContaining('Create Iou'),
        expect.stringContaining('Create Iou'),
      ]);
      expect(items[0]).toHaveAttribute('aria-level', '1');
      expect(items[0]).toHaveAttribute('aria-expanded', 'true');
      expect(items[1]).toHaveAttribute('aria-level', '2');
      expect(items[1]).toHaveAttribute('aria-selected', 'true');
      // The values that tell the rows apart: the split amount, then each new Iou's.
      expect(within(nth(items, 0)).getByTitle('splitAmount 30')).toHaveTextContent(/^30$/);
      expect(within(nth(items, 1)).getByTitle('currency USD · amount 30')).toBeVisible();
      expect(within(nth(items, 2)).getByTitle('currency USD · amount 70')).toHaveTextContent(
        'USD · 70',
      );

      // The compact header: ids with copy, times, and who acted.
      const header = screen
        .getByRole('heading', { level: 2, name: /^Transaction at offset/ })
        .closest('header');
      if (!header) throw new Error('The transaction header is not shown');
      expect(within(header).getByRole('button', { name: 'Copy update id' })).toBeVisible();
      expect(within(header).getByRole('group', { name: 'Offset' })).toHaveTextContent(
        String(seeded.split.offset),
      );
      expect(within(header).getByRole('group', { name: 'Record time' })).toBeVisible();
      expect(within(header).getByRole('group', { name: 'Acting parties' })).toHaveTextContent(
        /^Acting parties\s*owner-/,
      );

      // The selected node's details: the first create, with its contract id and arguments.
      expect(screen.getByRole('heading', { level: 3, name: 'Create Iou' })).toBeVisible();
      const contractId = within(details()).getByRole('group', { name: 'Contract id' });
      expect(within(contractId).getByRole('link')).toHaveAttribute(
        'href',
        `/contracts/${encodeURIComponent(seeded.splitIds[0])}`,
      );
      expect(within(details()).getByText(/"amount": "30/)).toBeVisible();

      // Selecting in the outline selects in the URL (and so in the graph and the details).
      await user.click(nth(items, 0));
      await searchIs(router, `?update=${seeded.split.updateId}&node=0`);
      expect(
        screen.getByRole('heading', { level: 3, name: 'Exercise Iou_Split on Iou' }),
      ).toBeVisible();
      expect(within(details()).getByText(/"splitAmount": "30/)).toBeVisible();

      // Keyboard: ← collapses the exercise, → opens it again, ↓ moves the selection.
      nth(items, 0).focus();
      await user.keyboard('{ArrowLeft}');
      await waitFor(() => {
        expect(within(tree).getAllByRole('treeitem')).toHaveLength(1);
      });
      expect(within(tree).getByRole('treeitem')).toHaveAttribute('aria-expanded', 'false');
      expect(within(tree).getByRole('treeitem')).toHaveTextContent('+2');
      await user.keyboard('{ArrowRight}');
      await waitFor(() => {
        expect(within(tree).getAllByRole('treeitem')).toHaveLength(3);
      });
      await user.keyboard('{ArrowDown}');
      await searchIs(router, `?update=${seeded.split.updateId}&node=1`);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'searches: matches stay visible inside folded nodes, and next selects them',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { router, user } = renderRoute(`/transactions?update=${seeded.split.updateId}`, {
        sandbox,
      });
      const tree = await outline();
      await user.click(within(tree).getByText('Exercise Iou_Split on Iou'));
      await user.keyboard('{ArrowLeft}');
      await waitFor(() => {
        expect(within(tree).getAllByRole('treeitem')).toHaveLength(1);
      });

      await user.type(screen.getByRole('textbox', { name: /^Search nodes/ }), 'arg:70.0');
      expect(await screen.findByText('1 of 1')).toBeVisible();
      // The folded exercise is held open for the match (folds open whole), the match marked.
      await waitFor(() => {
        expect(within(tree).getAllByRole('treeitem')).toHaveLength(3);
      });
      expect(
        within(tree)
          .getAllByRole('treeitem')
          .filter((item) => item.hasAttribute('data-match'))
          .map((item) => item.textContent),
      ).toEqual([expect.stringContaining('#2')]);

      await user.click(screen.getByRole('button', { name: 'Next match' }));
      await searchIs(router, `?update=${seeded.split.updateId}&node=2`);

      // Clearing the search restores the user's fold.
      await user.clear(screen.getByRole('textbox', { name: /^Search nodes/ }));
      await waitFor(() => {
        expect(within(tree).getAllByRole('treeitem')).toHaveLength(3);
      });
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'opens an update by offset from the search box, and names an unknown one on the field',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user, router } = renderRoute('/transactions', { sandbox });
      const form = await screen.findByRole('form', { name: 'Open an update' });
      const input = within(form).getByRole('textbox', { name: 'Update id or offset' });

      await user.type(input, 'not-an-id');
      await user.click(within(form).getByRole('button', { name: 'Open' }));
      expect(
        await within(form).findByText('An update id is 1220 followed by 64 hexadecimal digits'),
      ).toBeVisible();

      // Digits are an offset: no need to say which it is.
      await user.clear(input);
      await user.type(input, '99999');
      await user.click(within(form).getByRole('button', { name: 'Open' }));
      expect(await within(form).findByText('Update not found, or not visible.')).toBeVisible();
      expect(input).toHaveValue('99999');

      await user.clear(input);
      await user.type(input, String(seeded.split.offset));
      await user.click(within(form).getByRole('button', { name: 'Open' }));
      await searchIs(router, `?update=${seeded.split.updateId}`);
      expect(await screen.findByRole('tree', { name: 'Transaction outline' })).toBeVisible();
      expect(
        screen.getByRole('heading', {
          name: `Transaction at offset ${String(seeded.split.offset)}`,
        }),
      ).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'lists recent updates newest first, each linking to its page; a topology transaction says in words who is hosted where',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user } = renderRoute('/transactions', { sandbox });
      const table = await screen.findByRole('table', { name: 'Recent transactions' });
      const rows = within(table).getAllByRole('row').slice(1);
      // The split, the create, and the allocations of the owner and the bank.
      expect(rows).toHaveLength(4);
      // The bank is allocated first, then the owner.
      for (const [row, hint] of [
        [2, 'owner'],
        [3, 'bank'],
      ] as const) {
        expect(rows[row]).toHaveTextContent(
          new RegExp(
            `Party ${hint}-\\S+ now hosted on participant sandbox with submission permission`,
          ),
        );
      }
      expect(rows[0]).toHaveTextContent(String(seeded.split.offset));
      expect(
        within(nth(rows, 0)).getByRole('link', {
          name: `Open the transaction at offset ${String(seeded.split.offset)}`,
        }),
      ).toHaveAttribute('href', `/transactions?update=${seeded.split.updateId}`);
      // Iou_Split: the exercise and its two creates. (This asked the fifth cell for a "3" when that
      // was an event count; it is the command id now, which held a 3 by chance most of the time.)
      expect(within(nth(rows, 0)).getAllByRole('cell')[0]).toHaveTextContent(
        /^Exercised Iou:Iou_Split; created Iou ×2/,
      );
      expect(rows[1]).toHaveTextContent(String(seeded.create.offset));

      await user.click(
        within(nth(rows, 3)).getByRole('link', {
          name: 'Open the topology transaction at offset 1',
        }),
      );
      expect(
        await screen.findByRole('heading', { name: 'Topology transaction at offset 1' }),
      ).toBeVisible();
      const changes = screen.getByRole('list', { name: 'Hosting changes' });
      expect(changes).toHaveTextContent(
        /^Party bank-\S+ now hosted on participant sandbox \(this participant\) with submission permission/,
      );
      // The full ids beside the words, to copy.
      expect(within(changes).getByRole('button', { name: 'Copy participant id' })).toBeVisible();
      expect(within(changes).getByRole('button', { name: 'Copy party id' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'opens a deep link by offset, then shows the update id in the URL; an unknown offset in place',
    async () => {
      allowConsole(/UPDATE_NOT_FOUND/);
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { router } = renderRoute(`/transactions?offset=${String(seeded.split.offset)}&node=2`, {
        sandbox,
      });
      await searchIs(router, `?update=${seeded.split.updateId}&node=2`);
      const tree = await outline();
      expect(within(tree).getAllByRole('treeitem')[2]).toHaveAttribute('aria-selected', 'true');
      // Template ids come with a copy button, as every long id does.
      expect(within(details()).getByRole('button', { name: 'Copy template id' })).toBeVisible();

      await router.navigate('/transactions?offset=99999');
      expect(
        await screen.findByRole('region', { name: 'No update at offset “99999”' }),
      ).toHaveTextContent('No update at this offset is visible to you');
      // Asking again would get the same answer: no Retry (docs/design-system.md §States).
      expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'tells a user who reads no party that it cannot read transactions, even from a deep link',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
      seedUsers(sandbox, 1, { prefix: 'reader' });
      await signInAs(sandbox, 'reader-0001');
      renderRoute(`/transactions?update=1220${'ab'.repeat(32)}&node=0`, { sandbox });
      const state = await screen.findByRole('region', {
        name: 'You may not read any party’s transactions',
      });
      expect(state).toHaveTextContent(
        'You are signed in as reader-0001 (default identity provider)',
      );
      expect(state).toHaveTextContent('Read as, Act as or Read as any party');
      expect(screen.queryByRole('tree', { name: 'Transaction outline' })).toBeNull();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'expands a big tree in slices, saying how far it got, and stops when folded again',
    async () => {
      const sandbox = createSandbox();
      // A create and an exercise of 5,998 creates: 6,000 nodes, opened with the exercise folded.
      const fanout = await seedFanout(sandbox, { width: 5998, depth: 1 });
      const { user } = renderRoute(`/transactions?update=${fanout.updateId}`, { sandbox });
      const graph = await screen.findByRole('region', { name: 'Transaction graph' });
      expect(await screen.findByText('6000 nodes, 2 shown')).toBeVisible();
      expect(graph).toHaveAttribute('aria-busy', 'false');

      await user.click(screen.getByRole('button', { name: 'Expand all' }));
      expect(screen.getByText('6000 nodes, 6000 shown')).toBeVisible();
      // The outline has every row at once; the graph gets its nodes a slice per task.
      await waitFor(() => {
        expect(graph).toHaveAttribute('aria-busy', 'false');
      });
      expect(graph).toHaveAttribute('data-drawn-nodes', '6000');
      expect(within(graph).queryByRole('status')).not.toBeInTheDocument();

      // Folding while the slices come drops the rest of them. (Clicks without user-event's
      // pauses, so that no slice comes in between.)
      const depth = screen.getByRole('textbox', { name: 'Depth' });
      await user.clear(depth);
      await user.type(depth, '0');
      fireEvent.click(screen.getByRole('button', { name: 'Collapse to depth' }));
      fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
      expect(within(graph).getByRole('status')).toHaveTextContent('Drawing 2500 of 6000 nodes…');
      expect(graph).toHaveAttribute('aria-busy', 'true');
      fireEvent.click(screen.getByRole('button', { name: 'Collapse to depth' }));
      expect(graph).toHaveAttribute('aria-busy', 'false');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(graph).toHaveAttribute('data-drawn-nodes', '2');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows the transaction full screen from one button: a dialog kept in the URL, left with Escape, the focus returned',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const base = `?update=${seeded.split.updateId}`;
      const { user, router } = renderRoute(`/transactions${base}&node=1`, { sandbox });
      // The first render loads the page's code: slow on a busy machine.
      await screen.findByRole('tree', { name: 'Transaction outline' }, { timeout: 20_000 });
      // What the user set up in the view stays across entering and leaving full screen.
      await user.type(screen.getByRole('textbox', { name: 'Search nodes' }), 'split');
      const open = screen.getByRole('button', { name: 'Full screen' });
      await user.click(open);

      const dialog = await screen.findByRole('dialog', {
        name: `Transaction at offset ${String(seeded.split.offset)}`,
      });
      expect(dialog).toHaveAttribute('aria-modal', 'true');
      expect(within(dialog).getByRole('region', { name: 'Transaction graph' })).toBeVisible();
      expect(within(dialog).getByRole('tree', { name: 'Transaction outline' })).toBeVisible();
      expect(within(dialog).getByRole('heading', { level: 3, name: 'Create Iou' })).toBeVisible();
      expect(within(dialog).getByRole('textbox', { name: 'Search nodes' })).toHaveValue('split');
      await searchIs(router, `${base}&node=1&fullscreen=1`);
      // The way out is where the focus lands.
      const exit = within(dialog).getByRole('button', { name: 'Exit full screen' });
      await waitFor(() => {
        expect(exit).toHaveFocus();
      });

      // Another node, picked in full screen, keeps it.
      await user.click(nth(within(dialog).getAllByRole('treeitem'), 2));
      await searchIs(router, `${base}&node=2&fullscreen=1`);
      await user.keyboard('{Escape}');
      await waitFor(() => {
        expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      });
      await searchIs(router, `${base}&node=2`);
      expect(screen.getByRole('button', { name: 'Full screen' })).toHaveFocus();
      expect(screen.getByRole('textbox', { name: 'Search nodes' })).toHaveValue('split');

      // From the keyboard too; and a link with fullscreen=1 opens so.
      await user.keyboard('{Enter}');
      expect(await screen.findByRole('dialog')).toBeVisible();
      await user.click(screen.getByRole('button', { name: 'Exit full screen' }));
      await searchIs(router, `${base}&node=2`);
      await router.navigate(`/transactions${base}&fullscreen=1`);
      expect(await screen.findByRole('dialog')).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows a template id in the details cut in its package id only, whole on hover and when copied',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const { user } = renderRoute(`/transactions?update=${seeded.split.updateId}&node=2`, {
        sandbox,
      });
      await outline();
      const row = within(details()).getByRole('group', { name: 'Template id' });
      const shown = within(row).getByTitle(/^[0-9a-f]{64}:Demo\.Iou:Iou$/);
      const templateId = shown.getAttribute('title') ?? '';
      expect(shown).toHaveTextContent(/^[0-9a-f]{6}…[0-9a-f]{4}:Demo\.Iou:Iou$/);
      // A line may break only after the separators: the package id's end, the module's dot.
      expect(shown.querySelectorAll('wbr')).toHaveLength(3);
      await user.click(within(row).getByRole('button', { name: 'Copy template id' }));
      expect(await navigator.clipboard.readText()).toBe(templateId);
    },
    JOURNEY_TIMEOUT,
  );
});
