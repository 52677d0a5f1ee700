import { Alert, Button, Group, List, Modal, Stack, Text, ThemeIcon } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { IconCheck, IconLoader2, IconPoint } from '@tabler/icons-react';
import { useMutation, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import {
  reassignmentMutations,
  reassignmentQueries,
  type ContractLocation as Location,
  type ReassignmentOutcome,
} from '@/api/reassignment';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import type { ReadScope } from '@/api/updates';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { FormSelect } from '@/components/form/form-select';
import { FormTextInput } from '@/components/form/form-text-input';
import { Identifier } from '@/components/identifier';
import { PropertyList, type Property } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import type { Caller } from '@/lib/access/access-rights';
import { shortenIdentifier } from '@/lib/text/format';
import { idHint } from '@/lib/transaction-tree/update-summary';
import { useSynchronizerLabel } from '@/hooks/use-synchronizer-label';
import {
  emptyMoveContractValues,
  moveContractSchema,
  submittersFor,
  toAssignRequest,
  toUnassignRequest,
  type MoveContractValues,
} from './move-contract-form-schema';
import { completeMoveCopyAs, moveCopyAs } from './reassignment-copy-as';
import { reassignmentProblem } from './reassignment-errors';
import { buttonBusy } from '@/components/form/button-busy';

export type ContractLocationProps = {
  contractId: string;
  templateId: string;
  stakeholders: readonly string[];
  scope: ReadScope;
};

/** Whom the caller may submit as: anyone without a user (no auth) or with CanActAsAnyParty. */
function actAsOf(caller: Caller): 'any' | string[] {
  if (caller.kind === 'unidentified') return 'any';
  if (caller.rights.some((right) => right.kind === 'CanActAsAnyParty')) return 'any';
  return caller.rights.flatMap((right) => (right.kind === 'CanActAs' ? [right.party] : []));
}

type Dialog =
  | { kind: 'move'; source: string }
  | {
      kind: 'complete';
      inFlight: { reassignmentId: string; source: string; target: string };
    };

/**
 * Where an active contract is now (the synchronizer it is assigned to, or in flight between two),
 * with **Move to synchronizer…** when the participant is connected to several, and **Complete the
 * move…** for a contract unassigned but not yet assigned.
 */
export function ContractLocation({
  contractId,
  templateId,
  stakeholders,
  scope,
}: ContractLocationProps) {
  const { data: location } = useSuspenseQuery(
    reassignmentQueries.location({ contractId, templateId, stakeholders }, scope),
  );
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const connected = useQuery(synchronizerQueries.connected());
  const label = useSynchronizerLabel();
  // Kept apart from the location: a move changes it, and the dialog must stay to show the result.
  const [dialog, setDialog] = useState<Dialog | undefined>(undefined);
  const submitters = useMemo(
    () => submittersFor(stakeholders, actAsOf(caller)),
    [stakeholders, caller],
  );
  const connectedIds = (connected.data ?? []).map((synchronizer) => synchronizer.synchronizerId);
  const isUserIdRequired = caller.kind === 'unidentified';

  return (
    <SectionCard title="Location">
      <Stack gap="md">
        <PropertyList items={locationItems(location, label)} />
        {location.kind === 'assigned' && connectedIds.length >= 2 && (
          <Group>
            <Button
              variant="light"
              onClick={() => {
                setDialog({ kind: 'move', source: location.synchronizerId });
              }}
            >
              Move to synchronizer…
            </Button>
          </Group>
        )}
        {location.kind === 'in-flight' && (
          <Alert color="orange" variant="light" title="Not yet on any synchronizer">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">
                It was unassigned from {label(location.source)} and waits to be assigned to{' '}
                {label(location.target)}; until then no command can use it.
              </Text>
              <Button
                size="xs"
                onClick={() => {
                  setDialog({ kind: 'complete', inFlight: location });
                }}
              >
                Complete the move…
              </Button>
            </Stack>
          </Alert>
        )}
      </Stack>
      <Modal
        opened={dialog !== undefined}
        onClose={() => {
          setDialog(undefined);
        }}
        title={dialog?.kind === 'complete' ? 'Complete the move' : 'Move to synchronizer'}
        size="lg"
      >
        {dialog && (
          <MoveContractForm
            contractId={contractId}
            dialog={dialog}
            targets={
              dialog.kind === 'move'
                ? connectedIds.filter((id) => id !== dialog.source)
                : [dialog.inFlight.target]
            }
            submitters={submitters}
            isUserIdRequired={isUserIdRequired}
            onClose={() => {
              setDialog(undefined);
            }}
          />
        )}
      </Modal>
    </SectionCard>
  );
}

function locationItems(location: Location, label: (id: string) => string): Property[] {
  const synchronizer = (id: string) => (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" fw={500}>
        {label(id)}
      </Text>
      <Identifier value={id} label="synchronizer id" />
    </Group>
  );
  switch (location.kind) {
    case 'assigned':
      return [
        { label: 'Synchronizer', value: synchronizer(location.synchronizerId) },
        { label: 'Times reassigned', value: String(location.reassignmentCounter) },
      ];
    case 'in-flight':
      return [
        { label: 'Synchronizer', value: <Text size="sm">None: in flight</Text> },
        { label: 'Unassigned from', value: synchronizer(location.source) },
        { label: 'To be assigned to', value: synchronizer(location.target) },
        {
          label: 'Reassignment id',
          value: <Identifier value={location.reassignmentId} label="reassignment id" />,
        },
        ...(location.submitter
          ? [{ label: 'Unassigned by', value: <Text size="sm">{idHint(location.submitter)}</Text> }]
          : []),
      ];
    case 'not-active':
      return [
        {
          label: 'Synchronizer',
          value: (
            <Text size="sm" c="dimmed">
              Not in the active contracts of the parties you read as
            </Text>
          ),
        },
      ];
  }
}

type Progress =
  | { kind: 'idle' }
  | { kind: 'unassigning' }
  | { kind: 'assigning'; unassigned?: ReassignmentOutcome }
  | { kind: 'done'; unassigned?: ReassignmentOutcome; assigned: ReassignmentOutcome };

type MoveContractFormProps = {
  contractId: string;
  dialog: Dialog;
  targets: readonly string[];
  submitters: readonly string[];
  isUserIdRequired: boolean;
  onClose: () => void;
};

function MoveContractForm({
  contractId,
  dialog,
  targets,
  submitters,
  isUserIdRequired,
  onClose,
}: MoveContractFormProps) {
  const label = useSynchronizerLabel();
  const form = useForm<MoveContractValues>({
    resolver: zodResolver(moveContractSchema({ isUserIdRequired })),
    defaultValues: emptyMoveContractValues(submitters, targets, isUserIdRequired),
  });
  // Errors are the form's (inline), never a toast.
  const unassign = useMutation({
    ...reassignmentMutations.unassign(),
    meta: { ...reassignmentMutations.unassign().meta, errorDisplay: 'inline' },
  });
  const assign = useMutation({
    ...reassignmentMutations.assign(),
    meta: { ...reassignmentMutations.assign().meta, errorDisplay: 'inline' },
  });
  const [progress, setProgress] = useState<Progress>({ kind: 'idle' });
  const [rootProblem, setRootProblem] = useState<string | undefined>(undefined);
  const values = useWatch({ control: form.control });
  const isMove = dialog.kind === 'move';
  const source = isMove ? dialog.source : dialog.inFlight.source;

  const showProblem = (error: unknown, prefix = '') => {
    const problem = reassignmentProblem(error, label);
    if (problem.field && prefix === '') {
      form.setError(
        problem.field,
        { type: 'server', message: problem.message },
        { shouldFocus: true },
      );
    } else {
      setRootProblem(`${prefix}${problem.message}`);
    }
  };

  const handleSubmit = form.handleSubmit(async (values) => {
    setRootProblem(undefined);
    let inFlight = isMove ? undefined : dialog.inFlight;
    let unassigned: ReassignmentOutcome | undefined;
    if (isMove) {
      setProgress({ kind: 'unassigning' });
      try {
        unassigned = await unassign.mutateAsync(toUnassignRequest(contractId, source, values));
      } catch (error) {
        setProgress({ kind: 'idle' });
        showProblem(error);
        return;
      }
      inFlight = { reassignmentId: unassigned.reassignmentId, source, target: values.target };
    }
    if (!inFlight) return;
    setProgress({ kind: 'assigning', ...(unassigned ? { unassigned } : {}) });
    try {
      const assigned = await assign.mutateAsync(toAssignRequest(inFlight, values));
      setProgress({ kind: 'done', ...(unassigned ? { unassigned } : {}), assigned });
    } catch (error) {
      setProgress({ kind: 'idle' });
      // Half a move: the contract is in flight now, and the page offers to complete it.
      showProblem(
        error,
        unassigned
          ? `Unassigned from ${label(source)}, but the assignment to ${label(inFlight.target)} failed; the contract is in flight until the move is completed. `
          : '',
      );
    }
  });

  if (progress.kind === 'done') {
    const target = progress.assigned.synchronizerId;
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" title={`Moved to ${label(target)}`} role="status">
          <Stack gap={4}>
            {progress.unassigned && (
              <Text size="sm">
                Unassigned from {label(source)} at offset {String(progress.unassigned.offset)}.
              </Text>
            )}
            <Text size="sm">
              Assigned to {label(target)} at offset {String(progress.assigned.offset)}.
            </Text>
            <Group gap="xs">
              <Text size="sm">Reassignment id</Text>
              <Identifier value={progress.assigned.reassignmentId} label="reassignment id" />
            </Group>
          </Stack>
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    );
  }

  const isBusy = progress.kind !== 'idle';
  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md">
        {rootProblem !== undefined && (
          <Alert color="red" variant="light" title="Not moved">
            {rootProblem}
          </Alert>
        )}
        <Text size="sm">
          {isMove
            ? `Unassigns the contract from ${label(source)}, then assigns it to the synchronizer you choose. Its stakeholders must be hosted there, and its package vetted there.`
            : `Assigns the contract to ${label(dialog.inFlight.target)}, where its unassignment from ${label(source)} sent it.`}
        </Text>
        <FormSelect
          control={form.control}
          name="target"
          label="Target synchronizer"
          required
          disabled={!isMove || isBusy}
          data={targets.map((id) => ({ value: id, label: label(id) }))}
          allowDeselect={false}
        />
        <FormSelect
          control={form.control}
          name="submitter"
          label="Submitter"
          description="A stakeholder you may act as: it moves the contract."
          required
          disabled={isBusy}
          data={submitters.map((party) => ({ value: party, label: shortenIdentifier(party) }))}
          allowDeselect={false}
          nothingFoundMessage="You may act as none of its stakeholders"
        />
        {submitters.length === 0 && (
          <Text size="sm" c="red">
            You may act as none of the contract&apos;s stakeholders, so you cannot move it.
          </Text>
        )}
        {isUserIdRequired && (
          <FormTextInput
            control={form.control}
            name="userId"
            label="User id"
            description="The session has no user: the participant records the move under this one."
            required
            disabled={isBusy}
            maxLength={128}
          />
        )}
        {isBusy && (
          <MoveProgress
            isMove={isMove}
            progress={progress}
            source={source}
            target={values.target ?? ''}
          />
        )}
        <Group justify="flex-end">
          <CopyAsMenu
            commands={() =>
              isMove
                ? moveCopyAs(
                    toUnassignRequest(
                      contractId,
                      source,
                      moveContractSchema({ isUserIdRequired }).parse(values),
                    ),
                  )
                : completeMoveCopyAs(
                    toAssignRequest(
                      dialog.inFlight,
                      moveContractSchema({ isUserIdRequired }).parse(values),
                    ),
                  )
            }
            unavailableReason="Choose the target and the submitter first."
          />
          <Button variant="default" onClick={onClose} disabled={isBusy}>
            Cancel
          </Button>
          <Button type="submit" loading={buttonBusy(isBusy)} disabled={submitters.length === 0}>
            {isMove ? 'Move' : 'Assign'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MoveProgress({
  isMove,
  progress,
  source,
  target,
}: {
  isMove: boolean;
  progress: Progress;
  source: string;
  target: string;
}) {
  const label = useSynchronizerLabel();
  const total = isMove ? 2 : 1;
  const steps = [
    ...(isMove ? [{ key: 'unassigning', text: `Unassign from ${label(source)}` }] : []),
    { key: 'assigning', text: `Assign to ${label(target)}` },
  ];
  const current = steps.findIndex((step) => step.key === progress.kind);
  const now = steps[current];
  return (
    <Stack gap="xs">
      <Text size="sm" role="status">
        {now ? `Step ${String(current + 1)} of ${String(total)}: ${now.text}…` : ''}
      </Text>
      <List spacing={4} size="sm" center>
        {steps.map((step, index) => (
          <List.Item
            key={step.key}
            icon={
              <ThemeIcon
                size={20}
                radius="xl"
                variant="light"
                color={index < current ? 'teal' : 'gray'}
              >
                {index < current ? (
                  <IconCheck size={14} aria-hidden />
                ) : index === current ? (
                  <IconLoader2 size={14} aria-hidden />
                ) : (
                  <IconPoint size={14} aria-hidden />
                )}
              </ThemeIcon>
            }
          >
            {step.text}
            {index < current ? ' (done)' : ''}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
