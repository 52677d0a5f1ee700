import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { describeError, explainRefusal } from '@/lib/errors/api-error';
import { paths } from '@/app/paths';

export type SignInRequiredProps = {
  error: unknown;
  /** Sign in without leaving the page (a dialog). */
  onSignIn: () => void;
};

/**
 * The participant stopped accepting this session part-way (an expired token, a deactivated IdP):
 * a banner over the page, which stays as it is, with the way to sign in again.
 */
export function SignInRequired({ error, onSignIn }: SignInRequiredProps) {
  const { status } = describeError(error);
  return (
    <Alert
      color="orange"
      variant="light"
      title={status === 401 ? 'Sign-in needed' : 'This user is not allowed in'}
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{explainRefusal(status ?? 0)}</Text>
        <Group gap="sm">
          <Button onClick={onSignIn}>Sign in</Button>
          <Button component={Link} to={paths.tokenDoctor.to()} variant="subtle">
            Why? Check the token
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
