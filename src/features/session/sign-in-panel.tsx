import { Button, Divider, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from '@/api/session';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionCard } from '@/components/section-card';
import { CurrentIdentity } from './current-identity';
import { SandboxSignIn } from './sandbox-sign-in';
import { TokenSignInForm } from './token-sign-in-form';
import { useSignIn } from './use-sign-in';

export type SignInPanelProps = { onSignedIn: () => void };

/** The ways to connect: a pasted bearer token, no token, or (sandbox only) a minted one. */
export function SignInPanel({ onSignedIn }: SignInPanelProps) {
  const sandboxInfo = useQuery(sessionQueries.sandboxInfo());
  const withoutToken = useSignIn();

  return (
    <Stack>
      <SectionCard title="Current identity">
        <CurrentIdentity />
      </SectionCard>
      {sandboxInfo.data?.canMintTokens && (
        <SectionCard title="Sign in as a sandbox user">
          <SandboxSignIn onSignedIn={onSignedIn} />
        </SectionCard>
      )}
      <SectionCard title="Sign in with a bearer token">
        <TokenSignInForm onSignedIn={onSignedIn} />
      </SectionCard>
      <SectionCard title="No token">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            For a participant that runs without authentication{' '}
            {sandboxInfo.data?.auth === 'none' ? '(as this sandbox does)' : ''}: requests go without
            an Authorization header.
          </Text>
          {withoutToken.isError && <ErrorAlert error={withoutToken.error} />}
          <Divider />
          <Button
            variant="default"
            loading={withoutToken.isPending}
            onClick={() => {
              withoutToken.mutate({ token: undefined, remember: false }, { onSuccess: onSignedIn });
            }}
          >
            Continue without a token
          </Button>
        </Stack>
      </SectionCard>
    </Stack>
  );
}
