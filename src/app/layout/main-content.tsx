import { Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useLocation } from 'react-router';
import { sessionQueries } from '@/api/session';
import { AuthRecoveryContext } from '@/components/feedback/auth-recovery-context';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/app/paths';
import { explainAuthStatus } from './explain-auth-status';
import { SignInRequired } from './sign-in-required';

/**
 * The routed page, or the reason there is none: a participant that refuses the caller outright
 * (401/403 on who-am-I) gets an explanation instead of a broken page.
 */
export function MainContent() {
  const { pathname, search } = useLocation();
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const isRefused =
    caller.error instanceof ApiError &&
    (caller.error.status === 401 || caller.error.status === 403);
  const signInHref = paths.signIn.to(`${pathname}${search}`);

  const renderAuthRecovery = (status: number) => (
    <Group gap="sm">
      <Text size="sm">{explainAuthStatus(status)}</Text>
      <Button component={Link} to={signInHref} size="xs" variant="light">
        Sign in again
      </Button>
    </Group>
  );

  return (
    <AuthRecoveryContext value={renderAuthRecovery}>
      {isRefused && pathname !== paths.signIn.pattern ? (
        <SignInRequired error={caller.error} />
      ) : (
        <Outlet />
      )}
    </AuthRecoveryContext>
  );
}
