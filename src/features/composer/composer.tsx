import { Alert, Stack, Text } from '@mantine/core';
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { commandMutations } from '@/api/commands';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { notify } from '@/components/feedback/notify';
import { accessOf } from '@/lib/access/access-rights';
import type { SubmitterAccess } from './command-error-fixes';
import { shortenIdentifier } from '@/lib/text/format';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { submitterScope, type PartyScope } from './composer-access';
import { readDraft } from './composer-draft';
import {
  fromJsCommands,
  requestTemplateIds,
  templateIdInChosenForm,
} from './composer-form-mappers';
import {
  emptyCommand,
  emptyComposerValues,
  newCommandId,
  type ComposerValues,
} from './composer-form-schema';
import {
  historyEntryFor,
  recentContracts,
  recentTemplateIds,
  useComposerHistory,
} from './composer-history';
import { ComposerHistory } from './composer-history-list';
import {
  ComposerSubmission,
  type ComposerSubmissionLinks,
  type Shown,
} from './composer-submission';
import { useTemplateCatalog } from '@/hooks/template-catalog';

export type ComposerLinks = ComposerSubmissionLinks;

export type ComposerProps = {
  links: ComposerLinks;
  /**
   * Draws a submission's tree (the page passes the transaction view). `isCurrent`: the newest
   * result, whose selected node the page keeps in the URL.
   */
  renderTree: (tree: TransactionTree, isCurrent: boolean) => ReactNode;
  /** A new tree is shown: the page may reset its node selection. */
  onResult?: () => void;
  /**
   * Opens with an exercise on this contract (from the active contracts or a contract page): the
   * template's choices are offered, nothing else is typed. Takes the place of a saved draft.
   */
  exercise?: { contractId: string; templateId: string };
};

/** At most this many submissions stay open; the oldest close first (the history keeps them). */
export const MAX_OPEN_SUBMISSIONS = 10;

type Slot = {
  key: number;
  initialValues: ComposerValues;
  /** What counts as nothing typed yet: a restored draft's is the empty form, not the draft. */
  baselineValues: ComposerValues;
  initialResult?: Shown;
  isFollowUp: boolean;
  isRestoredDraft: boolean;
  subtitle?: string;
};

const exerciseSubtitle = (templateId: string, contractId: string) =>
  `Exercise a choice on ${templateId.split(':').at(-1) ?? 'the contract'} ${shortenIdentifier(contractId)}`;

const scopeParties = (scope: PartyScope) => (scope.kind === 'any' ? 'any' : scope.parties);

/**
 * The command composer: submissions, each with its form and the tree it made, one below the other
 * (a follow-up such as "Exercise a choice on it" opens a new one instead of rewriting the form
 * above), and a local history of submissions to re-run, edit or copy as curl.
 */
export function Composer({ links, renderTree, onResult, exercise }: ComposerProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const scope = submitterScope(caller);
  const access: SubmitterAccess = {
    actAs: scopeParties(scope.actAs),
    readAs: scopeParties(scope.readAs),
    userId: scope.userId,
    canGrantPartyRights: caller.kind === 'user' && accessOf(caller).canGrant('CanActAs'),
  };
  const identityProviderId = caller.kind === 'user' ? caller.identityProviderId : '';
  const catalog = useTemplateCatalog();
  const { data: participantId } = useSuspenseQuery(participantQueries.participantId());
  const history = useComposerHistory(participantId);

  const emptyValues = () =>
    emptyComposerValues({
      ...(scope.userId ? { userId: scope.userId } : {}),
      ...(scope.actAs.kind === 'only' && scope.actAs.parties.length === 1
        ? { actAs: [...scope.actAs.parties] }
        : {}),
    });

  const [{ slots, closedCount }, setOpen] = useState<{ slots: Slot[]; closedCount: number }>(() => {
    if (exercise) {
      const prefilled = {
        ...emptyValues(),
        commands: [{ ...emptyCommand('exercise'), ...exercise }],
      };
      return {
        slots: [
          {
            key: 0,
            initialValues: prefilled,
            baselineValues: prefilled,
            isFollowUp: false,
            isRestoredDraft: false,
            subtitle: exerciseSubtitle(exercise.templateId, exercise.contractId),
          },
        ],
        closedCount: 0,
      };
    }
    const restored = readDraft(scope.userId);
    const empty = emptyValues();
    return {
      slots: [
        {
          key: 0,
          initialValues: restored ?? empty,
          baselineValues: empty,
          isFollowUp: false,
          isRestoredDraft: restored !== undefined,
        },
      ],
      closedCount: 0,
    };
  });
  const nextKey = useRef(1);
  const [currentResultKey, setCurrentResultKey] = useState<number>();
  const pristine = useRef(new Map<number, () => boolean>());
  const registerPristine = useCallback((key: number, check: (() => boolean) | undefined) => {
    if (check) pristine.current.set(key, check);
    else pristine.current.delete(key);
  }, []);

  /**
   * Opens a submission below the others. An untouched newest one (nothing typed, nothing sent) is
   * replaced rather than left empty above it.
   */
  const open = (slot: Omit<Slot, 'key' | 'isRestoredDraft' | 'baselineValues'>) => {
    const key = nextKey.current++;
    setOpen((current) => {
      const last = current.slots.at(-1);
      const kept =
        last && pristine.current.get(last.key)?.() === true
          ? current.slots.slice(0, -1)
          : current.slots;
      const next = [
        ...kept,
        { ...slot, key, baselineValues: slot.initialValues, isRestoredDraft: false },
      ];
      const overflow = Math.max(0, next.length - MAX_OPEN_SUBMISSIONS);
      return { slots: next.slice(overflow), closedCount: current.closedCount + overflow };
    });
    return key;
  };

  const close = (key: number) => {
    const freshKey = nextKey.current++;
    setOpen((current) => {
      const remaining = current.slots.filter((slot) => slot.key !== key);
      if (remaining.length > 0) return { ...current, slots: remaining };
      const empty = emptyValues();
      const fresh = {
        key: freshKey,
        initialValues: empty,
        baselineValues: empty,
        isFollowUp: false,
        isRestoredDraft: false,
      };
      return { ...current, slots: [fresh] };
    });
  };

  const record = (key: number, shown: Shown, submittedAt: number) => {
    history.add(historyEntryFor(shown.request, shown.tree, submittedAt));
    setCurrentResultKey(key);
    onResult?.();
  };

  /** A follow-up on a created contract: a new exercise, acting as the submission that made it. */
  const exerciseOn = (shown: Shown, contractId: string, resultTemplateId: string) => {
    const sent = fromJsCommands(shown.request, newCommandId());
    const templateId = templateIdInChosenForm(
      resultTemplateId,
      requestTemplateIds(shown.request),
      catalog.templates,
    );
    open({
      initialValues: {
        ...emptyValues(),
        actAs: sent.actAs,
        readAs: sent.readAs,
        userId: sent.userId,
        workflowId: sent.workflowId,
        commandId: newCommandId(),
        commands: [{ ...emptyCommand('exercise'), templateId, contractId }],
      },
      isFollowUp: true,
      subtitle: exerciseSubtitle(templateId, contractId),
    });
  };

  // Re-running from the history is a one-click action: its failure is a toast.
  const submitOptions = commandMutations.submit();
  const rerun = useMutation({
    ...submitOptions,
    meta: { ...submitOptions.meta, errorDisplay: 'toast' },
  });

  const recentTemplates = recentTemplateIds(history.entries);
  const contracts = recentContracts(history.entries);

  return (
    <Stack gap="xl">
      {closedCount > 0 && (
        <Alert color="gray" variant="light">
          <Text size="sm">
            {closedCount === 1
              ? 'The oldest submission was'
              : `${String(closedCount)} older submissions were`}{' '}
            closed to keep at most {String(MAX_OPEN_SUBMISSIONS)} open; the history below keeps what
            was sent.
          </Text>
        </Alert>
      )}
      {slots.map((slot, index) => (
        <ComposerSubmission
          key={slot.key}
          number={index + 1}
          isOneOfMany={slots.length > 1}
          isNewest={index === slots.length - 1}
          initialValues={slot.initialValues}
          baselineValues={slot.baselineValues}
          {...(slot.initialResult ? { initialResult: slot.initialResult } : {})}
          isFollowUp={slot.isFollowUp}
          {...(slot.subtitle ? { subtitle: slot.subtitle } : {})}
          isRestoredDraft={slot.isRestoredDraft}
          scope={scope}
          access={access}
          identityProviderId={identityProviderId}
          participantId={participantId}
          catalog={catalog}
          recentTemplateIds={recentTemplates}
          recentContracts={contracts}
          emptyValues={emptyValues}
          links={links}
          renderTree={renderTree}
          isCurrentResult={currentResultKey === slot.key}
          onResult={(shown, submittedAt) => {
            record(slot.key, shown, submittedAt);
          }}
          onExercise={exerciseOn}
          onClose={() => {
            const isPristine = pristine.current.get(slot.key)?.() ?? true;
            if (isPristine) {
              close(slot.key);
              return;
            }
            confirmDanger({
              title: `Close submission ${String(index + 1)}?`,
              body: 'Its form and result leave the page. What was sent stays in the history.',
              confirmLabel: 'Close it',
              onConfirm: () => {
                close(slot.key);
              },
            });
          }}
          registerPristine={(check) => {
            registerPristine(slot.key, check);
          }}
        />
      ))}
      <ComposerHistory
        entries={history.entries}
        links={links}
        isRerunning={rerun.isPending}
        onRerun={(entry) => {
          const request = { ...entry.request, commandId: newCommandId() };
          rerun.mutate(request, {
            onSuccess: (result) => {
              const shown = { ...result, request };
              const key = open({
                initialValues: fromJsCommands(request, newCommandId()),
                initialResult: shown,
                isFollowUp: true,
                subtitle: 'Run again from the history',
              });
              history.add(historyEntryFor(request, result.tree, Date.now()));
              setCurrentResultKey(key);
              onResult?.();
              notify.success(`Submitted again as update at offset ${String(result.tree.offset)}`);
            },
          });
        }}
        onEdit={(entry) => {
          open({
            initialValues: fromJsCommands(entry.request, newCommandId()),
            isFollowUp: true,
            subtitle: 'Edited from the history, with a new command id',
          });
        }}
        onRemove={history.remove}
        onClear={history.clear}
      />
    </Stack>
  );
}
