import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { sessionQueries } from '@/api/session';
import { AuthRecoveryContext } from '@/components/feedback/auth-recovery-context';
import { describeError } from '@/lib/api-error';
import { paths } from '@/app/paths';
import { explainAuthStatus } from './explain-auth-status';
import { SignInRequired } from './sign-in-required';

// Loaded only when someone signs in again: the form and its validation must stay out of the
// first chunk every route loads (the first route's JS budget is 250 KB gzip).
const SignInPanel = lazy(() =>
  import('@/features/session/sign-in-panel').then((module) => ({ default: module.SignInPanel })),
);

/**
 * The routed page, or the reason there is none: a participant that refuses the caller from the
 * start (401/403 on who-am-I) gets an explanation instead of a broken page. A refusal later in the
 * session (an expired token) never unmounts the page, so a half-typed form survives: signing in
 * again happens in a dialog over it.
 */
export function MainContent() {
  const { pathname } = useLocation();
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const [isSignInOpen, signInDialog] = useDisclosure(false);
  const isRefused = caller.isError && describeError(caller.error).isAuthProblem;
  const isRefusedFromStart = isRefused && caller.data === undefined;
  const isSignInPage = pathname === paths.signIn.pattern;

  const renderAuthRecovery = (status: number) => (
    <Group gap="sm">
      <Text size="sm">{explainAuthStatus(status)}</Text>
      <Button size="xs" variant="light" onClick={signInDialog.open}>
        Sign in again
      </Button>
    </Group>
  );

  return (
    <AuthRecoveryContext value={renderAuthRecovery}>
      {isRefusedFromStart && !isSignInPage ? (
        <SignInRequired error={caller.error} />
      ) : (
        <Stack gap="md">
          {isRefused && !isSignInPage && (
            <SignInRequired error={caller.error} onSignIn={signInDialog.open} />
          )}
          <Outlet />
        </Stack>
      )}
      <Modal opened={isSignInOpen} onClose={signInDialog.close} title="Sign in again" size="lg">
        <Suspense fallback={<SectionSkeleton lines={6} />}>
          <SignInPanel onSignedIn={signInDialog.close} />
        </Suspense>
      </Modal>
    </AuthRecoveryContext>
  );
}
