import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { signInProviderQueries, type SignInProviderConfig } from '@/api/sign-in-providers';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { describeError } from '@/lib/errors/api-error';
import { useSignIn } from './use-sign-in';
import { buttonBusy } from '@/components/form/button-busy';

export type ProviderSignInProps = {
  /**
   * `redirect` leaves for the provider's login page and comes back to `returnTo`; `popup` signs in
   * in a window over this page, which keeps everything on it (the mid-session dialog).
   */
  mode: 'redirect' | 'popup';
  returnTo: string;
  onSignedIn: () => void;
};

const loadOidc = () => import('@/api/oidc-session');

/** The organisation's OpenID providers, as the console server was configured with them. */
export function ProviderSignIn({ mode, returnTo, onSignedIn }: ProviderSignInProps) {
  const providers = useQuery({ ...signInProviderQueries.list(), meta: { errorDisplay: 'inline' } });
  if (providers.isPending) return <Loader size="sm" aria-label="Loading sign-in providers" />;
  if (providers.isError) {
    return <ErrorAlert error={providers.error} onRetry={() => void providers.refetch()} />;
  }
  if (providers.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This console has no OpenID provider configured. Start it with <code>--oidc-issuer</code> or{' '}
        <code>--sign-in-config</code> (see the README), or sign in with a token below.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {providers.data.map((provider) => (
        <ProviderRow
          key={provider.id}
          provider={provider}
          mode={mode}
          returnTo={returnTo}
          onSignedIn={onSignedIn}
        />
      ))}
    </Stack>
  );
}

function ProviderRow({
  provider,
  mode,
  returnTo,
  onSignedIn,
}: ProviderSignInProps & { provider: SignInProviderConfig }) {
  const discovery = useQuery({
    ...signInProviderQueries.discovery(provider),
    meta: { errorDisplay: 'inline' },
  });
  const signIn = useSignIn();
  const start = useMutation({
    mutationFn: async () => {
      const oidc = await loadOidc();
      if (mode === 'redirect') {
        await oidc.startRedirectSignIn(provider, returnTo);
        return;
      }
      const user = await oidc.signInWithPopup(provider);
      await signIn.mutateAsync({
        token: user.access_token,
        remember: false,
        providerId: provider.id,
      });
      onSignedIn();
    },
    meta: { errorDisplay: 'inline' },
  });
  const label = `Sign in with ${provider.name}`;

  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label={provider.name}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2} miw={0}>
            <Group gap="xs">
              <Text fw={600}>{provider.name}</Text>
              <Badge variant="light" color="gray">
                {provider.identityProviderId ? `IdP ${provider.identityProviderId}` : 'Default IdP'}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed" ff="monospace" truncate>
              {provider.oidc.authority}
            </Text>
          </Stack>
          <Button
            onClick={() => {
              start.mutate();
            }}
            loading={buttonBusy(start.isPending)}
            disabled={discovery.isError}
          >
            {label}
          </Button>
        </Group>
        {discovery.isError && (
          <Alert color="red" variant="light" title={`${provider.name} is unavailable`}>
            <Stack gap="xs" align="flex-start">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {describeError(discovery.error).message}
              </Text>
              <Button
                size="xs"
                variant="default"
                onClick={() => void discovery.refetch()}
                loading={buttonBusy(discovery.isFetching)}
              >
                Try again
              </Button>
            </Stack>
          </Alert>
        )}
        {start.isError && <ErrorAlert error={start.error} />}
      </Stack>
    </Paper>
  );
}
