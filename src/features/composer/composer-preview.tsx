import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useId, type ReactNode, type RefObject } from 'react';
import type { Executed, Prepared, PreparedHiddenNode } from '@/api/interactive-submission';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { Identifier } from '@/components/identifier';
import { PropertyList } from '@/components/property-list';
import type { CopyAsCommands } from '@/lib/text/copy-as';
import { formatTrafficCost, shortenIdentifier } from '@/lib/text/format';
import type { TreeComparison } from '@/lib/transaction-tree/compare-trees';
import { parseIdentifier, type TransactionTree } from '@/lib/transaction-tree/model';
import type { CommitRoute } from './composer-signing';
import { SignAndExecute } from './sign-and-execute';
import { buttonBusy } from '@/components/form/button-busy';

export type ComposerPreviewProps = {
  prepared: Prepared;
  route: CommitRoute;
  /** The form no longer holds what was previewed. */
  isChanged: boolean;
  headingRef: RefObject<HTMLHeadingElement | null>;
  renderTree: (tree: TransactionTree) => ReactNode;
  copyPrepareAs: () => CopyAsCommands;
  onCommit: () => void;
  isCommitting: boolean;
  onExecuted: (executed: Executed) => void;
  onPreviewAgain: () => void;
};

const templateName = (templateId: string) => parseIdentifier(templateId)?.entityName ?? templateId;

const schemeName = (scheme: string) => scheme.replace('HASHING_SCHEME_VERSION_', '');

/**
 * What Preview prepared, decoded in the browser from the bytes that would be executed: the graph
 * and outline of a committed transaction, the hash (recomputed here and compared with the
 * participant's), the cost estimation, the input contracts; then Commit, or Sign and execute for
 * external parties.
 */
export function ComposerPreview({
  prepared,
  route,
  isChanged,
  headingRef,
  renderTree,
  copyPrepareAs,
  onCommit,
  isCommitting,
  onExecuted,
  onPreviewAgain,
}: ComposerPreviewProps) {
  const titleId = useId();
  const { preview, response } = prepared;
  const { hash, metadata } = preview;
  const cost = response.costEstimation;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} size="h4" id={titleId} ref={headingRef} tabIndex={-1}>
            Preview
          </Title>
          <CopyAsMenu label="Copy prepare as…" commands={copyPrepareAs} />
        </Group>
        <Text size="sm" c="dimmed">
          Prepared, not committed: decoded in this browser from the transaction the participant
          prepared.
        </Text>
        {isChanged && (
          <Alert color="yellow" variant="light" title="The form changed since this preview">
            <Group justify="space-between">
              <Text size="sm">
                Commit sends what was previewed. Preview again to see the change.
              </Text>
              <Button size="xs" variant="default" onClick={onPreviewAgain}>
                Preview again
              </Button>
            </Group>
          </Alert>
        )}
        <PropertyList
          items={[
            {
              label: 'Hash',
              value: (
                <Stack gap={4}>
                  <Group gap="xs">
                    {hash.isMatching ? (
                      <Badge color="teal" variant="light" tt="none">
                        Matching: recomputed in this browser
                      </Badge>
                    ) : (
                      <Badge color="red" variant="light" tt="none">
                        Not matching the recomputed hash
                      </Badge>
                    )}
                    <Text size="sm">Hashing scheme {schemeName(hash.scheme)}</Text>
                  </Group>
                  {hash.problem && (
                    <Text size="sm" c="dimmed">
                      {hash.problem}
                    </Text>
                  )}
                </Stack>
              ),
            },
            {
              label: 'Hash (hex)',
              value: <Identifier value={hash.hex} label="hash in hex" isShortened={false} />,
            },
            {
              label: 'Hash (base64)',
              value: <Identifier value={hash.base64} label="hash in base64" isShortened={false} />,
            },
            ...(cost
              ? [
                  {
                    label: 'Cost estimation',
                    value: (
                      <Text size="sm">
                        {formatTrafficCost(cost.totalTrafficCostEstimation)} of traffic (request{' '}
                        {formatTrafficCost(cost.confirmationRequestTrafficCostEstimation)}, response{' '}
                        {formatTrafficCost(cost.confirmationResponseTrafficCostEstimation)})
                      </Text>
                    ),
                  },
                ]
              : []),
            {
              label: 'Synchronizer',
              value: <Identifier value={metadata.synchronizerId} label="synchronizer id" />,
            },
            { label: 'Prepared at', value: <Text size="sm">{metadata.preparationTime}</Text> },
            ...(metadata.minLedgerEffectiveTime || metadata.maxLedgerEffectiveTime
              ? [
                  {
                    label: 'Ledger time bounds',
                    value: (
                      <Text size="sm">
                        {metadata.minLedgerEffectiveTime ?? '…'} to{' '}
                        {metadata.maxLedgerEffectiveTime ?? '…'}
                      </Text>
                    ),
                  },
                ]
              : []),
          ]}
        />
        <InputContracts prepared={prepared} />
        <HiddenNodes hidden={preview.hidden} />
        {renderTree(preview.tree)}
        <CommitSection
          prepared={prepared}
          route={route}
          onCommit={onCommit}
          isCommitting={isCommitting}
          onExecuted={onExecuted}
          onPreviewAgain={onPreviewAgain}
        />
      </Stack>
    </Card>
  );
}

function CommitSection({
  prepared,
  route,
  onCommit,
  isCommitting,
  onExecuted,
  onPreviewAgain,
}: Pick<
  ComposerPreviewProps,
  'prepared' | 'route' | 'onCommit' | 'isCommitting' | 'onExecuted' | 'onPreviewAgain'
>) {
  const titleId = useId();
  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Title order={3} size="h5" id={titleId}>
        {route.kind === 'execute' ? 'Sign and execute' : 'Commit'}
      </Title>
      {route.kind === 'submit' && (
        <>
          <Text size="sm">
            The Act as parties are local: the participant signs for them. Commit submits the
            previewed commands, then compares what is committed with this preview.
          </Text>
          <Group>
            <Button onClick={onCommit} loading={buttonBusy(isCommitting)}>
              Commit
            </Button>
          </Group>
        </>
      )}
      {route.kind === 'execute' && (
        <SignAndExecute
          prepared={prepared}
          signers={route.signers}
          onExecuted={onExecuted}
          onPreviewAgain={onPreviewAgain}
        />
      )}
      {route.kind === 'mixed' && (
        <Alert color="yellow" variant="light" title="Cannot be committed as it is">
          <Text size="sm">
            {route.external.map(shortenIdentifier).join(', ')}{' '}
            {route.external.length === 1 ? 'is' : 'are'} external and must sign;{' '}
            {route.local.map(shortenIdentifier).join(', ')} cannot sign here. Act as the external
            parties only, or the local ones only.
          </Text>
        </Alert>
      )}
    </Stack>
  );
}

function InputContracts({ prepared }: { prepared: Prepared }) {
  const { inputContracts } = prepared.preview;
  if (inputContracts.length === 0) return null;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Input contracts
      </Text>
      {inputContracts.map((input) => (
        <Group key={input.contractId} gap="sm" wrap="wrap">
          <Text size="sm">{templateName(input.templateId)}</Text>
          <Identifier value={input.contractId} label="input contract id" kind="contract" />
          <Text size="sm" c="dimmed">
            signed by {input.signatories.map(shortenIdentifier).join(', ')}, created{' '}
            {input.createdAt}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

function HiddenNodes({ hidden }: { hidden: readonly PreparedHiddenNode[] }) {
  if (hidden.length === 0) return null;
  const fetches = hidden.filter((node) => node.kind === 'fetch');
  const rollbacks = hidden.filter((node) => node.kind === 'rollback');
  return (
    <Text size="sm" c="dimmed">
      Not drawn, as a committed transaction does not show them:{' '}
      {[
        ...fetches.map(
          (node) =>
            `a fetch of ${templateName(node.templateId)} ${shortenIdentifier(node.contractId)} (node ${String(node.nodeId)})`,
        ),
        ...rollbacks.map(
          (node) =>
            `a rolled-back part of ${String(node.descendantCount)} node${node.descendantCount === 1 ? '' : 's'} (node ${String(node.nodeId)})`,
        ),
      ].join('; ')}
      .
    </Text>
  );
}

export type CommitComparisonProps = {
  comparison: TreeComparison;
  /** For an execute: the committed transaction's external hash and the prepared one (hex). */
  externalTransactionHash?: string | null;
  preparedHashHex?: string;
};

/** After a commit from a preview: whether what was committed is what was previewed. */
export function CommitComparison({
  comparison,
  externalTransactionHash,
  preparedHashHex,
}: CommitComparisonProps) {
  const hasHash = preparedHashHex !== undefined;
  const isHashEqual = hasHash && externalTransactionHash === preparedHashHex;
  return (
    <Alert
      color={comparison.isSame && (!hasHash || isHashEqual) ? 'teal' : 'red'}
      variant="light"
      title={
        comparison.isSame
          ? 'The committed transaction is what was previewed'
          : 'The committed transaction differs from the preview'
      }
    >
      <Stack gap="xs">
        <Text size="sm">
          {String(comparison.comparedCount)} node{comparison.comparedCount === 1 ? '' : 's'}{' '}
          compared: templates, choices, arguments and parties
          {comparison.isSame ? ' agree.' : '.'}
        </Text>
        {hasHash && (
          <Text size="sm">
            {isHashEqual
              ? 'Its external transaction hash equals the prepared hash: '
              : 'Its external transaction hash is not the prepared hash: '}
            <Text span ff="monospace" size="sm">
              {externalTransactionHash ?? 'none'}
            </Text>
          </Text>
        )}
        {comparison.differences.length > 0 && (
          <Stack gap={2} component="ul" style={{ margin: 0, paddingLeft: '1.2em' }}>
            {comparison.differences.map((difference, index) => (
              <Text
                component="li"
                size="sm"
                key={`${String(difference.preparedNodeId)}-${String(difference.committedNodeId)}-${String(index)}`}
              >
                {difference.node}: {difference.what}
                {difference.prepared !== undefined &&
                  ` (previewed ${difference.prepared}, committed ${difference.committed ?? ''})`}
              </Text>
            ))}
            {comparison.differenceCount > comparison.differences.length && (
              <Text component="li" size="sm">
                and {String(comparison.differenceCount - comparison.differences.length)} more
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Alert>
  );
}
