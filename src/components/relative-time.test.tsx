import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RelativeTime } from './relative-time';

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
