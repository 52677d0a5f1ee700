import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { seedIouSplit } from '@/testing/seed-transactions';

const JOURNEY_TIMEOUT = 90_000;

const backLink = (name: string) => screen.findByRole('link', { name }, { timeout: 10_000 });

describe('the contract page', () => {
  it(
    'names the page the contract was opened from in its back link, which returns there',
    async () => {
      const sandbox = createSandbox();
      const { iouId, split } = await seedIouSplit(sandbox);
      const { router, user } = renderRoute('/live', { sandbox });
      await screen.findByRole('heading', { name: 'Live', level: 1 }, { timeout: 10_000 });

      await router.navigate(`/contracts/${iouId}`);
      await user.click(await backLink('Back to Live'));
      expect(router.state.location.pathname).toBe('/live');

      // From the transaction viewer, with the update open, back returns to that update.
      await router.navigate(`/transactions?update=${split.updateId}`);
      await screen.findByRole('heading', { name: 'Transactions', level: 1 });
      await router.navigate(`/contracts/${iouId}`);
      expect(await backLink('Back to the transaction')).toHaveAttribute(
        'href',
        `/transactions?update=${split.updateId}`,
      );
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'goes back to the active contracts when opened from a link or a reload',
    async () => {
      const sandbox = createSandbox();
      const { iouId } = await seedIouSplit(sandbox);
      renderRoute(`/contracts/${iouId}`, { sandbox });
      expect(await backLink('Back to Active contracts')).toHaveAttribute('href', '/contracts');
    },
    JOURNEY_TIMEOUT,
  );
});
