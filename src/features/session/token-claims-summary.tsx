import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { PropertyList } from '@/components/property-list';
import { isExpired, type TokenClaims } from '@/lib/access/token-claims';

export type TokenClaimsSummaryProps = { claims: TokenClaims; now?: number };

/** The claims a participant reads from a token: who, issued by whom, for whom, until when. */
export function TokenClaimsSummary({ claims, now: givenNow }: TokenClaimsSummaryProps) {
  // Read once per mount: expiry is judged when the token is shown, not re-judged every render.
  const [mountedAt] = useState(Date.now);
  const now = givenNow ?? mountedAt;
  const expired = isExpired(claims, now);
  const providers = useQuery({ ...signInProviderQueries.list(), meta: { errorDisplay: 'inline' } });
  // Only a hint: the participant may trust issuers the console was not told about (its own auth
  // services, or IdP configurations), which is why this is not a refusal.
  const isForeignIssuer =
    claims.issuer !== undefined &&
    (providers.data?.length ?? 0) > 0 &&
    !providers.data?.some((provider) => provider.oidc.authority === claims.issuer);
  const none = (
    <Text span size="sm" c="dimmed">
      none
    </Text>
  );
  return (
    <>
      <PropertyList
        items={[
          { label: 'User', value: claims.subject ? <Mono>{claims.subject}</Mono> : none },
          { label: 'Issuer', value: claims.issuer ? <Mono>{claims.issuer}</Mono> : none },
          {
            label: 'Audience',
            value: claims.audiences.length > 0 ? <Mono>{claims.audiences.join(', ')}</Mono> : none,
          },
          {
            label: 'Scope',
            value: claims.scopes.length > 0 ? <Mono>{claims.scopes.join(' ')}</Mono> : none,
          },
          {
            label: 'Expires',
            value:
              claims.expiresAt === undefined ? (
                <Text span size="sm">
                  never (no exp claim)
                </Text>
              ) : (
                <Text span size="sm" c={expired ? 'red.9' : undefined}>
                  {new Date(claims.expiresAt * 1000).toLocaleString()}
                </Text>
              ),
          },
        ]}
      />
      {isForeignIssuer && (
        <Alert color="yellow" variant="light" title="Issuer unknown to this console" mt="sm">
          None of the sign-in providers configured here issues tokens as {claims.issuer}. The
          participant accepts it only if one of its auth services or an active IdP configuration has
          this issuer; otherwise it answers 401. The Token doctor checks this in detail.
        </Alert>
      )}
      {expired && (
        <Alert color="orange" variant="light" title="This token has expired" mt="sm">
          The participant will refuse it. Get a fresh token from your identity provider.
        </Alert>
      )}
    </>
  );
}

function Mono({ children }: { children: string }) {
  return (
    <Text span size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
      {children}
    </Text>
  );
}
