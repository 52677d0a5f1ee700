import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allowConsole } from '@/testing/console-guard';
import { renderRoute } from '@/testing/render-route';

describe('participant overview', () => {
  it('shows the API version, the participant id, and that the participant is live and ready', async () => {
    const { sandbox } = renderRoute('/');
    const participantId = sandbox.state.participantId;

    expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
    const version = await screen.findByRole('group', { name: 'API version' });
    expect(within(version).getByText('3.5.7', { exact: true })).toBeVisible();
    const participant = screen.getByRole('group', { name: 'Participant id' });
    expect(within(participant).getByText(participantId, { exact: true })).toBeVisible();
    expect(within(participant).getByRole('button', { name: 'Copy participant id' })).toBeVisible();

    const health = screen.getByRole('region', { name: 'Health' });
    const liveness = await within(health).findByRole('group', { name: 'Liveness' });
    expect(within(liveness).getByText('Live', { exact: true })).toBeVisible();
    const readiness = within(health).getByRole('group', { name: 'Readiness' });
    expect(within(readiness).getByText('Ready', { exact: true })).toBeVisible();
    expect(readiness).toHaveTextContent('readyz check passed');
  });

  it('shows "Not ready" with the failed checks when readyz answers 503', async () => {
    renderRoute('/', {
      // The sandbox is always ready, so answer readyz as a starting participant does
      // (ledger-api-behaviour.md §8, JSON/HealthService.scala).
      intercept: async (request, sandboxFetch) =>
        new URL(request.url).pathname === '/readyz'
          ? new Response('[-] ledger failed (NOT_SERVING)\nreadyz check failed\n', {
              status: 503,
              headers: { 'Content-Type': 'text/plain; charset=UTF-8' },
            })
          : sandboxFetch(request),
    });

    const readiness = await screen.findByRole('group', { name: 'Readiness' });
    expect(within(readiness).getByText('Not ready', { exact: true })).toBeVisible();
    expect(readiness).toHaveTextContent('ledger failed (NOT_SERVING)');
    expect(
      within(screen.getByRole('group', { name: 'Liveness' })).getByText('Live', { exact: true }),
    ).toBeVisible();
  });

  it('shows why the participant cannot be reached, and recovers on Retry', async () => {
    const { interceptNetwork, user } = renderRoute('/', {
      intercept: () => Promise.reject(new TypeError('fetch failed')),
    });
    // React reports errors that a boundary caught; here that is the point of the test.
    allowConsole(/^ApiError: NETWORK_UNREACHABLE/);

    // One banner says it; the section waits quietly instead of repeating the error.
    const banner = await screen.findByRole('alert', { name: 'The participant does not answer' });
    expect(banner).toHaveTextContent('fetch failed');
    const info = await screen.findByRole('region', { name: 'Participant' });
    expect(await within(info).findByRole('status')).toHaveTextContent(
      'Waiting for the participant',
    );
    expect(within(info).queryByRole('alert')).not.toBeInTheDocument();

    interceptNetwork((request, sandboxFetch) => sandboxFetch(request));
    await user.click(within(banner).getByRole('button', { name: 'Retry now' }));

    // Back: the banner goes and the section loads without another click.
    const version = await within(info).findByRole('group', { name: 'API version' });
    expect(within(version).getByText('3.5.7', { exact: true })).toBeVisible();
    await waitFor(() => {
      expect(screen.queryByRole('alert', { name: 'The participant does not answer' })).toBeNull();
    });
  });
});

describe('unknown pages', () => {
  it('says the page does not exist and links back to the overview', async () => {
    const { user } = renderRoute('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(screen.getByText('/no/such/page')).toBeVisible();

    await user.click(screen.getByRole('link', { name: 'Go to the participant overview' }));
    expect(await screen.findByRole('heading', { name: 'Participant overview' })).toBeVisible();
  });
});
