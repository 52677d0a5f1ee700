import { Alert, Stack, Text } from '@mantine/core';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { SignInPanel } from '@/features/session/sign-in-panel';
import { safeReturnPath } from '@/app/safe-return-path';
import type { SignInPageState } from './sign-in-callback-page';

export function SignInPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const returnTo = safeReturnPath(searchParams.get('from'));
  const { signInError } = (location.state ?? {}) as SignInPageState;

  return (
    <>
      <PageHeader
        title="Sign in"
        description="Choose how this console authenticates to the participant. Tokens stay in this browser tab."
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
