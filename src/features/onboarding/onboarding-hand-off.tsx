import { Alert, Button, Code, CopyButton, Stack, Text, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { SectionCard } from '@/components/section-card';
import { handOffMessage } from '@/lib/onboarding/hand-off';
import { type OnboardingPlan } from '@/lib/onboarding/plan-steps';

export type OnboardingHandOffProps = {
  plan: OnboardingPlan;
  participantId: string;
  /** The console's sign-in page, absolute (the person opens it from the message). */
  signInUrl: string;
};

/** What the person needs to sign in, and a message to send them. */
export function OnboardingHandOff({ plan, participantId, signInUrl }: OnboardingHandOffProps) {
  const providers = useQuery({ ...signInProviderQueries.list(), meta: { errorDisplay: 'inline' } });
  const provider = providers.data?.find(
    (candidate) => candidate.identityProviderId === plan.identityProviderId,
  );
  const message = handOffMessage({
    participantId,
    signInUrl,
    providerName: provider?.name,
    plan,
  });

  return (
    <SectionCard title="Hand-off">
      <Stack>
        <Alert color="green" variant="light" title={`${plan.userId} is onboarded`}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            User <Code>{plan.userId}</Code> holds its rights on <Code>{plan.party}</Code>, its
            primary party.
          </Text>
        </Alert>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Sign-in link: <Code>{signInUrl}</Code>
          {provider
            ? `, with the provider “${provider.name}”; login hint: ${plan.userId}.`
            : providers.isPending
              ? '.'
              : `. This console offers no sign-in provider for ${plan.identityProviderId || 'the default identity provider'}: the person signs in with a token of it.`}
        </Text>
        <Textarea
          label="Message for the person"
          value={message}
          readOnly
          autosize
          minRows={8}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        <CopyButton value={message}>
          {({ copied, copy }) => (
            <Button variant="light" onClick={copy} w="fit-content">
              {copied ? 'Copied' : 'Copy the message'}
            </Button>
          )}
        </CopyButton>
      </Stack>
    </SectionCard>
  );
}
