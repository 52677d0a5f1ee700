import { Anchor, Badge, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { eventQueries, type ContractArchived, type ContractCreated } from '@/api/events';
import { isEmptyScope, type ReadScope } from '@/api/updates';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { Identifier } from '@/components/identifier';
import { PropertyList, type Property } from '@/components/property-list';
import { RelativeTime } from '@/components/relative-time';
import { SectionCard } from '@/components/section-card';
import { parseIdentifier } from '@/lib/transaction-tree/model';
import { ContractLocation } from './contract-location';
import type { ContractEventLinks } from './transaction-links';
import { NoReadScopeState } from '@/blocks/no-read-scope-state';
import { useReadScope } from '@/hooks/use-read-scope';
import { PartyList } from './party-list';

export type ContractEventsProps = {
  contractId: string;
  links: ContractEventLinks;
  /** The composer prefilled with an exercise on the contract, offered while it is active. */
  exerciseLink?: (contractId: string, templateId: string) => string;
};

/**
 * A contract's create and, if it is archived, its archive (`events-by-contract-id`), each linking
 * to its node in the transaction that made it.
 */
export function ContractEvents({ contractId, links, exerciseLink }: ContractEventsProps) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) {
    return <NoReadScopeState title="You may not read any contracts" />;
  }
  return (
    <ContractEventsOf
      contractId={contractId}
      scope={scope}
      links={links}
      {...(exerciseLink ? { exerciseLink } : {})}
    />
  );
}

function ContractEventsOf({
  contractId,
  scope,
  links,
  exerciseLink,
}: ContractEventsProps & { scope: ReadScope }) {
  const { data } = useSuspenseQuery(eventQueries.byContract(contractId, scope));
  const { created, archived } = data;
  const template = created ? parseIdentifier(created.createdEvent.templateId) : null;
  return (
    <Stack gap="lg">
      <Group gap="sm">
        <Title order={2} size="h3">
          {template ? template.entityName : 'Contract'}
        </Title>
        <Badge color={archived ? 'red' : 'teal'} variant="light">
          {archived ? 'Archived' : 'Active'}
        </Badge>
        {created && !archived && exerciseLink && (
          <Button
            component={Link}
            to={exerciseLink(contractId, created.createdEvent.templateId)}
            size="xs"
            variant="light"
            ml="auto"
          >
            Exercise…
          </Button>
        )}
      </Group>
      {created && !archived && (
        <QueryBoundary fallback={<SectionSkeleton lines={2} />}>
          <ContractLocation
            contractId={contractId}
            templateId={created.createdEvent.templateId}
            stakeholders={[
              ...created.createdEvent.signatories,
              ...(created.createdEvent.observers ?? []),
            ]}
            scope={scope}
          />
        </QueryBoundary>
      )}
      {created && <CreatedSection created={created} links={links} />}
      {archived && <ArchivedSection archived={archived} links={links} />}
    </Stack>
  );
}

function CreatedSection({
  created,
  links,
}: {
  created: ContractCreated;
  links: ContractEventLinks;
}) {
  const event = created.createdEvent;
  const items: Property[] = [
    {
      label: 'Template id',
      value: <Identifier value={event.templateId} label="template id" isShortened={false} />,
    },
    ...eventPlace(event, links, 'Open the transaction that created it'),
    { label: 'Created at', value: <RelativeTime value={event.createdAt} /> },
    { label: 'Signatories', value: <PartyList parties={event.signatories} /> },
    { label: 'Observers', value: <PartyList parties={event.observers ?? []} /> },
    { label: 'Witnesses', value: <PartyList parties={event.witnessParties} /> },
    {
      // Where it was created; the Location section says where it is now.
      label: 'Created on synchronizer',
      value: <Identifier value={created.synchronizerId} label="synchronizer id" />,
    },
  ];
  return (
    <SectionCard title="Created">
      <Stack gap="md">
        <PropertyList items={items} />
        <Text size="sm" fw={600}>
          Create arguments
        </Text>
        <Code block tabIndex={0} style={{ maxHeight: 320, overflow: 'auto' }}>
          {JSON.stringify(event.createArgument, null, 2)}
        </Code>
        {event.contractKey !== null && event.contractKey !== undefined && (
          <>
            <Text size="sm" fw={600}>
              Contract key
            </Text>
            <Code block tabIndex={0}>
              {JSON.stringify(event.contractKey, null, 2)}
            </Code>
          </>
        )}
      </Stack>
    </SectionCard>
  );
}

function ArchivedSection({
  archived,
  links,
}: {
  archived: ContractArchived;
  links: ContractEventLinks;
}) {
  const event = archived.archivedEvent;
  return (
    <SectionCard title="Archived">
      <PropertyList
        items={[
          ...eventPlace(event, links, 'Open the transaction that archived it'),
          { label: 'Witnesses', value: <PartyList parties={event.witnessParties} /> },
        ]}
      />
    </SectionCard>
  );
}

/** Where an event happened: its offset, and a link (`linkText`) to its node in its transaction. */
function eventPlace(
  event: { offset: number; nodeId: number },
  links: ContractEventLinks,
  linkText: string,
): Property[] {
  return [
    { label: 'Offset', value: String(event.offset) },
    {
      label: 'Transaction',
      value: (
        <TransactionLink offset={event.offset} nodeId={event.nodeId} links={links}>
          {linkText}
        </TransactionLink>
      ),
    },
  ];
}

/** The events name their offset; the viewer opens an update by offset, so none is looked up here. */
function TransactionLink({
  offset,
  nodeId,
  links,
  children,
}: {
  offset: number;
  nodeId: number;
  links: ContractEventLinks;
  children: string;
}) {
  return (
    <Anchor component={Link} to={links.nodeAtOffset(offset, nodeId)} size="sm">
      {children}
    </Anchor>
  );
}
