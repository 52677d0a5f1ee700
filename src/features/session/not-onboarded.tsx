import { Alert, Button, Code, CopyButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { readAccessToken, readSignInProviderId } from '@/api/access-token';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { accessRequestQuery, ACCESS_REQUEST_LIMITS } from '@/lib/access/access-request';
import { describeError } from '@/lib/errors/api-error';
import { decodeToken } from '@/lib/access/token-claims';

export type NotOnboardedProps = {
  /** The participant's 403 to who-am-I. */
  error: unknown;
  /** The path of the console's access request review page. */
  reviewPath: string;
  onSignOut: () => void;
  /** The token doctor's path, where the person sees why in detail. */
  doctorPath?: string;
};

/**
 * A person whose token the participant verified but who has no (active) user here: who they are,
 * and a request link to send to an administrator of their identity provider.
 */
export function NotOnboarded({ error, reviewPath, onSignOut, doctorPath }: NotOnboardedProps) {
  const token = readAccessToken();
  const decoded = token === undefined ? undefined : decodeToken(token);
  const claims = decoded?.kind === 'jwt' ? decoded.claims : undefined;
  const providerId = readSignInProviderId();
  const providers = useQuery({
    ...signInProviderQueries.list(),
    enabled: providerId !== undefined,
    meta: { errorDisplay: 'inline' },
  });
  const provider = providers.data?.find((candidate) => candidate.id === providerId);
  // The ID token's name and email, which the person may be glad to pass on; never required.
  const profile = useQuery({
    ...signInProviderQueries.profile(provider),
    meta: { errorDisplay: 'inline' },
  });
  const [requestedAccess, setRequestedAccess] = useState('');
  const { message } = describeError(error);

  if (!claims?.subject || !claims.issuer) {
    return (
      <Alert color="orange" variant="light" title="This user is not allowed in">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">The participant said: {message}</Text>
          <Button variant="default" onClick={onSignOut}>
            Sign out
          </Button>
        </Stack>
      </Alert>
    );
  }

  const link = `${window.location.origin}${reviewPath}?${accessRequestQuery({
    issuer: claims.issuer,
    subject: claims.subject,
    identityProviderId: provider?.identityProviderId ?? '',
    ...profile.data,
    ...(requestedAccess.trim() ? { requestedAccess: requestedAccess.trim() } : {}),
  })}`;

  return (
    <Stack gap="md" maw={760}>
      <Alert color="orange" variant="light" title="Not onboarded on this participant">
        <Stack gap="xs">
          <Text size="sm">
            Signed in as <Code>{claims.subject}</Code> at <Code>{claims.issuer}</Code>
            {provider ? ` (${provider.name})` : ''}, but this participant has no active user for
            you, so it refuses every request.
          </Text>
          <Text size="sm">
            An administrator of{' '}
            {provider?.identityProviderId
              ? `the identity provider ${provider.identityProviderId}`
              : 'this participant'}{' '}
            onboards you by creating the user <Code>{claims.subject}</Code>. Send them the request
            link below.
          </Text>
          <Text size="xs" c="dimmed">
            The participant said: {message}
          </Text>
        </Stack>
      </Alert>
      <Textarea
        label="What do you need to do?"
        description="Optional, in your own words (e.g. act as my own party, read the treasury's contracts). It goes into the link."
        autosize
        minRows={2}
        maxLength={ACCESS_REQUEST_LIMITS.requestedAccess}
        value={requestedAccess}
        onChange={(event) => {
          setRequestedAccess(event.currentTarget.value);
        }}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="access-request-link-label">
          Access request link
        </Text>
        <Code
          block
          aria-labelledby="access-request-link-label"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {link}
        </Code>
        <Text size="xs" c="dimmed">
          It holds your issuer, subject{profile.data?.name ? ', name' : ''}
          {profile.data?.email ? ', email' : ''} and what you wrote; nothing is stored anywhere.
        </Text>
      </Stack>
      <Group gap="sm">
        <CopyButton value={link}>
          {({ copied, copy }) => (
            <Button onClick={copy}>{copied ? 'Copied' : 'Copy request link'}</Button>
          )}
        </CopyButton>
        <Button variant="default" onClick={onSignOut}>
          Sign out
        </Button>
        {doctorPath !== undefined && (
          <Button component={Link} to={doctorPath} variant="subtle">
            Check my token
          </Button>
        )}
      </Group>
    </Stack>
  );
}
