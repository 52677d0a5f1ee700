import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIouSplit } from '@/testing/seed-transactions';

const JOURNEY_TIMEOUT = 30_000;

describe('contract page', () => {
  it(
    'shows the create and archive of a contract, each linking to its node in its transaction',
    async () => {
      const sandbox = createSandbox();
      const seeded = await seedIouSplit(sandbox);
      renderRoute(`/contracts/${encodeURIComponent(seeded.iouId)}`, { sandbox });

      const created = await screen.findByRole('region', { name: 'Created' });
      expect(within(created).getByText(/"amount": "100/)).toBeVisible();
      expect(
        await within(created).findByRole('link', { name: 'Open the transaction that created it' }),
      ).toHaveAttribute('href', `/transactions?update=${seeded.create.updateId}&node=0`);

      const archived = screen.getByRole('region', { name: 'Archived' });
      expect(
        await within(archived).findByRole('link', {
          name: 'Open the transaction that archived it',
        }),
      ).toHaveAttribute('href', `/transactions?update=${seeded.split.updateId}&node=0`);
      expect(screen.getByText('Archived', { selector: '.mantine-Badge-label' })).toBeVisible();
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
      expect(await screen.findByText('Contract events not found, or not visible.')).toBeVisible();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );
});
