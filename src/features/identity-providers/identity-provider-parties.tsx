import { List, Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Identifier } from '@/components/identifier';
import { formatCount, plural } from '@/lib/text/format';
import { identityProviderPartiesQuery } from './identity-provider-parties-query';

// Enough to recognise them; the count says how many there are in all.
const SHOWN_PARTIES = 50;

/** How many parties belong to the IdP, and which (a participant admin may list them). */
export function IdentityProviderParties({ identityProviderId }: { identityProviderId: string }) {
  const { data } = useSuspenseQuery(identityProviderPartiesQuery(identityProviderId));
  const { parties, isComplete } = data;
  const count = `${isComplete ? '' : 'At least '}${formatCount(parties.length, 'party', 'parties')}`;
  if (parties.length === 0) {
    return <Text size="sm">No parties belong to this identity provider.</Text>;
  }
  return (
    <>
      <Text size="sm" mb="xs">
        {count} {plural(parties.length, 'belongs', 'belong')} to this identity provider.
      </Text>
      <List
        size="sm"
        spacing={4}
        listStyleType="none"
        aria-label="Parties of this identity provider"
      >
        {parties.slice(0, SHOWN_PARTIES).map((party) => (
          <List.Item key={party.party}>
            <Identifier value={party.party} label={`party ${party.party}`} kind="party" />
          </List.Item>
        ))}
      </List>
      {parties.length > SHOWN_PARTIES && (
        <Text size="sm" c="dimmed" mt="xs">
          The first {SHOWN_PARTIES} are shown.
        </Text>
      )}
    </>
  );
}
