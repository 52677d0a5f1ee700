import { Alert, Badge, Button, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import type { RunFailure, RunState } from '@/api/onboarding/run-onboarding-plan';
import { SectionCard } from '@/components/section-card';
import { describeError } from '@/lib/errors/api-error';
import type { StepStatus } from '@/lib/onboarding/run-progress';
import { StepCall } from './onboarding-plan-view';
import { buttonBusy } from '@/components/form/button-busy';

export type OnboardingRunProps = {
  state: RunState;
  onBack: () => void;
  /** Reads the participant again and plans from what exists now: the idempotent retry. */
  onPlanAgain: () => void;
  isPlanning: boolean;
};

const STATUS_COLOR: Record<StepStatus, string> = {
  waiting: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  'not run': 'gray',
};

/** A run's calls, each with its status, and on a failure what was undone and what remains. */
export function OnboardingRun({ state, onBack, onPlanAgain, isPlanning }: OnboardingRunProps) {
  const { plan, statuses, failure } = state;
  return (
    <SectionCard title="Run">
      <Stack>
        <List spacing="md" aria-label="Calls">
          {plan.steps.map((step, index) => (
            <List.Item key={step.kind} icon={<StatusBadge status={statuses[index] ?? 'waiting'} />}>
              <StepCall step={step} />
            </List.Item>
          ))}
        </List>
        {failure && <FailureReport failure={failure} />}
        {failure && (
          <Group>
            <Button variant="default" onClick={onBack}>
              Back to the form
            </Button>
            <Button onClick={onPlanAgain} loading={buttonBusy(isPlanning)}>
              Plan again
            </Button>
          </Group>
        )}
      </Stack>
    </SectionCard>
  );
}

function StatusBadge({ status }: { status: StepStatus }) {
  return (
    <Badge
      color={STATUS_COLOR[status]}
      variant="light"
      tt="none"
      w={80}
      leftSection={status === 'running' ? <Loader size={10} /> : undefined}
    >
      {status}
    </Badge>
  );
}

function FailureReport({ failure }: { failure: RunFailure }) {
  const { step, undo, undone } = failure;
  const { message } = describeError(failure.error);
  const deleteFailed = undone.some((entry) => !entry.ok);
  const hintTaken = step.kind === 'allocate-party' && /already (exists|allocated)/i.test(message);
  return (
    <Alert color="red" variant="light" title="The run stopped" role="alert">
      <Stack gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {step.method} {step.path} failed: {message}
        </Text>
        {hintTaken && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            The party {step.expectedParty} was allocated by someone else after the plan was made.
            Plan again to see whether it can be reused, or choose another hint.
          </Text>
        )}
        {undone.length > 0 && (
          <>
            <Title order={3} size="h5">
              Undone
            </Title>
            <List size="sm">
              {undone.map((entry) => (
                <List.Item key={entry.step.path}>
                  {entry.ok
                    ? `Deleted user ${entry.step.userId}.`
                    : `Could not delete user ${entry.step.userId} (${describeError(entry.error).message}): it remains; delete it on its page.`}
                </List.Item>
              ))}
            </List>
          </>
        )}
        <Title order={3} size="h5">
          What remains
        </Title>
        <List size="sm">
          {undo.remains
            .filter((line) => !(deleteFailed && line.startsWith('Once user')))
            .map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
        </List>
      </Stack>
    </Alert>
  );
}
