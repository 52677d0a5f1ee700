import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/testing/render-route';

// The console as `npm run dev` serves it: Vite and a sandbox, no console server in front. The
// sandbox itself answers /__console/audit as any unknown path, 404.
describe('activity page without the console server', () => {
  it("says there is no shared log, without an error, and leads to this browser's log", async () => {
    const { user, router } = renderRoute('/activity?window=24h&outcome=failed');

    const notice = await screen.findByRole('status', { name: 'No shared audit log here' });
    expect(notice).toHaveTextContent(/served without the console server/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // The filters from the link are shown as they were.
    expect(screen.getByRole('combobox', { name: 'Time' })).toHaveValue('Last 24 hours');
    expect(screen.getByRole('combobox', { name: 'Result' })).toHaveValue('Failed');

    await user.click(within(notice).getByRole('button', { name: 'Show this browser’s log' }));
    expect(await screen.findByText('No activity yet')).toBeVisible();
    await waitFor(() => {
      expect(router.state.location.search).toContain('log=browser');
    });
    expect(screen.getByRole('tab', { name: 'This browser' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  }, 30_000);
});
