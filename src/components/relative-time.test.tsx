import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RelativeTime } from './relative-time';
import { timeDisplay } from './time-display';
import { TimeDisplayControl } from './time-display-control';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RelativeTime', () => {
  it('reads one time per render even when the clock moves between React’s two reads', () => {
    // Every read of the clock a millisecond later: the console guard fails the test if React
    // warns that the snapshot is not cached.
    let clock = Date.parse('2026-11-24T10:00:00Z');
    vi.spyOn(Date, 'now').mockImplementation(() => (clock += 1));
    render(
      <MantineProvider>
        <RelativeTime value="2026-11-24T09:55:00Z" />
      </MantineProvider>,
    );
    expect(screen.getByText(/5 minutes ago/)).toHaveAttribute(
      'datetime',
      '2026-11-24T09:55:00.000Z',
    );
  });
});

describe('the time display setting', () => {
  it('switches every time between relative and absolute, the other on hover, and remembers it', async () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const user = userEvent.setup();
    render(
      <MantineProvider>
        <TimeDisplayControl />
        <RelativeTime value="2026-11-24T09:55:00Z" />
        <RelativeTime value="2026-11-23T10:00:00Z" />
      </MantineProvider>,
    );
    const texts = () => [...document.querySelectorAll('time')].map((time) => time.textContent);
    expect(texts()).toEqual(['5 minutes ago', 'yesterday']);
    const [first] = document.querySelectorAll('time');
    expect(first?.getAttribute('aria-label')).toMatch(/^5 minutes ago \(Nov 24, 2026/);

    await user.click(screen.getByRole('radio', { name: 'Absolute' }));
    expect(texts()).toEqual([
      new Date('2026-11-24T09:55:00Z').toLocaleString(undefined, {
        dateStyle: 'medium',
        timeStyle: 'medium',
      }),
      new Date('2026-11-23T10:00:00Z').toLocaleString(undefined, {
        dateStyle: 'medium',
        timeStyle: 'medium',
      }),
    ]);
    // The relative form moves to the hover, with the exact time and its zone.
    expect(document.querySelector('time')?.getAttribute('aria-label')).toMatch(
      /\(5 minutes ago · Nov 24, 2026/,
    );
    expect(document.querySelector('time')).toHaveAttribute('datetime', '2026-11-24T09:55:00.000Z');
    expect(localStorage.getItem(timeDisplay.key)).toBe('absolute');
  });
});
