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
        <CopyableText
          text={text}
          aria-label="Hand-off sheet text"
          copyLabel="Copy hand-off sheet"
        />
        <Title order={3} size="h5" id="sign-in-config-label">
          Sign-in configuration (--sign-in-config)
        </Title>
        <CopyableText
          text={snippet}
          aria-labelledby="sign-in-config-label"
          copyLabel="Copy sign-in configuration"
          variant="default"
        />
      </Stack>
    </SectionCard>
  );
}

/** `text` as a wrapped code block (named by `aria-label` or `aria-labelledby`), and its copy button. */
function CopyableText({
  text,
  copyLabel,
  variant,
  ...labelling
}: {
  text: string;
  copyLabel: string;
  variant?: 'default';
  'aria-label'?: string;
  'aria-labelledby'?: string;
}) {
  return (
    <>
      <Code block {...labelling} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text}
      </Code>
      <CopyButton value={text}>
        {({ copied, copy }) => (
          <Button onClick={copy} variant={variant} w="fit-content">
            {copied ? 'Copied' : copyLabel}
          </Button>
        )}
      </CopyButton>
    </>
  );
}
