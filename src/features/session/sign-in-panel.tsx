import { Accordion, Button, Divider, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { sessionQueries } from '@/api/session';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { SectionCard } from '@/components/section-card';
import { CurrentIdentity } from './current-identity';
import { ProviderSignIn } from './provider-sign-in';
import { SandboxSignIn } from './sandbox-sign-in';
import { TokenSignInForm } from './token-sign-in-form';
import { useSignIn } from './use-sign-in';
import { buttonBusy } from '@/components/form/button-busy';

export type SignInPanelProps = {
  onSignedIn: () => void;
  /**
   * `page`: the sign-in page, which leaves for the provider and comes back to `returnTo`.
   * `dialog`: over a page the user is working on; a provider's sign-in runs in a popup so nothing
   * on the page is lost.
   */
  mode?: 'page' | 'dialog';
  returnTo?: string;
};

/**
 * The ways to connect: the organisation's OpenID providers first; then, for the sandbox, a minted
 * token; and, as an advanced option once providers exist, a pasted token or none.
 */
export function SignInPanel({ onSignedIn, mode = 'page', returnTo = '/' }: SignInPanelProps) {
  const sandboxInfo = useQuery(sessionQueries.sandboxInfo());
  const providers = useQuery({ ...signInProviderQueries.list(), meta: { errorDisplay: 'inline' } });
  const hasProviders = (providers.data?.length ?? 0) > 0;

  const advanced = (
    <>
      <SectionCard title="Sign in with a bearer token">
        <TokenSignInForm onSignedIn={onSignedIn} />
      </SectionCard>
      <SectionCard title="No token">
        <WithoutToken auth={sandboxInfo.data?.auth} onSignedIn={onSignedIn} />
      </SectionCard>
    </>
  );

  return (
    <Stack>
      <SectionCard title="Current identity">
        <CurrentIdentity />
      </SectionCard>
      {(hasProviders || providers.isError) && (
        <SectionCard title="Sign in with your identity provider">
          <ProviderSignIn
            mode={mode === 'dialog' ? 'popup' : 'redirect'}
            returnTo={returnTo}
            onSignedIn={onSignedIn}
          />
        </SectionCard>
      )}
      {sandboxInfo.data?.canMintTokens && (
        <SectionCard title="Sign in as a sandbox user">
          <SandboxSignIn onSignedIn={onSignedIn} />
        </SectionCard>
      )}
      {hasProviders ? (
        <Accordion variant="contained">
          <Accordion.Item value="advanced">
            <Accordion.Control>Advanced: paste a bearer token, or use none</Accordion.Control>
            <Accordion.Panel>
              <Stack>{advanced}</Stack>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      ) : (
        advanced
      )}
    </Stack>
  );
}

function WithoutToken({ auth, onSignedIn }: { auth: string | undefined; onSignedIn: () => void }) {
  const withoutToken = useSignIn();
  return (
    <Stack gap="sm" align="flex-start">
      <Text size="sm">
        For a participant that runs without authentication{' '}
        {auth === 'none' ? '(as this sandbox does)' : ''}: requests go without an Authorization
        header.
      </Text>
      {withoutToken.isError && <ErrorAlert error={withoutToken.error} />}
      <Divider />
      <Button
        variant="default"
        loading={buttonBusy(withoutToken.isPending)}
        onClick={() => {
          withoutToken.mutate({ token: undefined, remember: false }, { onSuccess: onSignedIn });
        }}
      >
        Continue without a token
      </Button>
    </Stack>
  );
}
