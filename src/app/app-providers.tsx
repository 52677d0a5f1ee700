import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ModalsHost } from '@/components/feedback/modals-host';
import { NotificationsHost } from '@/components/feedback/notifications-host';
import { cssVariablesResolver, theme } from '@/theme';

const colorSchemeManager = localStorageColorSchemeManager({ key: 'ledger-console.color-scheme' });

export type AppProvidersProps = {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off Mantine's transitions and portals (jsdom). */
  env?: 'default' | 'test';
};

/** Every context the app needs, shared by the real app and the component tests. */
export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
      env={env}
    >
      <NotificationsHost />
      <QueryClientProvider client={queryClient}>
        {children}
        <ModalsHost />
      </QueryClientProvider>
    </MantineProvider>
  );
}
