import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Checkbox, Code, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  useController,
  useForm,
  useWatch,
  type Control,
  type UseFormReturn,
} from 'react-hook-form';
import { readExistingState } from '@/api/onboarding/read-existing-state';
import {
  refreshAfterOnboarding,
  runOnboardingPlan,
  type RunState,
} from '@/api/onboarding/run-onboarding-plan';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { ForbiddenState } from '@/components/feedback/page-state';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormTextInput } from '@/components/form/form-text-input';
import { SectionCard } from '@/components/section-card';
import { accessOf, PARTY_RIGHT_KINDS } from '@/lib/access/access-rights';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import { RIGHT_KIND_INFO } from '@/lib/access/right-names';
import {
  MAX_DISPLAY_NAME_LENGTH,
  namespaceOfParticipantId,
  partyHintProblem,
  RIGHTS_PRESETS,
} from '@/lib/onboarding/onboarding-input';
import { planOnboarding } from '@/lib/onboarding/onboarding-plan';
import { type OnboardingPlan } from '@/lib/onboarding/plan-steps';
import { reconcile } from '@/lib/onboarding/reconcile';
import { PartySelect } from '@/pickers/party-select';
import {
  emptyOnboardingValues,
  fieldOfProblem,
  onboardingSchema,
  toOnboardingInput,
  type ExternalPartyInput,
  type OnboardingPrefill,
  type OnboardingValues,
} from './onboarding-form-schema';
import { ExternalPartyFields } from './external-party-fields';
import { OnboardingHandOff } from './onboarding-hand-off';
import { OnboardingPlanView } from './onboarding-plan-view';
import { OnboardingRun } from './onboarding-run';
import { useExternalParty, type ExternalParty } from './use-external-party';

export type OnboardPersonProps = {
  /** An access request's values: the form starts from them and checks them like typed input. */
  prefill?: OnboardingPrefill;
  /** What the person asked for, in their words, for the admin to choose rights by. */
  requestedAccess?: string;
  /** The console's sign-in page, absolute, for the hand-off. */
  signInUrl: string;
  /** Where Cancel goes (the users list). */
  cancelHref: string;
};

type Stage =
  | { kind: 'form' }
  | { kind: 'plan'; plan: OnboardingPlan }
  | { kind: 'run'; run: RunState }
  | { kind: 'hand-off'; plan: OnboardingPlan };

/**
 * Onboards one person: a form, then the plan of exact calls, then the run with per-step status
 * (undoing what it can on a failure), then what to tell the person. The form stays mounted in
 * state throughout, so going back never loses what was typed.
 */
export function OnboardPerson({
  prefill,
  requestedAccess,
  signInUrl,
  cancelHref,
}: OnboardPersonProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  const participantId = useQuery({
    ...participantQueries.participantId(),
    meta: { errorDisplay: 'inline' },
  });
  const namespace =
    participantId.data === undefined ? '' : (namespaceOfParticipantId(participantId.data) ?? '');
  const ownIdentityProviderId = access.administeredIdentityProviderId;
  const form = useForm<OnboardingValues>({
    resolver: zodResolver(onboardingSchema),
    defaultValues: emptyOnboardingValues(
      ownIdentityProviderId ?? prefill?.identityProviderId ?? '',
      prefill,
    ),
    // A prefilled subject shows its problem at once, not only after the first submit.
    ...(prefill?.subject ? { mode: 'onTouched' as const } : {}),
  });
  const queryClient = useQueryClient();
  const external = useExternalParty(form);
  const [stage, setStage] = useState<Stage>({ kind: 'form' });
  const [planError, setPlanError] = useState<unknown>(undefined);
  const [isPlanning, setIsPlanning] = useState(false);

  if (!access.canManageUsers) {
    return (
      <ForbiddenState
        title="You may not onboard people"
        {...forbiddenDetails(caller, ['ParticipantAdmin', 'IdentityProviderAdmin'])}
      />
    );
  }

  /** Plans from the form's values and what the participant has now; problems go on the fields. */
  const makePlan = async (values: OnboardingValues) => {
    setPlanError(undefined);
    let externalInput: ExternalPartyInput | undefined;
    if (values.partyMode === 'external') {
      externalInput = await external.signedInput(values);
      if (externalInput === undefined) return;
    }
    const result = planOnboarding(
      toOnboardingInput(values, {
        access,
        participantNamespace: namespace,
        ...(externalInput === undefined ? {} : { external: externalInput }),
      }),
    );
    if (!result.ok) {
      const byField = new Map<string, string[]>();
      for (const problem of result.problems) {
        const field = fieldOfProblem(problem, values);
        byField.set(field, [...(byField.get(field) ?? []), problem.message]);
      }
      let first = true;
      for (const [field, messages] of byField) {
        form.setError(
          field as keyof OnboardingValues,
          { type: 'plan', message: messages.join(' ') },
          { shouldFocus: first },
        );
        first = false;
      }
      setStage({ kind: 'form' });
      return;
    }
    setIsPlanning(true);
    try {
      const existing = await readExistingState(result.plan);
      setStage({ kind: 'plan', plan: reconcile(result.plan, existing) });
    } catch (error) {
      setPlanError(error);
      setStage({ kind: 'form' });
    } finally {
      setIsPlanning(false);
    }
  };

  const run = async (plan: OnboardingPlan) => {
    const outcome = await runOnboardingPlan(queryClient, plan, {
      onChange: (state) => {
        setStage({ kind: 'run', run: state });
      },
    });
    void refreshAfterOnboarding(queryClient);
    // The plan carries the signature; the key made in this browser is needed no more.
    external.forgetKey();
    if (outcome.ok) setStage({ kind: 'hand-off', plan });
  };

  const review = form.handleSubmit(makePlan);
  const planAgain = () => void form.handleSubmit(makePlan)();

  return (
    <Stack gap="lg" maw={860}>
      {requestedAccess !== undefined && (
        <Alert color="blue" variant="light" title="The person asks for">
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {requestedAccess}
          </Text>
          <Text size="xs" c="dimmed" mt="xs">
            In their own words, from the access request: choose the rights below accordingly.
          </Text>
        </Alert>
      )}
      {participantId.error && <ErrorAlert error={participantId.error} />}
      {stage.kind === 'form' && (
        <form onSubmit={(event) => void review(event)} noValidate aria-label="Onboard a person">
          <Stack gap="lg">
            {planError !== undefined && <ErrorAlert error={planError} />}
            <OnboardingFields
              form={form}
              external={external}
              control={form.control}
              namespace={namespace}
              identityProviderId={ownIdentityProviderId}
            />
            <Stack gap={4}>
              <FormActions
                submitLabel="Review the plan"
                isSubmitting={isPlanning}
                isSubmitDisabled={namespace === ''}
                cancel={{ to: cancelHref }}
              />
              <Text size="xs" c="dimmed">
                Nothing is sent to the participant until you run the plan.
              </Text>
            </Stack>
          </Stack>
        </form>
      )}
      {stage.kind === 'plan' && (
        <OnboardingPlanView
          plan={stage.plan}
          onBack={() => {
            setStage({ kind: 'form' });
          }}
          onRun={() => {
            void run(stage.plan);
          }}
          onDone={() => {
            setStage({ kind: 'hand-off', plan: stage.plan });
          }}
        />
      )}
      {stage.kind === 'run' && (
        <OnboardingRun
          state={stage.run}
          onBack={() => {
            setStage({ kind: 'form' });
          }}
          onPlanAgain={planAgain}
          isPlanning={isPlanning}
        />
      )}
      {stage.kind === 'hand-off' && (
        <>
          <OnboardingHandOff
            plan={stage.plan}
            participantId={participantId.data ?? ''}
            signInUrl={signInUrl}
          />
          <Group>
            <Button
              variant="default"
              onClick={() => {
                form.reset(emptyOnboardingValues(ownIdentityProviderId ?? ''));
                external.reset();
                setStage({ kind: 'form' });
              }}
            >
              Onboard another person
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

function OnboardingFields({
  form,
  external,
  control,
  namespace,
  identityProviderId,
}: {
  form: UseFormReturn<OnboardingValues>;
  external: ExternalParty;
  control: Control<OnboardingValues>;
  namespace: string;
  /** The IdP admin's own IdP, which the person joins; undefined for a participant admin. */
  identityProviderId: string | undefined;
}) {
  const [partyMode, partyHint, rightsPreset, chosenIdentityProviderId] = useWatch({
    control,
    name: ['partyMode', 'partyHint', 'rightsPreset', 'identityProviderId'],
  });
  const idp = useController({ control, name: 'identityProviderId' });
  const hintProblem = partyHintProblem(partyHint);

  return (
    <>
      <SectionCard title="The person">
        <Stack>
          <FormTextInput
            control={control}
            name="subject"
            label="Subject (user id)"
            description="Their subject (sub) at the identity provider: the user id they sign in as."
            required
            autoComplete="off"
            spellCheck={false}
            maw={FIELD_WIDTH.medium}
          />
          <FormTextInput
            control={control}
            name="displayName"
            label="Display name"
            description={`Optional; kept as an annotation of the user. At most ${String(MAX_DISPLAY_NAME_LENGTH)} characters.`}
            autoComplete="off"
            maw={FIELD_WIDTH.medium}
          />
          {identityProviderId === undefined ? (
            <FormTextInput
              control={control}
              name="identityProviderId"
              label="Identity provider"
              description="Empty: the participant's default identity provider, the only one a participant admin can onboard into and undo (the JSON API lists rights and deletes users of the default IdP only)."
              autoComplete="off"
              spellCheck={false}
              maw={FIELD_WIDTH.medium}
            />
          ) : (
            <TextInput
              label="Identity provider"
              description="Your own identity provider: the only one you may onboard into."
              value={chosenIdentityProviderId}
              readOnly
              maw={FIELD_WIDTH.medium}
              error={idp.fieldState.error?.message}
            />
          )}
        </Stack>
      </SectionCard>
      <SectionCard title="Their party">
        <Stack>
          <FormRadioGroup
            control={control}
            name="partyMode"
            label="Party"
            options={[
              { value: 'new', label: 'A new party, from a hint' },
              { value: 'existing', label: 'An existing party of this identity provider' },
              {
                value: 'external',
                label: 'External party (the person holds the key)',
                description:
                  'Hosted here, but its transactions are signed with the person’s own key: the participant cannot act for it alone.',
              },
            ]}
          />
          {partyMode === 'external' ? (
            <ExternalPartyFields form={form} external={external} />
          ) : partyMode === 'new' ? (
            <>
              <FormTextInput
                control={control}
                name="partyHint"
                label="Party hint"
                description='Letters, digits, "-", "_" and ":"; at most 185 characters. Parties can never be deleted.'
                required
                autoComplete="off"
                spellCheck={false}
                maw={FIELD_WIDTH.medium}
              />
              <Text size="sm" aria-live="polite">
                {namespace === ''
                  ? 'The party id appears once the participant’s id is known.'
                  : hintProblem === undefined
                    ? 'The new party id will be: '
                    : 'The new party id will be <hint>::'}
                {namespace !== '' && hintProblem === undefined && (
                  <Code style={{ overflowWrap: 'anywhere' }}>{`${partyHint}::${namespace}`}</Code>
                )}
                {namespace !== '' && hintProblem !== undefined && (
                  <Code style={{ overflowWrap: 'anywhere' }}>{namespace}</Code>
                )}
              </Text>
            </>
          ) : (
            <PartySelect
              control={control}
              name="existingParty"
              label="Existing party"
              description="One of this identity provider's parties."
              identityProviderId={chosenIdentityProviderId}
              required
              maw={FIELD_WIDTH.long}
            />
          )}
        </Stack>
      </SectionCard>
      <SectionCard title="Rights">
        <Stack>
          <FormRadioGroup
            control={control}
            name="rightsPreset"
            label="Rights on their party"
            options={[
              ...RIGHTS_PRESETS.map((preset) => ({
                value: preset.id,
                label: preset.label,
                description: preset.description,
              })),
              {
                value: 'custom',
                label: 'Custom',
                description: 'Choose the rights on their party yourself.',
              },
            ]}
          />
          {rightsPreset === 'custom' && <CustomRightsFields control={control} />}
        </Stack>
      </SectionCard>
    </>
  );
}

// The console's names for the rights; the Ledger API's name is in the tooltip of each.
const PARTY_RIGHT_HELP = {
  CanActAs: 'submit commands as the party (implies reading)',
  CanReadAs: 'read the party’s contracts and transactions',
  CanExecuteAs: 'prepare and execute externally signed transactions',
} as const;

function CustomRightsFields({ control }: { control: Control<OnboardingValues> }) {
  const partyRights = useController({ control, name: 'customPartyRights' });
  const idpAdmin = useController({ control, name: 'customIdentityProviderAdmin' });
  return (
    <Stack gap="xs">
      <Checkbox.Group
        label="Custom rights on their party"
        value={partyRights.field.value}
        onChange={(value) => {
          partyRights.field.onChange(PARTY_RIGHT_KINDS.filter((kind) => value.includes(kind)));
        }}
        error={partyRights.fieldState.error?.message}
      >
        <Stack gap={6} mt="xs">
          {PARTY_RIGHT_KINDS.map((kind) => (
            <Checkbox
              key={kind}
              value={kind}
              label={`${RIGHT_KIND_INFO[kind].label}: ${PARTY_RIGHT_HELP[kind]}`}
              title={`Ledger API: ${kind}`}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      <Checkbox
        label={`${RIGHT_KIND_INFO.IdentityProviderAdmin.label}: manage this identity provider’s users and parties`}
        title="Ledger API: IdentityProviderAdmin"
        checked={idpAdmin.field.value}
        onChange={(event) => {
          idpAdmin.field.onChange(event.currentTarget.checked);
        }}
      />
    </Stack>
  );
}

type RadioOption = { value: string; label: string; description?: string };

function FormRadioGroup({
  control,
  name,
  label,
  options,
}: {
  control: Control<OnboardingValues>;
  name: 'partyMode' | 'rightsPreset';
  label: string;
  options: RadioOption[];
}) {
  const { field, fieldState } = useController({ control, name });
  return (
    <Radio.Group
      label={label}
      value={field.value}
      onChange={field.onChange}
      error={fieldState.error?.message}
    >
      <Stack gap="xs" mt="xs">
        {options.map((option) => (
          <Radio
            key={option.value}
            value={option.value}
            label={option.label}
            {...(option.description ? { description: option.description } : {})}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
