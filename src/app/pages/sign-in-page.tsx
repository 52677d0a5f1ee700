import { Alert, Stack, Text } from '@mantine/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { usePageFleet } from '@/hooks/use-page-fleet';
import { SignInPanel } from '@/features/session/sign-in-panel';
import { safeReturnPath } from '@/app/safe-return-path';
import type { SignInPageState } from './sign-in-callback-page';

export function SignInPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const returnTo = safeReturnPath(searchParams.get('from'));
  const { signInError } = (location.state ?? {}) as SignInPageState;
  // In a fleet, signing in is per participant: the page names the one it signs in to.
  const participant = usePageFleet()?.current.name;

  return (
    <>
      <PageHeader
        title={participant === undefined ? 'Sign in' : `Sign in to ${participant}`}
        description={
          participant === undefined
            ? 'Choose how this console authenticates to the participant. Tokens stay in this browser tab.'
            : `Choose how this console authenticates to participant ${participant}. Signing in here signs in on ${participant} only; tokens stay in this browser tab.`
        }
      />
      <Stack>
        {signInError && (
          <Alert color="red" variant="light" title={signInError.title} role="alert">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {signInError.message}
            </Text>
          </Alert>
        )}
        <SignInPanel
          returnTo={returnTo}
          onSignedIn={() => {
            void navigate(returnTo);
          }}
        />
      </Stack>
    </>
  );
}
