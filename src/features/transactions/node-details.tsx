import { Anchor, Badge, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router';
import { Identifier } from '@/components/identifier';
import { PropertyList, type Property } from '@/components/property-list';
import { revealBidiControls } from '@/lib/text/display-text';
import {
  describeNode,
  type NodeId,
  type TransactionTree,
  type TreeNode,
} from '@/lib/transaction-tree/model';
import type { TransactionLinks } from './transaction-links';
import { PartyList } from './party-list';

export type NodeDetailsProps = {
  tree: TransactionTree;
  node: TreeNode;
  links: TransactionLinks;
  onSelectNode: (id: NodeId) => void;
};

/** Everything the event says: ids with copy and links, parties, arguments and result as JSON. */
export function NodeDetails({ tree, node, links, onSelectNode }: NodeDetailsProps) {
  const titleId = useId();
  const items: Property[] = [
    {
      label: 'Node id',
      value: (
        <Group gap="sm">
          <Text size="sm">{node.nodeId}</Text>
          <Anchor component={Link} to={links.node(tree.updateId, node.nodeId)} size="sm">
            Link to this node
          </Anchor>
        </Group>
      ),
    },
    {
      label: 'Contract id',
      value: <Identifier value={node.contractId} label="contract id" kind="contract" />,
    },
    {
      label: 'Template id',
      value: <Identifier value={node.templateId} label="template id" shape="qualified-name" />,
    },
  ];
  if (node.template) {
    items.push({
      label: 'Package',
      value: node.template.packageRef.startsWith('#') ? (
        <Text size="sm">{node.template.packageRef}</Text>
      ) : (
        <Identifier value={node.template.packageRef} label="package id" kind="package" />
      ),
    });
  }
  if (node.packageName) items.push({ label: 'Package name', value: node.packageName });

  switch (node.kind) {
    case 'exercised':
      items.push(
        { label: 'Choice', value: node.choice },
        {
          label: 'Consuming',
          value: node.consuming ? 'Yes: archives the contract' : 'No',
        },
      );
      if (node.interfaceId) {
        items.push({
          label: 'Interface id',
          value: (
            <Identifier value={node.interfaceId} label="interface id" shape="qualified-name" />
          ),
        });
      }
      items.push({ label: 'Acting parties', value: <PartyList parties={node.actingParties} /> });
      if (node.createdBy !== null) {
        items.push({
          label: 'Created by',
          value: <NodeButton id={node.createdBy} tree={tree} onSelectNode={onSelectNode} />,
        });
      }
      break;
    case 'created':
      items.push(
        { label: 'Signatories', value: <PartyList parties={node.signatories} /> },
        { label: 'Observers', value: <PartyList parties={node.observers} /> },
      );
      if (node.createdAt) items.push({ label: 'Created at', value: node.createdAt });
      if (node.consumedBy !== null) {
        items.push({
          label: 'Archived by',
          value: <NodeButton id={node.consumedBy} tree={tree} onSelectNode={onSelectNode} />,
        });
      }
      break;
    case 'archived':
      if (node.createdBy !== null) {
        items.push({
          label: 'Created by',
          value: <NodeButton id={node.createdBy} tree={tree} onSelectNode={onSelectNode} />,
        });
      }
      break;
  }
  items.push({ label: 'Witnesses', value: <PartyList parties={node.witnessParties} /> });
  if (node.acsDelta !== null) {
    items.push({ label: 'In the ACS delta', value: node.acsDelta ? 'Yes' : 'No' });
  }

  return (
    <Stack gap="md" component="section" aria-labelledby={titleId}>
      <Group gap="sm">
        <Title order={3} size="h5" id={titleId}>
          {describeNode(node)}
        </Title>
        {node.kind === 'created' && node.consumedBy !== null && (
          <Badge color="red" variant="light">
            Archived in this transaction
          </Badge>
        )}
        {node.kind === 'exercised' && (
          <Badge color={node.consuming ? 'red' : 'gray'} variant="light">
            {node.consuming ? 'Consuming' : 'Non-consuming'}
          </Badge>
        )}
      </Group>
      <PropertyList items={items} />
      {node.kind === 'created' && (
        <>
          <JsonBlock title="Create arguments" value={node.createArgument} />
          {node.contractKey !== null && node.contractKey !== undefined && (
            <JsonBlock title="Contract key" value={node.contractKey} />
          )}
        </>
      )}
      {node.kind === 'exercised' && (
        <>
          <JsonBlock title="Choice argument" value={node.choiceArgument} />
          <JsonBlock title="Exercise result" value={node.exerciseResult} />
        </>
      )}
    </Stack>
  );
}

function NodeButton({
  id,
  tree,
  onSelectNode,
}: {
  id: NodeId;
  tree: TransactionTree;
  onSelectNode: (id: NodeId) => void;
}) {
  const node = tree.nodes.get(id);
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      onClick={() => {
        onSelectNode(id);
      }}
    >
      {node ? `${describeNode(node)} (node ${String(id)})` : `Node ${String(id)}`}
    </Button>
  );
}

function JsonBlock({ title, value }: { title: string; value: unknown }) {
  // JSON escapes control characters but not bidi overrides: show those, or a Text value could
  // reorder the lines around it.
  const text =
    value === undefined ? 'Not given' : revealBidiControls(JSON.stringify(value, null, 2));
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <Code block style={{ maxHeight: 320, overflow: 'auto' }} tabIndex={0}>
        {text}
      </Code>
    </Stack>
  );
}
