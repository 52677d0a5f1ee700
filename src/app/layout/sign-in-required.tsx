import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { describeError } from '@/lib/api-error';
import { paths } from '@/app/paths';
import { explainAuthStatus } from './explain-auth-status';

export type SignInRequiredProps = {
  error: unknown;
  /** Sign in without leaving the page (a dialog); without it, a link to the sign-in page. */
  onSignIn?: () => void;
};

/**
 * Why the participant refuses the caller: 401 (no token, or one it cannot verify) or 403 (the
 * token's user is unknown or deactivated).
 */
export function SignInRequired({ error, onSignIn }: SignInRequiredProps) {
  const { pathname, search } = useLocation();
  const { status, message, code } = describeError(error);
  return (
    <Alert
      color="orange"
      variant="light"
      title={status === 401 ? 'Sign-in needed' : 'This user is not allowed in'}
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{explainAuthStatus(status ?? 0)}</Text>
        <Text size="xs" c="dimmed">
          The participant said: {message}
          {code ? ` (${code})` : ''}
        </Text>
        <Group gap="sm">
          {onSignIn ? (
            <Button onClick={onSignIn}>Sign in</Button>
          ) : (
            <Button component={Link} to={paths.signIn.to(`${pathname}${search}`)}>
              Sign in
            </Button>
          )}
          <Button component={Link} to={paths.tokenDoctor.to()} variant="subtle">
            Why? Check the token
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
