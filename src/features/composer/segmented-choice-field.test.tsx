import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';

// Whole-app journeys through a large form; the default 5 s is tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 40_000;

// The choice is exercised where the app shows it: the composer's Submission settings.
describe('segmented choice field', () => {
  it(
    'shows the field the chosen kind needs, one at a time, for both settings',
    async () => {
      const { user } = renderRoute('/composer');
      const form = await screen.findByRole('form', { name: 'Compose commands' });
      const field = (name: string) => within(form).queryByRole('textbox', { name });
      const deduplication = within(form).getByRole('radiogroup', {
        name: 'Deduplication period',
      });
      const minLedgerTime = within(form).getByRole('radiogroup', { name: 'Minimum ledger time' });
      expect(
        within(deduplication).getByRole('radio', { name: 'Participant default' }),
      ).toBeChecked();
      expect(within(minLedgerTime).getByRole('radio', { name: 'None' })).toBeChecked();
      expect(field('Deduplication duration (seconds)')).not.toBeInTheDocument();

      await user.click(within(deduplication).getByRole('radio', { name: 'Duration' }));
      await user.type(field('Deduplication duration (seconds)') ?? document.body, '30');
      expect(field('Deduplicate since offset')).not.toBeInTheDocument();
      await user.click(within(deduplication).getByRole('radio', { name: 'Since offset' }));
      expect(field('Deduplication duration (seconds)')).not.toBeInTheDocument();
      expect(field('Deduplicate since offset')).toBeVisible();
      // The other kind's value is kept for when it is chosen again.
      await user.click(within(deduplication).getByRole('radio', { name: 'Duration' }));
      expect(field('Deduplication duration (seconds)')).toHaveValue('30');

      await user.click(within(minLedgerTime).getByRole('radio', { name: 'Absolute' }));
      expect(field('Minimum ledger time (ISO 8601)')).toHaveAttribute(
        'placeholder',
        '2030-01-01T00:00:00Z',
      );
      await user.click(within(minLedgerTime).getByRole('radio', { name: 'Relative' }));
      expect(field('Minimum ledger time (ISO 8601)')).not.toBeInTheDocument();
      expect(field('Minimum ledger time, seconds from receipt')).toBeVisible();
      await user.click(within(minLedgerTime).getByRole('radio', { name: 'None' }));
      expect(field('Minimum ledger time, seconds from receipt')).not.toBeInTheDocument();
      // Each choice keeps to its own setting.
      expect(within(deduplication).getByRole('radio', { name: 'Duration' })).toBeChecked();
    },
    JOURNEY_TIMEOUT,
  );
});
