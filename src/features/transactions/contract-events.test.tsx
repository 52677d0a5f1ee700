import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIouSplit } from '@/testing/seed-transactions';

const JOURNEY_TIMEOUT = 30_000;

describe('contract page', () => {
  it(
    'shows the create and archive of a contract, each linking to its node in its transaction by offset',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      const asked: string[] = [];
      const { user, router } = renderRoute(`/contracts/${encodeURIComponent(seeded.iouId)}`, {
        sandbox,
        intercept: (request, sandboxFetch) => {
          asked.push(new URL(request.url).pathname);
          return sandboxFetch(request);
        },
      });

      const created = await screen.findByRole('region', { name: 'Created' });
      expect(within(created).getByText(/"amount": "100/)).toBeVisible();
      expect(within(created).getByRole('button', { name: 'Copy template id' })).toBeInTheDocument();
      expect(
        within(created).getByRole('link', { name: 'Open the transaction that created it' }),
      ).toHaveAttribute('href', `/transactions?offset=${String(seeded.create.offset)}&node=0`);

      const archived = screen.getByRole('region', { name: 'Archived' });
      const archiveLink = within(archived).getByRole('link', {
        name: 'Open the transaction that archived it',
      });
      expect(archiveLink).toHaveAttribute(
        'href',
        `/transactions?offset=${String(seeded.split.offset)}&node=0`,
      );
      expect(screen.getByText('Archived', { selector: '.mantine-Badge-label' })).toBeVisible();
      // The links need no lookup: no transaction tree is downloaded for the contract page.
      expect(asked.filter((path) => path.startsWith('/v2/updates'))).toEqual([]);

      // The viewer finds the update at that offset and puts its id in the URL.
      await user.click(archiveLink);
      await waitFor(() => {
        expect(router.state.location.search).toBe(`?update=${seeded.split.updateId}&node=0`);
      });
      expect(
        await screen.findByRole('heading', { level: 3, name: 'Exercise Iou_Split on Iou' }),
      ).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says so where no party of the caller can see the contract',
    async () => {
      // React reports the error the boundary caught; it is the one shown.
      allowConsole(/CONTRACT_EVENTS_NOT_FOUND/);
      const sandbox = createSandbox();
      renderRoute(`/contracts/00${'ab'.repeat(32)}`, { sandbox });
      expect(await screen.findByRole('region', { name: /^No contract “/ })).toHaveTextContent(
        'No contract with this id is visible to you',
      );
      // Asking again would get the same answer: no Retry (docs/design-system.md §States).
      expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );
});
