import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@/lib/activity/activity-log';
import { ActivityTable } from './activity-table';

const AT = '2026-03-04T05:06:07.000Z';

const entry: ActivityEntry = {
  id: 'entry-1',
  at: AT,
  actor: { kind: 'user', userId: 'participant_admin', identityProviderId: '' },
  participantId: 'sandbox::1220',
  action: 'user.create',
  call: { method: 'POST', path: '/v2/users' },
  subjects: [{ kind: 'user', userId: 'ops', identityProviderId: '' }],
  before: { kind: 'none' },
  after: { kind: 'json', text: '{"id":"ops"}' },
  result: { kind: 'ok' },
};

function renderTable(isCompact = false) {
  return render(
    <MantineProvider>
      <ActivityTable label="Activity" entries={[entry]} isCompact={isCompact} />
    </MantineProvider>,
  );
}

describe('activity table', () => {
  it('shows when as a relative time with the exact ISO time kept on the element', () => {
    renderTable();
    const [row] = within(screen.getByRole('table', { name: 'Activity' }))
      .getAllByRole('row')
      .slice(1);
    if (!row) throw new Error('no entry row');
    const time = row.querySelector('time');
    expect(time).toHaveAttribute('datetime', AT);
    // Long past: a relative time ("8 months ago"), not the absolute date, is the text.
    expect(time).toHaveTextContent(/ago$/);
    expect(time).toHaveAccessibleName(/ago \(.+\)$/);
  });

  it('labels each cell with its column for the card layout, the action as the card title', async () => {
    renderTable();
    const [row] = screen.getAllByRole('row').slice(1);
    if (!row) throw new Error('no entry row');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => [cell.dataset.label ?? null, cell.dataset.card ?? null]),
    ).toEqual([
      ['When', null],
      ['Who', null],
      ['Action', 'title'],
      ['Subjects', null],
      ['Result', null],
      [null, 'actions'],
    ]);
    expect(within(row).getByRole('cell', { name: 'user.create' })).toBeVisible();

    // The opened details are a row of their own that a phone keeps under the card.
    await userEvent.click(within(row).getByRole('button', { name: 'Details' }));
    const details = screen.getAllByRole('row').at(-1);
    expect(details).toHaveAttribute('data-card-details');
    expect(details).toHaveTextContent('POST /v2/users');
  });

  it('leaves the actor out when compact', () => {
    renderTable(true);
    const [row] = screen.getAllByRole('row').slice(1);
    if (!row) throw new Error('no entry row');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.dataset.label ?? null),
    ).toEqual(['When', 'Action', 'Subjects', 'Result', null]);
  });
});
