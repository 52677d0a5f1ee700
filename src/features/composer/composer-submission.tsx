import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  CloseButton,
  Grid,
  Group,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useId, useMemo, useRef, useState, useTransition, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { commandMutations, type JsCommands, type SubmitEndpoint } from '@/api/commands';
import {
  interactiveSubmissionMutations,
  type Executed,
  type Prepared,
} from '@/api/interactive-submission';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { Identifier } from '@/components/identifier';
import { PropertyList } from '@/components/property-list';
import { isApiError } from '@/lib/errors/api-error';
import { shortenIdentifier } from '@/lib/text/format';
import {
  classifyCommandFailure,
  type CommandFailure,
  type SubmitterAccess,
} from './command-error-fixes';
import { compareTrees } from '@/lib/transaction-tree/compare-trees';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import { CommandFailureAlert, type FailureLinks, type InFormFix } from './command-failure-alert';
import type { SubmitterScope } from './composer-access';
import { composerCopyAs, prepareCopyAs } from './composer-copy-as';
import { clearDraft, hasUnsentChanges, readDraft, writeDraft } from './composer-draft';
import { composerErrorField } from './composer-error-field';
import { toJsCommands } from './composer-form-mappers';
import { composerSchema, newCommandId, type ComposerValues } from './composer-form-schema';
import { ComposerForm } from './composer-form';
import { CommitComparison, ComposerPreview, type CommitComparisonProps } from './composer-preview';
import { commitRoute } from './composer-signing';
import classes from './composer.module.css';
import type { TemplateCatalog } from '@/hooks/template-catalog';

/** A submission's outcome, with the request that made it. */
export type Shown = {
  tree: TransactionTree;
  /** Submitted (through one of the submit endpoints), or executed after signing. */
  endpoint: SubmitEndpoint | 'execute';
  request: JsCommands;
  /** Committed from a preview: how the commit compares with it. */
  fromPreview?: CommitComparisonProps;
};

/** A preview on screen, with the form values it was prepared from. */
type Previewed = { prepared: Prepared; values: ComposerValues };

export type ComposerSubmissionLinks = FailureLinks & {
  /** The transaction viewer at an update. */
  transaction: (updateId: string) => string;
};

export type ComposerSubmissionProps = {
  /** 1-based, for its name ("Submission 2"). */
  number: number;
  /** More than one submission is open: each shows its heading and can be closed. */
  isOneOfMany: boolean;
  /** The newest one keeps its unsent work in the tab's draft (composer-draft.ts). */
  isNewest: boolean;
  initialValues: ComposerValues;
  /** What counts as nothing typed yet (a restored draft's is the empty form). */
  baselineValues: ComposerValues;
  /** A result it opens with (a history entry run again). */
  initialResult?: Shown;
  /** Opened by an action elsewhere: scrolled to and focused when it appears. */
  isFollowUp: boolean;
  /** What it was opened for, under its heading ("Exercise a choice on Iou 0012…"). */
  subtitle?: string;
  /** Its form was restored from the tab's draft: say so, and offer to discard it. */
  isRestoredDraft: boolean;
  scope: SubmitterScope;
  access: SubmitterAccess;
  identityProviderId: string;
  /** Tells local Act as parties (the participant signs) from external ones (they sign). */
  participantId: string;
  catalog: TemplateCatalog;
  recentTemplateIds: readonly string[];
  recentContracts: readonly { contractId: string; templateId: string }[];
  emptyValues: () => ComposerValues;
  links: ComposerSubmissionLinks;
  renderTree: (tree: TransactionTree, isCurrent: boolean) => ReactNode;
  /** Whether this submission's result is the one the page's node selection belongs to. */
  isCurrentResult: boolean;
  onResult: (shown: Shown, submittedAt: number) => void;
  onExercise: (shown: Shown, contractId: string, templateId: string) => void;
  onClose: () => void;
  /** Tells the list whether this submission holds nothing worth keeping (to be replaced). */
  registerPristine: (isPristine: (() => boolean) | undefined) => void;
};

/**
 * Whether the viewport shows the form and its result side by side: Mantine's `xl`, where the
 * result column is wide enough for the transaction's outline and graph next to each other.
 */
const isWide = () =>
  typeof window.matchMedia === 'function' && window.matchMedia('(min-width: 88em)').matches;

/** Brings `element` to the top of the viewport; jsdom has no scrollIntoView. */
function scrollToTop(element: HTMLElement | null) {
  if (element && typeof element.scrollIntoView === 'function') {
    element.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }
}

/**
 * One submission of the composer: its form on the left, its result on the right (stacked on
 * narrow screens, where the result is scrolled to after Submit). Follow-ups open another one below,
 * so this one and its result stay as they were.
 */
export function ComposerSubmission({
  number,
  isOneOfMany,
  isNewest,
  initialValues,
  baselineValues,
  initialResult,
  isFollowUp,
  subtitle,
  isRestoredDraft,
  scope,
  access,
  identityProviderId,
  participantId,
  catalog,
  recentTemplateIds,
  recentContracts,
  emptyValues,
  links,
  renderTree,
  isCurrentResult,
  onResult,
  onExercise,
  onClose,
  registerPristine,
}: ComposerSubmissionProps) {
  const headingId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const resultHeadingRef = useRef<HTMLHeadingElement>(null);
  const [shown, setShown] = useState<Shown | undefined>(initialResult);
  const [failure, setFailure] = useState<{ failure: CommandFailure; title: string }>();
  /** The failure in the user's terms, when it has one; else the form's root error stands alone. */
  const showFailure = (error: Error, values: ComposerValues, title: string) => {
    const classified = isApiError(error)
      ? classifyCommandFailure(error, values, access)
      : undefined;
    setFailure(classified ? { failure: classified, title } : undefined);
  };
  const [previewed, setPreviewed] = useState<Previewed>();
  const [isPreviewRendering, startPreviewTransition] = useTransition();
  const [isDraftNoticeShown, setDraftNoticeShown] = useState(isRestoredDraft);
  // Bumped on each new result, so the effect below moves the eye there once per result.
  const [resultSerial, setResultSerial] = useState(0);

  const schema = useMemo(
    () => composerSchema({ userIdRequired: scope.userIdRequired }),
    [scope.userIdRequired],
  );
  // What the form was last loaded with or successfully sent: work beyond it is unsent.
  const baseline = useRef(baselineValues);
  const form = useForm<ComposerValues>({
    resolver: zodResolver(schema),
    defaultValues: initialValues,
  });

  const draftUserId = scope.userId;
  // The newest submission's unsent work goes into sessionStorage on every change.
  useEffect(() => {
    if (!isNewest) return undefined;
    const save = () => {
      const values = form.getValues();
      if (hasUnsentChanges(values, baseline.current)) writeDraft(draftUserId, values);
      else clearDraft(draftUserId);
    };
    save();
    return form.subscribe({ formState: { values: true }, callback: save });
  }, [form, draftUserId, isNewest]);

  // A follow-up appears below what the user was reading: bring it into view.
  useEffect(() => {
    if (!isFollowUp) return;
    scrollToTop(sectionRef.current);
    headingRef.current?.focus({ preventScroll: true });
  }, [isFollowUp]);

  // A new result: on narrow screens it is below the form, so go there. Wide, it is beside it and
  // sticks to the top while the form scrolls — unless the form is shorter than the result, when
  // the column has no room to stick: then the least scroll that shows its heading.
  // In the next frame, not in this effect: scrolling needs the new result laid out, and laying it
  // out here would add that to the commit's task (issue 29: the Preview's longest task).
  useEffect(() => {
    if (resultSerial === 0) return;
    const frame = requestAnimationFrame(() => {
      const heading = resultHeadingRef.current;
      if (!isWide()) scrollToTop(heading);
      else if (heading && typeof heading.scrollIntoView === 'function') {
        heading.scrollIntoView({ block: 'nearest' });
      }
      heading?.focus({ preventScroll: true });
    });
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [resultSerial]);

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
    (error) => composerErrorField(error, form.getValues(), scope.userId, scope),
  );
  const prepare = useFormMutation(form, interactiveSubmissionMutations.prepare(), {}, (error) =>
    composerErrorField(error, form.getValues(), scope.userId, scope),
  );
  const watched = useWatch({ control: form.control });
  const isPreviewChanged =
    previewed !== undefined && JSON.stringify(watched) !== JSON.stringify(previewed.values);
  const isSubmitting = submit.isPending;
  useEffect(() => {
    registerPristine(
      () =>
        shown === undefined &&
        previewed === undefined &&
        !isSubmitting &&
        !hasUnsentChanges(form.getValues(), baseline.current),
    );
    return () => {
      registerPristine(undefined);
    };
  }, [registerPristine, shown, previewed, form, isSubmitting]);

  /** A commit is on screen: the result, the form ready for the next one with a new command id. */
  const showCommitted = (next: Shown, values: ComposerValues) => {
    setShown(next);
    setPreviewed(undefined);
    setResultSerial((serial) => serial + 1);
    onResult(next, Date.now());
    // Sent: nothing left to lose. The same command id again would be refused as a duplicate.
    baseline.current = values;
    setDraftNoticeShown(false);
    const fresh = newCommandId();
    form.reset({ ...values, commandId: fresh }, { keepValues: true });
    form.setValue('commandId', fresh);
  };

  const submitValues = (values: ComposerValues, fromPreview?: Prepared) => {
    const request = toJsCommands(values);
    setFailure(undefined);
    submit.mutate(request, {
      onSuccess: (result) => {
        showCommitted(
          {
            ...result,
            request,
            ...(fromPreview
              ? {
                  fromPreview: {
                    // Submitted anew: the contracts it creates have ids of their own.
                    comparison: compareTrees(fromPreview.preview.tree, result.tree, {
                      isReinterpreted: true,
                    }),
                  },
                }
              : {}),
          },
          values,
        );
      },
      onError: (error) => {
        showFailure(error, values, 'Not submitted');
      },
    });
  };

  const handleSubmit = (values: ComposerValues) => {
    submitValues(values);
  };

  const handlePreview = (values: ComposerValues) => {
    const request = toJsCommands(values);
    setFailure(undefined);
    prepare.mutate(request, {
      onSuccess: (prepared) => {
        // A preview of a thousand nodes is a long render: as a transition React slices it, so the
        // page keeps answering (no main-thread task of the size of the tree), and the button
        // stays busy until it is shown.
        startPreviewTransition(() => {
          setPreviewed({ prepared, values });
          setResultSerial((serial) => serial + 1);
        });
      },
      onError: (error) => {
        showFailure(error, values, 'Not prepared');
      },
    });
  };

  const handleExecuted = (executed: Executed) => {
    if (!previewed) return;
    const { prepared, values } = previewed;
    showCommitted(
      {
        tree: executed.tree,
        endpoint: 'execute',
        request: prepared.request,
        fromPreview: {
          comparison: compareTrees(prepared.preview.tree, executed.tree),
          externalTransactionHash: executed.externalTransactionHash,
          preparedHashHex: prepared.preview.hash.hex,
        },
      },
      values,
    );
  };

  const previewAgain = () => {
    void form.handleSubmit(handlePreview)();
  };

  const applyFix = (fix: InFormFix) => {
    switch (fix.kind) {
      case 'addActAs': {
        const actAs = form.getValues('actAs');
        form.setValue('actAs', [...new Set([...actAs, ...fix.parties])], { shouldDirty: true });
        form.clearErrors('actAs');
        break;
      }
      case 'newCommandId':
        form.setValue('commandId', newCommandId(), { shouldDirty: true });
        form.clearErrors('commandId');
        break;
      case 'pickTemplate':
        form.setFocus(
          `commands.${String(fix.commandIndex)}.templateId` as `commands.${number}.templateId`,
        );
        return;
      case 'pickChoice':
        form.setFocus(`commands.${String(fix.commandIndex)}.choice` as `commands.${number}.choice`);
        return;
    }
    setFailure(undefined);
  };

  const copyAs = () => {
    const parsed = schema.safeParse(form.getValues());
    return parsed.success ? composerCopyAs(toJsCommands(parsed.data), catalog) : undefined;
  };

  const close = () => {
    onClose();
  };

  return (
    <section
      ref={sectionRef}
      aria-labelledby={headingId}
      className={isOneOfMany ? classes.submission : undefined}
    >
      <Stack gap="md">
        <Group
          justify="space-between"
          wrap="nowrap"
          className={isOneOfMany ? undefined : classes.visuallyHidden}
        >
          <div>
            <Title order={2} size="h4" id={headingId} ref={headingRef} tabIndex={-1}>
              Submission {number}
            </Title>
            {subtitle && (
              <Text size="sm" c="dimmed">
                {subtitle}
              </Text>
            )}
          </div>
          {isOneOfMany && (
            <CloseButton aria-label={`Close submission ${String(number)}`} onClick={close} />
          )}
        </Group>
        {isDraftNoticeShown && (
          <Alert color="blue" title="Unsent draft restored">
            <Group justify="space-between">
              <Text size="sm">The commands you had not submitted are back in the form.</Text>
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  const values = { ...emptyValues(), commandId: newCommandId() };
                  baseline.current = values;
                  form.reset(values);
                  clearDraft(draftUserId);
                  setDraftNoticeShown(false);
                }}
              >
                Discard the draft
              </Button>
            </Group>
          </Alert>
        )}
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, xl: 5 }}>
            <ComposerForm
              form={form}
              scope={scope}
              catalog={catalog}
              recentTemplateIds={recentTemplateIds}
              recentContracts={recentContracts}
              onSubmit={handleSubmit}
              isSubmitting={submit.isPending}
              submitError={submit.error ?? prepare.error}
              copyAs={copyAs}
              onPreview={handlePreview}
              isPreviewing={prepare.isPending || isPreviewRendering}
              failure={
                failure && (
                  <CommandFailureAlert
                    title={failure.title}
                    failure={failure.failure}
                    links={links}
                    identityProviderId={identityProviderId}
                    onApply={applyFix}
                  />
                )
              }
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, xl: 7 }}>
            <div className={classes.resultColumn}>
              {previewed ? (
                <ComposerPreview
                  prepared={previewed.prepared}
                  route={commitRoute(previewed.prepared.request.actAs, participantId)}
                  isChanged={isPreviewChanged}
                  headingRef={resultHeadingRef}
                  renderTree={(tree) => renderTree(tree, false)}
                  copyPrepareAs={() => prepareCopyAs(previewed.prepared.request, catalog)}
                  onCommit={() => {
                    submitValues(previewed.values, previewed.prepared);
                  }}
                  isCommitting={submit.isPending}
                  onExecuted={handleExecuted}
                  onPreviewAgain={previewAgain}
                />
              ) : shown ? (
                <ResultCard
                  shown={shown}
                  links={links}
                  headingRef={resultHeadingRef}
                  renderTree={(tree) => renderTree(tree, isCurrentResult)}
                  onExercise={(contractId, templateId) => {
                    onExercise(shown, contractId, templateId);
                  }}
                />
              ) : (
                <Card withBorder padding="lg" visibleFrom="xl">
                  <Text size="sm" c="dimmed">
                    The transaction appears here after Submit.
                  </Text>
                </Card>
              )}
            </div>
          </Grid.Col>
        </Grid>
      </Stack>
    </section>
  );
}

function ResultCard({
  shown,
  links,
  headingRef,
  renderTree,
  onExercise,
}: {
  shown: Shown;
  links: ComposerSubmissionLinks;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  renderTree: (tree: TransactionTree) => ReactNode;
  onExercise: (contractId: string, templateId: string) => void;
}) {
  const titleId = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Title order={2} size="h4" id={titleId} ref={headingRef} tabIndex={-1}>
          Result
        </Title>
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
                      : shown.endpoint === 'execute'
                        ? 'interactive-submission/executeAndWaitForTransaction'
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
        {shown.fromPreview && <CommitComparison {...shown.fromPreview} />}
        <CreatedContracts tree={shown.tree} onExercise={onExercise} />
        {renderTree(shown.tree)}
      </Stack>
    </Card>
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
          <Group key={node.nodeId} gap="sm" wrap="wrap">
            <Text size="sm">{node.template?.entityName ?? node.templateId}</Text>
            <Identifier value={node.contractId} label="contract id" kind="contract" />
            <Button
              size="xs"
              variant="light"
              onClick={() => {
                onExercise(node.contractId, node.templateId);
              }}
            >
              {/* The name starts with the words shown (WCAG 2.5.3), so "click Exercise a choice
                  on it" works by voice; the hidden rest tells the buttons apart in a list. */}
              Exercise a choice on it{' '}
              <VisuallyHidden component="span">
                {`(${node.template?.entityName ?? 'contract'} ${shortenIdentifier(node.contractId)})`}
              </VisuallyHidden>
            </Button>
          </Group>
        ) : null,
      )}
    </Stack>
  );
}
