import { splitUniqueIdentifier } from '@ledger-console/participant/unique-identifier';
import { zodResolver } from '@hookform/resolvers/zod';
import { Stack, Text } from '@mantine/core';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { participantQueries } from '@/api/participant';
import { partyMutations, type PartyDetails } from '@/api/parties';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries, type ConnectedSynchronizer } from '@/api/synchronizers';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { notify } from '@/components/feedback/notify';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormAnnotationsInput } from '@/components/form/form-annotations-input';
import { FormSelect } from '@/components/form/form-select';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { accessOf } from '@/lib/access/access-rights';
import { shortenIdentifier } from '@/lib/text/format';
import type { AdminFixLinks } from '@/blocks/admin-fix-actions';
import { AdminFormError } from '@/blocks/admin-form-error';
import { IdentityProviderSelect } from '@/pickers/identity-provider-select';
import { UserSelect } from '@/pickers/user-select';
import { allocatePartyCommands } from './parties-copy-as';
import {
  allocatePartyErrorField,
  allocatePartySchema,
  emptyAllocatePartyValues,
  MAX_PARTY_HINT_LENGTH,
  toAllocatePartyRequest,
  type AllocatePartyValues,
} from './party-form-schema';
import { ForbiddenState } from '@/components/feedback/page-state';
import { forbiddenDetails } from '@/lib/errors/forbidden';

/** The app's routes this form links to; features cannot import the app's paths. */
export type AllocatePartyFormLinks = AdminFixLinks & {
  /** Where Cancel goes: the parties list. */
  parties: string;
};

export type AllocatePartyFormProps = {
  onAllocated: (party: PartyDetails) => void;
  links: AllocatePartyFormLinks;
};

/**
 * Allocates a party on this participant (POST /v2/parties): hint, IdP, annotations, the
 * synchronizer when the participant is connected to several, and optionally a user who may act as
 * the new party from the start.
 */
export function AllocatePartyForm({ onAllocated, links }: AllocatePartyFormProps) {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  const access = accessOf(caller);
  const ownIdentityProviderId = access.administeredIdentityProviderId;
  // A picker, not a precondition: if the list fails, the participant still picks its only one.
  const synchronizers = useQuery(synchronizerQueries.connected());
  const connected = synchronizers.data ?? [];
  const isSynchronizerRequired = connected.length > 1;
  const form = useForm<AllocatePartyValues>({
    resolver: zodResolver(allocatePartySchema({ isSynchronizerRequired })),
    defaultValues: emptyAllocatePartyValues(ownIdentityProviderId ?? ''),
  });
  const allocate = useFormMutation(form, partyMutations.allocate(), {}, (error) => {
    const field = allocatePartyErrorField(error, form.getValues());
    // Without the select on screen (the list failed or was not there yet), say it at the top.
    return field === 'synchronizerId' && !isSynchronizerRequired ? undefined : field;
  });
  const identityProviderId = useWatch({ control: form.control, name: 'identityProviderId' });
  // An unknown user may be one of another identity provider: a participant admin can find out
  // which, and the message then offers to allocate there.
  const failed = allocate.variables;

  if (!access.canManageUsers) {
    return (
      <ForbiddenState
        title="You may not allocate parties"
        {...forbiddenDetails(caller, ['ParticipantAdmin', 'IdentityProviderAdmin'])}
      />
    );
  }

  const handleSubmit = form.handleSubmit((values) => {
    allocate.mutate(toAllocatePartyRequest(values), {
      onSuccess: (party) => {
        notify.success(`Party ${party.party} allocated`);
        onAllocated(party);
      },
    });
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Allocate party">
      <Stack gap="lg">
        <AdminFormError
          control={form.control}
          error={allocate.error}
          change={
            failed && {
              action: 'allocateParty',
              userId: failed.userId ?? '',
              identityProviderId: failed.identityProviderId ?? '',
            }
          }
          caller={access}
          links={links}
          onUseIdentityProvider={(id) => {
            form.setValue('identityProviderId', id, { shouldDirty: true });
            allocate.reset();
            form.clearErrors();
          }}
        />
        <FormTextInput
          control={form.control}
          name="partyIdHint"
          label="Party id hint"
          description={`Optional. ASCII letters, digits, ":", "-", "_" and space; no "::"; at most ${String(MAX_PARTY_HINT_LENGTH)} characters. Empty: the participant names the party party-<uuid>.`}
          autoComplete="off"
          spellCheck={false}
          maw={FIELD_WIDTH.medium}
        />
        <PartyIdPreview control={form.control} />
        <IdentityProviderSelect
          control={form.control}
          name="identityProviderId"
          label="Identity provider"
          description={
            ownIdentityProviderId === undefined
              ? 'The party belongs to this IdP: its admins manage it, and only its requests see its details.'
              : 'As an IdP admin, you allocate parties into your own identity provider.'
          }
          maw={FIELD_WIDTH.medium}
        />
        {isSynchronizerRequired && (
          <FormSelect
            control={form.control}
            name="synchronizerId"
            label="Synchronizer"
            description="This participant is connected to several synchronizers: choose where to allocate the party."
            data={connected.map(toSynchronizerOption)}
            required
            allowDeselect={false}
            maw={FIELD_WIDTH.long}
          />
        )}
        {synchronizers.error && (
          // In place, with Retry (ADR 005): with several synchronizers the form needs the list.
          <Stack gap={6}>
            <Text size="sm">
              The connected synchronizers could not be loaded. The participant uses its synchronizer
              if it has only one; if it has several, retry to choose one.
            </Text>
            <ErrorAlert
              error={synchronizers.error}
              onRetry={() => {
                void synchronizers.refetch();
              }}
            />
          </Stack>
        )}
        <UserSelect
          control={form.control}
          name="userId"
          label="Grant Act as to user"
          description="Optional: an existing user of the same identity provider, who may then act as the new party."
          identityProviderId={identityProviderId}
          maw={FIELD_WIDTH.medium}
        />
        <FormAnnotationsInput
          control={form.control}
          name="annotations"
          description="Key/value metadata kept by this participant. Keys: an optional DNS prefix and '/', then a name."
        />
        <FormActions
          submitLabel="Allocate party"
          isSubmitting={allocate.isPending}
          cancel={{ to: links.parties }}
          extra={
            <CopyAsMenu
              commands={() => {
                const parsed = allocatePartySchema({ isSynchronizerRequired }).safeParse(
                  form.getValues(),
                );
                return parsed.success ? allocatePartyCommands(parsed.data) : undefined;
              }}
              unavailableReason="Fix the form's problems first: the copy is the request Allocate party would send."
            />
          }
        />
      </Stack>
    </form>
  );
}

function toSynchronizerOption(synchronizer: ConnectedSynchronizer) {
  return {
    value: synchronizer.synchronizerId,
    label: `${synchronizer.synchronizerAlias} (${shortenIdentifier(synchronizer.synchronizerId)})`,
  };
}

/** What the new party's id will look like: the hint, then the participant's namespace. */
function PartyIdPreview({ control }: { control: Control<AllocatePartyValues> }) {
  const hint = useWatch({ control, name: 'partyIdHint' });
  const { data: participantId } = useQuery(participantQueries.participantId());
  const namespace =
    participantId === undefined ? undefined : splitUniqueIdentifier(participantId)?.namespace;
  if (namespace === undefined) return null;
  return (
    <Text size="sm" c="dimmed" mt={-8}>
      The new party&apos;s id:{' '}
      <Text span ff="monospace" size="sm">
        {shortenIdentifier(`${hint === '' ? 'party-<uuid>' : hint}::${namespace}`)}
      </Text>
    </Text>
  );
}
