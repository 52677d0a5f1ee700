import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { identityProviderQueries } from '@/api/identity-providers';
import {
  oidcDiscoveryMutations,
  type DiscoveryCheck,
  type IssuerDiscovery,
} from '@/api/oidc-discovery';
import { FormRootError } from '@/components/form/form-root-error';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { SectionCard } from '@/components/section-card';
import type { ApiError } from '@/lib/errors/api-error';
import { issuerLookupSchema, MAX_ISSUER_URL_LENGTH, type IssuerLookupValues } from './delegation';
import { buttonBusy } from '@/components/form/button-busy';

export type FillFromIssuerProps = {
  /** Called with the checked discovery; the caller fills its own fields from it. */
  onFilled: (discovery: IssuerDiscovery) => void;
  /** The page of an IdP that already has the issuer, offered as the way there. */
  identityProviderHref?: (identityProviderId: string) => string;
};

// The console server's refusals about the issuer itself belong on the field; 401, 403 and an
// unreachable participant do not.
const ISSUER_CODES = new Set([
  'LEDGER_CONSOLE_INVALID_ISSUER',
  'LEDGER_CONSOLE_ISSUER_MISMATCH',
  'LEDGER_CONSOLE_DISCOVERY_INVALID',
  'LEDGER_CONSOLE_DISCOVERY_FAILED',
  'LEDGER_CONSOLE_DISCOVERY_UNREACHABLE',
  'LEDGER_CONSOLE_DISCOVERY_TOO_LARGE',
  'LEDGER_CONSOLE_DISCOVERY_TIMEOUT',
]);

/**
 * Reads an issuer's discovery document through the console server (browsers meet CORS at the
 * provider) and hands issuer and JWKS URL to the form, with what was checked on the way.
 */
export function FillFromIssuer({ onFilled, identityProviderHref }: FillFromIssuerProps) {
  const form = useForm<IssuerLookupValues>({
    resolver: zodResolver(issuerLookupSchema),
    defaultValues: { issuer: '' },
  });
  const discover = useFormMutation(
    form,
    oidcDiscoveryMutations.discover(),
    {},
    (error: ApiError) => (ISSUER_CODES.has(error.code) ? 'issuer' : undefined),
  );
  // A participant admin may read them; the check is a courtesy, the participant decides anyway.
  const configs = useQuery({ ...identityProviderQueries.list(), meta: { errorDisplay: 'inline' } });

  const handleSubmit = form.handleSubmit(({ issuer }) => {
    discover.mutate(issuer, { onSuccess: onFilled });
  });

  const discovery = discover.data;
  const taken = discovery
    ? configs.data?.find((config) => config.issuer === discovery.issuer)
    : undefined;
  const checks: DiscoveryCheck[] = discovery
    ? [
        ...discovery.checks,
        taken
          ? {
              name: 'Not yet configured',
              status: 'warning',
              detail: `The identity provider ${taken.identityProviderId} already has this issuer; the participant allows it once.`,
            }
          : {
              name: 'Not yet configured',
              status: 'ok',
              detail: 'No identity provider on this participant has this issuer yet.',
            },
      ]
    : [];

  return (
    <SectionCard title="Fill from issuer">
      <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Fill from issuer">
        <Stack gap="sm" maw={640}>
          <Text size="sm" c="dimmed">
            The console server reads the issuer’s <Code>/.well-known/openid-configuration</Code> and
            the keys it names (for a participant admin only), then fills in the issuer and JWKS URL
            below.
          </Text>
          <FormRootError control={form.control} error={discover.error} />
          <Group align="flex-start" gap="sm">
            <FormTextInput
              control={form.control}
              name="issuer"
              label="Issuer URL"
              description="https (http only on loopback), exactly as the provider’s tokens carry it in iss."
              placeholder="https://login.example.com/realms/canton"
              autoComplete="off"
              spellCheck={false}
              maxLength={MAX_ISSUER_URL_LENGTH + 1}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={buttonBusy(discover.isPending)} mt={24}>
              Fill from issuer
            </Button>
          </Group>
          {discovery && (
            <Stack gap="xs">
              <List aria-label="Discovery checks" listStyleType="none" spacing={4}>
                {checks.map((check) => (
                  <List.Item key={check.name}>
                    <Group gap="xs" wrap="nowrap" align="flex-start">
                      <Badge
                        color={check.status === 'ok' ? 'teal' : 'orange'}
                        variant="light"
                        miw={72}
                      >
                        {check.status === 'ok' ? 'OK' : 'Warning'}
                      </Badge>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        <Text span fw={500}>
                          {check.name}:
                        </Text>{' '}
                        {check.detail}
                      </Text>
                    </Group>
                  </List.Item>
                ))}
              </List>
              {taken !== undefined && identityProviderHref !== undefined && (
                <Group>
                  <Button
                    component={Link}
                    to={identityProviderHref(taken.identityProviderId)}
                    size="xs"
                    variant="default"
                  >
                    Open {taken.identityProviderId}
                  </Button>
                </Group>
              )}
              <Title order={3} size="h5" id="discovered-keys-label">
                Keys found ({String(discovery.keys.length)})
              </Title>
              <List aria-labelledby="discovered-keys-label" size="sm" spacing={2}>
                {discovery.keys.map((key, index) => (
                  <List.Item key={`${key.kid ?? ''}-${String(index)}`}>
                    <Code>{key.kid ?? '(no kid)'}</Code> {key.kty ?? '?'} · {key.alg ?? 'no alg'} ·{' '}
                    {key.use ?? 'any use'}
                  </List.Item>
                ))}
              </List>
            </Stack>
          )}
        </Stack>
      </form>
    </SectionCard>
  );
}
