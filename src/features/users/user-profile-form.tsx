import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useFormState } from 'react-hook-form';
import { userMutations, userQueries, type User } from '@/api/users';
import { notify } from '@/components/feedback/notify';
import { FormAnnotationsInput } from '@/components/form/form-annotations-input';
import { FormSwitch } from '@/components/form/form-switch';
import { FormUpdateError } from '@/components/form/form-update-error';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { useReloadLatest } from '@/components/form/use-reload-latest';
import { PropertyList } from '@/components/property-list';
import { PartySelect } from '@/pickers/party-select';
import {
  toUpdateUserRequest,
  toUserProfileValues,
  userProfileErrorField,
  userProfileSchema,
  type UserProfileValues,
} from './user-form-schema';

export type UserProfileFormProps = {
  /** The user as loaded when the page opened; edits are based on its resourceVersion. */
  user: User;
  /** Offer the parties of this IdP only (`''`: all the caller can list). */
  partiesOfIdentityProviderId: string;
  /** Set when the caller may not deactivate this user (itself), with the reason. */
  cannotDeactivateReason?: string;
};

/**
 * Edits primary party, status and annotations with one PATCH whose update mask names only what
 * changed. The loaded resourceVersion goes along, so a concurrent change is refused rather than
 * overwritten; the form then keeps the typed values until the user explicitly reloads.
 */
export function UserProfileForm({
  user,
  partiesOfIdentityProviderId,
  cannotDeactivateReason,
}: UserProfileFormProps) {
  const queryClient = useQueryClient();
  // What the form edits: the user as loaded, saved, or explicitly reloaded; never a background
  // refetch, which would silently move the resourceVersion under the user's edits.
  const [base, setBase] = useState(user);
  const form = useForm<UserProfileValues>({
    resolver: zodResolver(userProfileSchema),
    defaultValues: toUserProfileValues(base),
  });
  const { isDirty } = useFormState({ control: form.control });
  const update = useFormMutation(form, userMutations.update(), {}, (error) =>
    userProfileErrorField(error, form.getValues()),
  );

  const handleSubmit = form.handleSubmit((values) => {
    const request = toUpdateUserRequest(base, values);
    if (!request) return;
    update.mutate(request, {
      onSuccess: (saved) => {
        notify.success(`User ${saved.id} saved`);
        setBase(saved);
        form.reset(toUserProfileValues(saved));
      },
    });
  });

  const reloadLatest = useReloadLatest(
    () =>
      queryClient.query({
        ...userQueries.detail({
          userId: base.id,
          identityProviderId: base.identityProviderId ?? '',
        }),
        staleTime: 0,
      }),
    (latest) => {
      setBase(latest);
      form.reset(toUserProfileValues(latest));
      update.reset();
    },
  );

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Profile">
      <Stack gap="lg" maw={760}>
        <FormUpdateError
          control={form.control}
          error={update.error}
          conflictCode="CONCURRENT_USER_UPDATE_DETECTED"
          conflictTitle="Someone else changed this user after you opened it"
          onReload={reloadLatest.reload}
          isReloading={reloadLatest.isReloading}
        />
        <PropertyList
          items={[
            {
              label: 'Resource version',
              value: <Text size="sm">{base.metadata?.resourceVersion ?? ''}</Text>,
            },
          ]}
        />
        <PartySelect
          control={form.control}
          name="primaryParty"
          label="Primary party"
          description="Optional: the party this user stands for in applications. Empty clears it."
          identityProviderId={partiesOfIdentityProviderId}
        />
        <FormSwitch
          control={form.control}
          name="isDeactivated"
          label="Deactivated"
          // Mantine 9 puts the description inside the switch's <label>; name it by its label only.
          aria-label="Deactivated"
          description={
            cannotDeactivateReason ??
            "A deactivated user's tokens are refused until it is activated again."
          }
          disabled={cannotDeactivateReason !== undefined}
        />
        <FormAnnotationsInput
          control={form.control}
          name="annotations"
          description="Key/value metadata. Keys: an optional DNS prefix and '/', then a name."
        />
        <Group>
          <Button type="submit" loading={update.isPending} disabled={!isDirty}>
            Save changes
          </Button>
          <Button
            variant="default"
            disabled={!isDirty || update.isPending}
            onClick={() => {
              form.reset(toUserProfileValues(base));
              update.reset();
            }}
          >
            Discard changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
