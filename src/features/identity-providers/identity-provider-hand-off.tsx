import { Button, Code, CopyButton, Stack, Text, Title } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import { handOffText, signInConfigSnippet, type HandOff } from './delegation';

/**
 * What the new IdP admin and the console's operator need, as copyable text: ids, issuer, the
 * audience tokens must carry, the first admin, the `--sign-in-config` entry and what the IdP
 * admin can then do. Plain text in <code>: nothing in it becomes markup or a link.
 */
export function IdentityProviderHandOff({ handOff }: { handOff: HandOff }) {
  const text = handOffText(handOff);
  const snippet = signInConfigSnippet(handOff);
  return (
    <SectionCard title="Hand-off sheet">
      <Stack gap="sm">
        <Text size="sm">
          Send this to <Code>{handOff.adminUserId}</Code> and to whoever runs the console: it says
          how the new IdP admin signs in and what they can do.
        </Text>
        <Code
          block
          aria-label="Hand-off sheet text"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {text}
        </Code>
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button onClick={copy} w="fit-content">
              {copied ? 'Copied' : 'Copy hand-off sheet'}
            </Button>
          )}
        </CopyButton>
        <Title order={3} size="h5" id="sign-in-config-label">
          Sign-in configuration (--sign-in-config)
        </Title>
        <Code
          block
          aria-labelledby="sign-in-config-label"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
        >
          {snippet}
        </Code>
        <CopyButton value={snippet}>
          {({ copied, copy }) => (
            <Button onClick={copy} variant="default" w="fit-content">
              {copied ? 'Copied' : 'Copy sign-in configuration'}
            </Button>
          )}
        </CopyButton>
      </Stack>
    </SectionCard>
  );
}
