import { Alert, Badge, Button, Code, Group, List, Stack, Text } from '@mantine/core';
import { SectionCard } from '@/components/section-card';
import type { DeleteUserStep, OnboardingPlan, PlanStep } from '@/lib/onboarding/plan-steps';
import { stepRequest } from '@/api/onboarding/onboarding-step';

export type OnboardingPlanViewProps = {
  plan: OnboardingPlan;
  onBack: () => void;
  onRun: () => void;
  /** For a plan with nothing left to do: go straight to the hand-off. */
  onDone: () => void;
};

/** The exact calls a run will make, in order, and what exists already; nothing is sent yet. */
export function OnboardingPlanView({ plan, onBack, onRun, onDone }: OnboardingPlanViewProps) {
  const canRun = plan.blockers.length === 0;
  return (
    <SectionCard title="Plan">
      <Stack>
        <Text size="sm">
          Onboards <Code>{plan.userId}</Code> with the party{' '}
          <Code style={{ overflowWrap: 'anywhere' }}>{plan.party}</Code>. The calls run in this
          order; if one fails, the user this run created is deleted again. A party, once allocated,
          can never be deleted.
        </Text>
        {plan.blockers.map((blocker) => (
          <Alert key={blocker} color="red" variant="light" title="Cannot run">
            {blocker}
          </Alert>
        ))}
        {plan.conflicts.map((conflict) => (
          <Alert key={conflict} color="orange" variant="light">
            {conflict}
          </Alert>
        ))}
        {plan.reused.length > 0 && (
          <Alert color="blue" variant="light" title="Exists already">
            <List size="sm">
              {plan.reused.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {plan.steps.length === 0 ? (
          <Text size="sm">Nothing to do: this person is onboarded as planned already.</Text>
        ) : (
          <List type="ordered" spacing="md" aria-label="Planned calls">
            {plan.steps.map((step) => (
              <List.Item key={step.kind}>
                <StepCall step={step} />
              </List.Item>
            ))}
          </List>
        )}
        <Group>
          <Button variant="default" onClick={onBack}>
            Back to the form
          </Button>
          {plan.steps.length === 0 ? (
            canRun && <Button onClick={onDone}>Show the hand-off</Button>
          ) : (
            <Button onClick={onRun} disabled={!canRun}>
              Run the plan
            </Button>
          )}
        </Group>
      </Stack>
    </SectionCard>
  );
}

/** One call: method, path, what it does, and its exact body. */
export function StepCall({ step }: { step: PlanStep | DeleteUserStep }) {
  const request = stepRequest(step);
  // A DELETE sends no body: the user and its IdP are in the path and query.
  const body = request.kind === 'delete-user' ? undefined : request.body;
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap">
        <Badge variant="light" tt="none">
          {step.method}
        </Badge>
        <Code style={{ overflowWrap: 'anywhere' }}>{step.path}</Code>
      </Group>
      <Text size="sm">{step.summary}</Text>
      {body !== undefined && (
        <Code
          block
          style={{ maxHeight: 240, overflow: 'auto' }}
          // Scrolls when long: keyboard users must be able to reach and scroll it.
          tabIndex={0}
          aria-label={`Request body: ${step.summary}`}
        >
          {JSON.stringify(body, null, 2)}
        </Code>
      )}
    </Stack>
  );
}
