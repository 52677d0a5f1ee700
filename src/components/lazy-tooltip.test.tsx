import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RelativeTime } from './relative-time';

afterEach(() => {
  vi.restoreAllMocks();
});

function renderTimes() {
  vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-24T10:00:00Z'));
  // As the app's tests render (src/testing/render-route.tsx): jsdom lays nothing out, and the
  // tooltip would otherwise hide itself as detached from a zero-sized element.
  render(
    <MantineProvider env="test">
      <button type="button">Before</button>
      <RelativeTime value="2026-11-24T09:55:00Z" />
      <RelativeTime value="2026-11-23T10:00:00Z" />
    </MantineProvider>,
  );
  const times = [...document.querySelectorAll('time')];
  const [first, second] = times;
  if (!first || !second) throw new Error('Two times expected');
  return { first, second };
}

describe('the lazily mounted tooltip of a time', () => {
  it('keeps the whole text in the label and the time in the tab order before any tooltip is wanted', () => {
    const { first } = renderTimes();
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(document.querySelector('.mantine-Tooltip-tooltip')).toBeNull();
    expect(first).toHaveAccessibleName(/^5 minutes ago \(Nov 24, 2026/);
    expect(first).toHaveAttribute('tabindex', '0');
  });

  it('shows the exact time on hover after the delay, on the hovered time only, and hides it on leave', async () => {
    const user = userEvent.setup();
    const { first, second } = renderTimes();
    await user.hover(first);
    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip).toHaveTextContent(/Nov 24, 2026/);
    // The other time never mounted one.
    expect(screen.getAllByRole('tooltip')).toHaveLength(1);
    expect(second).toHaveAccessibleName(/^yesterday \(/);
    await user.unhover(first);
    await vi.waitFor(() => {
      expect(screen.queryByRole('tooltip')).toBeNull();
    });
  });

  it('shows it at once on keyboard focus, hides it on Escape and on blur, and shows it again', async () => {
    const user = userEvent.setup();
    const { first } = renderTimes();
    await user.tab();
    await user.tab();
    expect(first).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/Nov 24, 2026/);
    // The element was not replaced by the tooltip's mount: it still has the focus.
    expect(document.activeElement).toBe(first);

    await user.keyboard('{Escape}');
    await vi.waitFor(() => {
      expect(screen.queryByRole('tooltip')).toBeNull();
    });

    // Away to the button (which has none) and back.
    await user.tab({ shift: true });
    await user.tab();
    expect(first).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/Nov 24, 2026/);
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Before' })).toHaveFocus();
    await vi.waitFor(() => {
      expect(screen.queryByRole('tooltip')).toBeNull();
    });
  });
});
