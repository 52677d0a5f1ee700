import { Alert, Anchor, Badge, Code, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { eventQueries, type ContractArchived, type ContractCreated } from '@/api/events';
import { isEmptyScope, updateQueries, type ReadScope } from '@/api/updates';
import { Identifier } from '@/components/identifier';
import { PropertyList, type Property } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { describeError } from '@/lib/api-error';
import { parseIdentifier } from '@/lib/transaction-tree/model';
import type { TransactionLinks } from './transaction-links';
import { useReadScope } from './use-read-scope';

export type ContractEventsProps = {
  contractId: string;
  links: TransactionLinks;
};

/**
 * A contract's create and, if it is archived, its archive (`events-by-contract-id`), each linking
 * to its node in the transaction that made it.
 */
export function ContractEvents({ contractId, links }: ContractEventsProps) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) {
    return (
      <Alert color="yellow" title="You cannot read any contracts">
        Reading a contract's events needs a CanReadAs or CanActAs right for one of its stakeholders.
      </Alert>
    );
  }
  return <ContractEventsOf contractId={contractId} scope={scope} links={links} />;
}

function ContractEventsOf({
  contractId,
  scope,
  links,
}: {
  contractId: string;
  scope: ReadScope;
  links: TransactionLinks;
}) {
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
      </Group>
      {created && <CreatedSection created={created} scope={scope} links={links} />}
      {archived && <ArchivedSection archived={archived} scope={scope} links={links} />}
    </Stack>
  );
}

function CreatedSection({
  created,
  scope,
  links,
}: {
  created: ContractCreated;
  scope: ReadScope;
  links: TransactionLinks;
}) {
  const event = created.createdEvent;
  const items: Property[] = [
    { label: 'Template id', value: <MonoText value={event.templateId} /> },
    { label: 'Offset', value: String(event.offset) },
    {
      label: 'Transaction',
      value: (
        <TransactionLink offset={event.offset} nodeId={event.nodeId} scope={scope} links={links}>
          Open the transaction that created it
        </TransactionLink>
      ),
    },
    { label: 'Created at', value: event.createdAt },
    { label: 'Signatories', value: <Parties parties={event.signatories} /> },
    { label: 'Observers', value: <Parties parties={event.observers ?? []} /> },
    { label: 'Witnesses', value: <Parties parties={event.witnessParties} /> },
    {
      label: 'Synchronizer',
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
  scope,
  links,
}: {
  archived: ContractArchived;
  scope: ReadScope;
  links: TransactionLinks;
}) {
  const event = archived.archivedEvent;
  return (
    <SectionCard title="Archived">
      <PropertyList
        items={[
          { label: 'Offset', value: String(event.offset) },
          {
            label: 'Transaction',
            value: (
              <TransactionLink
                offset={event.offset}
                nodeId={event.nodeId}
                scope={scope}
                links={links}
              >
                Open the transaction that archived it
              </TransactionLink>
            ),
          },
          { label: 'Witnesses', value: <Parties parties={event.witnessParties} /> },
        ]}
      />
    </SectionCard>
  );
}

/**
 * The events name their offset, the viewer's links an update id: the update at that offset is
 * looked up for it (and is then cached for the viewer).
 */
function TransactionLink({
  offset,
  nodeId,
  scope,
  links,
  children,
}: {
  offset: number;
  nodeId: number;
  scope: ReadScope;
  links: TransactionLinks;
  children: string;
}) {
  const tree = useQuery(updateQueries.tree({ offset }, scope));
  if (tree.data) {
    return (
      <Anchor component={Link} to={links.node(tree.data.updateId, nodeId)} size="sm">
        {children}
      </Anchor>
    );
  }
  if (tree.isError) {
    return (
      <Text size="sm" c="red">
        {describeError(tree.error).message}
      </Text>
    );
  }
  return <Loader size="xs" aria-label="Looking up the transaction" />;
}

function MonoText({ value }: { value: string }) {
  return (
    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
      {value}
    </Text>
  );
}

function Parties({ parties }: { parties: readonly string[] }) {
  if (parties.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None
      </Text>
    );
  }
  return (
    <Stack gap={2}>
      {parties.map((party) => (
        <Identifier key={party} value={party} label="party id" kind="party" />
      ))}
    </Stack>
  );
}
