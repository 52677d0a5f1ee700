import { act, render, screen } from '@testing-library/react';
import { cleanNotifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { notify } from '@/components/feedback/notify';
import { AppProviders } from './app-providers';
import { createQueryClient } from './query-client';

describe('AppProviders', () => {
  afterEach(() => {
    act(() => {
      cleanNotifications();
    });
  });

  it('mounts the toasts only with the first one, and shows it and the next', async () => {
    const { container } = render(
      <AppProviders queryClient={createQueryClient()} env="test">
        <p>Page</p>
      </AppProviders>,
    );
    expect(screen.getByText('Page')).toBeInTheDocument();
    // Nothing of the toasts' renderer before a toast (its code is not loaded either).
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();

    act(() => {
      notify.success('User created');
    });
    expect(await screen.findByText('User created')).toBeInTheDocument();
    act(() => {
      notify.error(new Error('Boom'), 'Could not delete the user');
    });
    expect(await screen.findByText('Could not delete the user')).toBeInTheDocument();
    expect(screen.getByText('User created')).toBeInTheDocument();
    expect(container).toHaveTextContent('Page');
  });
});
