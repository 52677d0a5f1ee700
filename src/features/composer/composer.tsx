import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { commandMutations, type JsCommands, type SubmitResult } from '@/api/commands';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { notify } from '@/components/feedback/notify';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { Identifier } from '@/components/identifier';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { submitterScope } from './composer-access';
import { clearDraft, hasUnsentChanges, readDraft, writeDraft } from './composer-draft';
import { composerErrorField } from './composer-error-field';
import { fromJsCommands, toJsCommands } from './composer-form-mappers';
import {
  composerSchema,
  emptyCommand,
  emptyComposerValues,
  newCommandId,
  type ComposerValues,
} from './composer-form-schema';
import { ComposerForm } from './composer-form';
import {
  historyEntryFor,
  recentContracts,
  recentTemplateIds,
  useComposerHistory,
} from './composer-history';
import { ComposerHistory } from './composer-history-list';
import { useTemplateCatalog } from './template-catalog';

export type ComposerLinks = {
  /** The transaction viewer at an update. */
  transaction: (updateId: string) => string;
};

export type ComposerProps = {
  links: ComposerLinks;
  /** Draws a submission's tree (the page passes the transaction view). */
  renderTree: (tree: TransactionTree) => ReactNode;
  /** A new tree is shown: the page may reset its node selection. */
  onResult?: () => void;
};

type Shown = SubmitResult & { request: JsCommands };

/**
 * The command composer: a batch of commands submitted and waited for, the tree it made, and a
 * local history of submissions to re-run, edit or copy as curl.
 */
export function Composer({ links, renderTree, onResult }: ComposerProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const scope = submitterScope(caller);
  const catalog = useTemplateCatalog();
  const { data: participantId } = useSuspenseQuery(participantQueries.participantId());
  const history = useComposerHistory(participantId);
  const [shown, setShown] = useState<Shown>();

  const schema = useMemo(
    () => composerSchema({ userIdRequired: scope.userIdRequired }),
    [scope.userIdRequired],
  );
  const emptyValues = () =>
    emptyComposerValues({
      ...(scope.userId ? { userId: scope.userId } : {}),
      ...(scope.actAs.kind === 'only' && scope.actAs.parties.length === 1
        ? { actAs: [...scope.actAs.parties] }
        : {}),
    });
  // What the form was last loaded with or successfully sent: work beyond it is the unsent draft.
  const [initialValues] = useState(emptyValues);
  const baseline = useRef(initialValues);
  const [restoredDraft] = useState(() => readDraft(scope.userId));
  const [isDraftNoticeShown, setDraftNoticeShown] = useState(restoredDraft !== undefined);
  const form = useForm<ComposerValues>({
    resolver: zodResolver(schema),
    defaultValues: restoredDraft ?? initialValues,
  });

  const draftUserId = scope.userId;
  // Every change: the unsent work into sessionStorage, or nothing once it is all sent.
  useEffect(
    () =>
      form.subscribe({
        formState: { values: true },
        callback: () => {
          const values = form.getValues();
          if (hasUnsentChanges(values, baseline.current)) writeDraft(draftUserId, values);
          else clearDraft(draftUserId);
        },
      }),
    [form, draftUserId],
  );

  /** Puts `values` in the form as the new starting point (nothing unsent). */
  const load = (values: ComposerValues) => {
    baseline.current = values;
    form.reset(values);
    clearDraft(draftUserId);
    setDraftNoticeShown(false);
  };

  /** Loads `values`, after asking first when that would throw away unsent work. */
  const replaceDraft = (values: ComposerValues, onLoaded?: () => void) => {
    const apply = () => {
      load(values);
      onLoaded?.();
    };
    if (hasUnsentChanges(form.getValues(), baseline.current)) {
      confirmDanger({
        title: 'Replace the unsent commands?',
        body: 'The form holds commands that were not submitted. Loading this replaces them.',
        confirmLabel: 'Replace them',
        onConfirm: apply,
      });
    } else {
      apply();
    }
  };

  const show = (result: SubmitResult, request: JsCommands) => {
    setShown({ ...result, request });
    history.add(historyEntryFor(request, result.tree, Date.now()));
    onResult?.();
  };

  const submit = useFormMutation(
    form,
    {
      ...commandMutations.submit(),
      // Here, not in mutate's own callback, which does not run once the page is left: a command
      // sent while the user walked away must not come back as an unsent draft.
      onSuccess: (_result, request) => {
        if (readDraft(draftUserId)?.commandId === request.commandId) clearDraft(draftUserId);
      },
    },
    {},
    (error) => composerErrorField(error, form.getValues(), scope.userId),
  );
  // Re-running from the history is a one-click action: its failure is a toast.
  const submitOptions = commandMutations.submit();
  const rerun = useMutation({
    ...submitOptions,
    meta: { ...submitOptions.meta, errorDisplay: 'toast' },
  });

  const handleSubmit = (values: ComposerValues) => {
    const request = toJsCommands(values);
    submit.mutate(request, {
      onSuccess: (result) => {
        show(result, request);
        // Sent: nothing left to lose. The same command id again would be refused as a duplicate.
        baseline.current = values;
        setDraftNoticeShown(false);
        form.setValue('commandId', newCommandId());
      },
    });
  };

  const exerciseOn = (contractId: string, templateId: string) => {
    replaceDraft({
      ...form.getValues(),
      commandId: newCommandId(),
      commands: [{ ...emptyCommand('exercise'), templateId, contractId }],
    });
  };

  const recentTemplates = recentTemplateIds(history.entries);
  const contracts = recentContracts(history.entries);

  return (
    <Stack gap="lg">
      {isDraftNoticeShown && (
        <Alert color="blue" title="Unsent draft restored">
          <Group justify="space-between">
            <Text size="sm">The commands you had not submitted are back in the form.</Text>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                load({ ...emptyValues(), commandId: newCommandId() });
              }}
            >
              Discard the draft
            </Button>
          </Group>
        </Alert>
      )}
      <ComposerForm
        form={form}
        scope={scope}
        catalog={catalog}
        recentTemplateIds={recentTemplates}
        recentContracts={contracts}
        onSubmit={handleSubmit}
        isSubmitting={submit.isPending}
        submitError={submit.error}
      />
      {shown && (
        <SectionCard title="Result">
          <Stack gap="md">
            <PropertyList
              items={[
                {
                  label: 'Update id',
                  value: <Identifier value={shown.tree.updateId} label="update id" kind="update" />,
                },
                { label: 'Offset', value: String(shown.tree.offset) },
                {
                  label: 'Submitted through',
                  value: (
                    <Group gap="xs">
                      <Text size="sm" ff="monospace">
                        {shown.endpoint === 'transaction-tree'
                          ? 'submit-and-wait-for-transaction-tree'
                          : 'submit-and-wait-for-transaction'}
                      </Text>
                      {shown.endpoint === 'transaction' && (
                        <Badge variant="light" color="gray" tt="none">
                          tree endpoint not offered
                        </Badge>
                      )}
                    </Group>
                  ),
                },
              ]}
            />
            <Group>
              <Anchor component={Link} to={links.transaction(shown.tree.updateId)}>
                Open in the transaction viewer
              </Anchor>
            </Group>
            <CreatedContracts tree={shown.tree} onExercise={exerciseOn} />
            {renderTree(shown.tree)}
          </Stack>
        </SectionCard>
      )}
      <ComposerHistory
        entries={history.entries}
        links={links}
        isRerunning={rerun.isPending}
        onRerun={(entry) => {
          const request = { ...entry.request, commandId: newCommandId() };
          rerun.mutate(request, {
            onSuccess: (result) => {
              show(result, request);
              notify.success(`Submitted again as update at offset ${String(result.tree.offset)}`);
            },
          });
        }}
        onEdit={(entry) => {
          replaceDraft(fromJsCommands(entry.request, newCommandId()), () => {
            notify.success('Loaded into the form with a new command id');
          });
        }}
        onRemove={history.remove}
        onClear={history.clear}
      />
    </Stack>
  );
}

function CreatedContracts({
  tree,
  onExercise,
}: {
  tree: TransactionTree;
  onExercise: (contractId: string, templateId: string) => void;
}) {
  const active = tree.order
    .map((id) => tree.nodes.get(id))
    .filter((node) => node?.kind === 'created' && node.consumedBy === null);
  if (active.length === 0) return null;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Contracts created
      </Text>
      {active.map((node) =>
        node ? (
          <Group key={node.nodeId} gap="sm" wrap="nowrap">
            <Text size="sm">{node.template?.entityName ?? node.templateId}</Text>
            <Identifier value={node.contractId} label="contract id" kind="contract" />
            <Button
              size="xs"
              variant="light"
              onClick={() => {
                onExercise(node.contractId, node.templateId);
              }}
              aria-label={`Exercise a choice on ${node.template?.entityName ?? 'contract'} ${String(node.nodeId)}`}
            >
              Exercise a choice on it
            </Button>
          </Group>
        ) : null,
      )}
    </Stack>
  );
}
