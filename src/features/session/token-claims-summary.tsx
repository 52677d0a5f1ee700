import { Alert, Text } from '@mantine/core';
import { useState } from 'react';
import { PropertyList } from '@/components/property-list';
import { isExpired, type TokenClaims } from '@/lib/token-claims';

export type TokenClaimsSummaryProps = { claims: TokenClaims; now?: number };

/** The claims a participant reads from a token: who, issued by whom, for whom, until when. */
export function TokenClaimsSummary({ claims, now: givenNow }: TokenClaimsSummaryProps) {
  // Read once per mount: expiry is judged when the token is shown, not re-judged every render.
  const [mountedAt] = useState(Date.now);
  const now = givenNow ?? mountedAt;
  const expired = isExpired(claims, now);
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
