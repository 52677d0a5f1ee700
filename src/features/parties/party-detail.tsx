import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { splitUniqueIdentifier } from '@ledger-console/participant/unique-identifier';
import { participantQueries } from '@/api/participant';
import { partyQueries, type PartyDetails, type PartyRef } from '@/api/parties';
import { partyHostingQueries } from '@/api/party-hosting';
import { synchronizerQueries } from '@/api/synchronizers';
import { sessionQueries } from '@/api/session';
import { readScopeOf } from '@/api/updates';
import { NotFoundState } from '@/components/feedback/page-state';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { Identifier } from '@/components/identifier';
import { IsolatedText } from '@/components/isolated-text';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { accessOf, type Access } from '@/lib/access/access-rights';
import { describeError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';
import { externalPartyPrefillSearch } from './external-party-form-schema';
import { isExternalParty } from './parties-filter';
import { PartyAccessPanel } from './party-access-panel';
import { PartyAnnotationsForm } from './party-annotations-form';
import { PartyGrantForm } from './party-grant-form';
import { PartyHostingPanel } from './party-hosting-panel';

const READ_PARTY_NEED = 'Read as or Act as this party, or Read as any party';

/** The app's routes this feature links to; features cannot import the app's paths. */
export type PartyDetailLinks = {
  parties: string;
  user: (userId: string, identityProviderId: string) => string;
  /** "Allocate external party", with a prefill's query string. */
  newExternalParty: (search: string) => string;
  /** An update's page (the hosting timeline links its topology transactions). */
  update: (updateId: string) => string;
};

export type PartyDetailProps = {
  /** The party, seen through the IdP the URL names (`''`: the default IdP, or the caller's own). */
  partyRef: PartyRef;
  /** The party turned out to belong to this IdP; the page shows it through that IdP instead. */
  onIdentityProviderFound: (identityProviderId: string) => void;
  links: PartyDetailLinks;
};

/**
 * One party: its details (GET /v2/parties/{party}), its annotations with editing, and who can
 * act, read and execute as it.
 */
export function PartyDetail({ partyRef, onIdentityProviderFound, links }: PartyDetailProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const { data: party } = useSuspenseQuery(partyQueries.detail(partyRef));
  const access = accessOf(caller);
  // A participant admin sees a party of another IdP blinded to non-local through the default
  // IdP's eyes (§4.7); it may ask through each IdP instead.
  const mayBelongToAnotherIdp =
    party !== null &&
    access.isParticipantAdmin &&
    partyRef.identityProviderId === '' &&
    party.isLocal !== true;
  const lookup = useQuery({
    ...partyQueries.identityProvider(partyRef.party),
    enabled: mayBelongToAnotherIdp,
  });
  // Cached answers stay readable while disabled; they only count while the question is open.
  const foundIdentityProviderId = mayBelongToAnotherIdp ? (lookup.data ?? undefined) : undefined;
  useEffect(() => {
    if (foundIdentityProviderId !== undefined) onIdentityProviderFound(foundIdentityProviderId);
  }, [foundIdentityProviderId, onIdentityProviderFound]);
  const isLookingForIdp =
    mayBelongToAnotherIdp && (lookup.isPending || foundIdentityProviderId !== undefined);
  // A grant from this page starts the access check again, so its tables show the new right.
  const [grants, setGrants] = useState(0);
  const { data: participantId } = useQuery(participantQueries.participantId());

  if (!party) {
    return (
      <NotFoundState
        what="party"
        id={partyRef.party}
        detail="This participant does not know this party: it is neither hosted here nor known from the topology of its synchronizers. The link may hold a typo."
        back={{ to: links.parties, label: 'parties' }}
      />
    );
  }

  const partyIdentityProviderId = party.isLocal ? (party.identityProviderId ?? '') : '';
  const scope = readScopeOf(caller);
  const mayReadParty = scope.kind === 'any-party' || scope.parties.includes(party.party);
  const canEdit = access.canManageUsers && party.isLocal === true;
  const isExternal = isExternalParty(party, participantId);
  // An external party's namespace is the fingerprint of the key that owns it.
  const keyFingerprint = isExternal ? splitUniqueIdentifier(party.party)?.namespace : undefined;

  return (
    <Stack gap="lg">
      <SectionCard title="Details">
        <Stack gap="sm">
          <PropertyList
            items={[
              {
                label: 'Party id',
                value: <Identifier value={party.party} label="party id" isShortened={false} />,
              },
              {
                label: 'Hosting',
                value: (
                  <Locality
                    label={localityLabel({
                      party,
                      partyRef,
                      isParticipantAdmin: access.isParticipantAdmin,
                      isHostedElsewhere: lookup.data === null,
                    })}
                    note={localityNote({
                      party,
                      partyRef,
                      isParticipantAdmin: access.isParticipantAdmin,
                      isHostedElsewhere: lookup.data === null,
                    })}
                    isExternal={isExternal}
                  />
                ),
              },
              ...(keyFingerprint === undefined
                ? []
                : [
                    {
                      label: 'Key fingerprint',
                      value: (
                        <Identifier
                          value={keyFingerprint}
                          label="key fingerprint"
                          isShortened={false}
                        />
                      ),
                    },
                  ]),
              ...(party.isLocal === true
                ? [
                    {
                      label: 'Synchronizers',
                      value: (
                        <PartySynchronizers
                          party={party.party}
                          identityProviderId={partyIdentityProviderId}
                          {...(isExternal && access.canManageUsers
                            ? {
                                hostOnHref: (synchronizerId: string) =>
                                  links.newExternalParty(
                                    externalPartyPrefillSearch({
                                      party: party.party,
                                      hint: splitUniqueIdentifier(party.party)?.identifier ?? '',
                                      synchronizerId,
                                    }),
                                  ),
                              }
                            : {})}
                        />
                      ),
                    },
                  ]
                : []),
              {
                label: 'Identity provider',
                value: (
                  <Text size="sm">
                    {!party.isLocal
                      ? 'Not shown for a party that is not local'
                      : partyIdentityProviderId === ''
                        ? 'Default identity provider'
                        : partyIdentityProviderId}
                  </Text>
                ),
              },
            ]}
          />
          {mayBelongToAnotherIdp && (
            <IdentityProviderLookupStatus
              isLooking={isLookingForIdp}
              error={lookup.error ?? undefined}
            />
          )}
        </Stack>
      </SectionCard>
      <SectionCard title="Hosting">
        {/* The hosting is read from the update stream, which needs a read right for the party:
            without one the participant would refuse, so the page says so and asks nothing. */}
        {mayReadParty ? (
          <QueryBoundary need={READ_PARTY_NEED}>
            <PartyHostingPanel
              party={party.party}
              identityProviderId={partyIdentityProviderId}
              isLocal={party.isLocal === true}
              updateHref={links.update}
            />
          </QueryBoundary>
        ) : (
          <Text size="sm">
            {`Where this party is hosted is read from the update stream, which needs ${READ_PARTY_NEED}. You hold none of these rights.`}
          </Text>
        )}
      </SectionCard>
      <SectionCard title="Annotations">
        {canEdit ? (
          <PartyAnnotationsForm party={party} />
        ) : (
          <AnnotationsView party={party} access={access} />
        )}
      </SectionCard>
      <SectionCard title="Who can act as this party">
        {isLookingForIdp ? (
          // Which IdP the party belongs to decides which IdP admins count: wait for it.
          <Text size="sm" c="dimmed">
            Waiting for the party&apos;s identity provider…
          </Text>
        ) : (
          <Stack gap="lg">
            {canEdit && (
              <PartyGrantForm
                party={party.party}
                access={access}
                onGranted={() => {
                  setGrants((count) => count + 1);
                }}
              />
            )}
            <QueryBoundary key={grants}>
              <PartyAccessPanel
                party={party.party}
                partyIdentityProviderId={partyIdentityProviderId}
                userHref={links.user}
              />
            </QueryBoundary>
          </Stack>
        )}
      </SectionCard>
    </Stack>
  );
}

/** What the page knows of where a party is hosted, for its badge and its note. */
type Locality = {
  party: PartyDetails;
  partyRef: PartyRef;
  isParticipantAdmin: boolean;
  isHostedElsewhere: boolean;
};

function localityNote({
  party,
  partyRef,
  isParticipantAdmin,
  isHostedElsewhere,
}: Locality): string {
  if (party.isLocal) return 'Hosted on this participant.';
  if (!isParticipantAdmin) {
    return 'Hosted on another participant, or in an identity provider other than yours.';
  }
  if (partyRef.identityProviderId !== '') {
    return `Not hosted here in the identity provider ${partyRef.identityProviderId}.`;
  }
  return isHostedElsewhere
    ? 'Hosted on another participant.'
    : 'Not hosted here in the default identity provider.';
}

/**
 * The badge: a party of another IdP hosted here is not called "not local" where the console can
 * tell (an IdP admin's view blinds it, §4.7; a participant admin's lookup finds its IdP and moves
 * the page there).
 */
function localityLabel({
  party,
  partyRef,
  isParticipantAdmin,
  isHostedElsewhere,
}: Locality): string {
  if (party.isLocal) return 'Local';
  if (!isParticipantAdmin) return 'Not in your identity provider';
  if (partyRef.identityProviderId !== '') return 'Not local';
  return isHostedElsewhere ? 'Hosted elsewhere' : 'Not local';
}

function Locality({
  label,
  note,
  isExternal,
}: {
  label: string;
  note: string;
  isExternal: boolean;
}) {
  return (
    <Group gap="xs">
      <Badge color={label === 'Local' ? 'green' : 'gray'} variant="light">
        {label}
      </Badge>
      {isExternal && (
        <Badge color="violet" variant="light" title="Its key is held outside this participant">
          External
        </Badge>
      )}
      <Text size="sm">{note}</Text>
    </Group>
  );
}

/** Where this participant hosts the party, with its permission on each synchronizer. */
function PartySynchronizers({
  party,
  identityProviderId,
  hostOnHref,
}: {
  party: string;
  identityProviderId: string;
  /**
   * For an external party: where hosting it on a synchronizer starts. The same key and hint on
   * another synchronizer is the same party, allocated there with its key's signature.
   */
  hostOnHref?: (synchronizerId: string) => string;
}) {
  const hosting = useQuery(partyHostingQueries.synchronizers({ party, identityProviderId }));
  const connected = useQuery({
    ...synchronizerQueries.connected(),
    enabled: hostOnHref !== undefined,
  });
  if (hosting.isPending) return <Loader size="xs" aria-label="Loading synchronizers" />;
  if (hosting.error) {
    return (
      <Text size="sm" c="dimmed">
        Could not load ({describeError(hosting.error).message}).
      </Text>
    );
  }
  const hostedOn = new Set(hosting.data.map(({ synchronizerId }) => synchronizerId));
  const next = connected.data?.find(({ synchronizerId }) => !hostedOn.has(synchronizerId));
  const hostOn =
    hostOnHref === undefined || next === undefined ? undefined : (
      <Group>
        <Button
          component={Link}
          to={hostOnHref(next.synchronizerId)}
          size="xs"
          variant="light"
          title={`With the party's key file, host it on ${next.synchronizerAlias} too`}
        >
          Host on another synchronizer…
        </Button>
      </Group>
    );
  if (hosting.data.length === 0) {
    return (
      <Stack gap={4}>
        <Text size="sm">Hosted on no connected synchronizer.</Text>
        {hostOn}
      </Stack>
    );
  }
  return (
    <Stack gap={4}>
      {hosting.data.map((synchronizer) => (
        <Text size="sm" key={synchronizer.synchronizerId}>
          {synchronizer.synchronizerAlias} ({shortenIdentifier(synchronizer.synchronizerId)}):{' '}
          {(synchronizer.permission ?? 'PARTICIPANT_PERMISSION_UNSPECIFIED').replace(
            'PARTICIPANT_PERMISSION_',
            '',
          )}
        </Text>
      ))}
      {hostOn}
    </Stack>
  );
}

function IdentityProviderLookupStatus({
  isLooking,
  error,
}: {
  isLooking: boolean;
  error: unknown;
}) {
  if (isLooking) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm">Checking whether it belongs to another identity provider…</Text>
      </Group>
    );
  }
  return (
    <Text size="sm" c="dimmed" role="status">
      {error === undefined
        ? 'No identity provider of this participant claims it: the party is hosted on another participant.'
        : `Could not check the other identity providers (${describeError(error).message}).`}
    </Text>
  );
}

function AnnotationsView({ party, access }: { party: PartyDetails; access: Access }) {
  if (!party.isLocal) {
    return (
      <Text size="sm" c="dimmed">
        Annotations are kept for local parties only, and shown to their own identity provider.
      </Text>
    );
  }
  const entries = Object.entries(party.localMetadata?.annotations ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return (
    <Stack gap="sm">
      {!access.canManageUsers && (
        <Text size="sm" c="dimmed">
          Read-only: changing a party needs the Participant admin or Identity provider admin right.
        </Text>
      )}
      {entries.length === 0 ? (
        <Text size="sm">No annotations.</Text>
      ) : (
        <PropertyList
          items={entries.map(([key, value]) => ({
            label: key,
            value: (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                <IsolatedText>{value}</IsolatedText>
              </Text>
            ),
          }))}
        />
      )}
    </Stack>
  );
}
