import { zodResolver } from '@hookform/resolvers/zod';
import { userMutations, userQueries, type User } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormAnnotationsInput } from '@/components/form/form-annotations-input';
import { FormSwitch } from '@/components/form/form-switch';
import { GuardedEditForm } from '@/components/form/guarded-edit-form';
import { useGuardedEditForm } from '@/components/form/use-guarded-edit-form';
import { PartySelect } from '@/pickers/party-select';
import {
  toUpdateUserRequest,
  toUserProfileValues,
  userProfileErrorField,
  userProfileSchema,
} from './user-form-schema';
import { updateUserCommands } from './users-copy-as';

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
  const edit = useGuardedEditForm({
    loaded: user,
    resolver: zodResolver(userProfileSchema),
    toValues: toUserProfileValues,
    toVariables: toUpdateUserRequest,
    mutation: userMutations.update(),
    errorField: userProfileErrorField,
    latestQuery: (base) =>
      userQueries.detail({ userId: base.id, identityProviderId: base.identityProviderId ?? '' }),
    onSaved: (saved) => {
      notify.success(`User ${saved.id} saved`);
    },
  });
  const { form, base } = edit;

  return (
    <GuardedEditForm
      label="Profile"
      edit={edit}
      conflictCode="CONCURRENT_USER_UPDATE_DETECTED"
      conflictTitle="Someone else changed this user after you opened it"
      resourceVersion={base.metadata?.resourceVersion ?? ''}
      saveLabel="Save changes"
      extra={
        <CopyAsMenu
          label="Copy update as…"
          commands={() => {
            const parsed = userProfileSchema.safeParse(form.getValues());
            return parsed.success
              ? updateUserCommands(toUpdateUserRequest(base, parsed.data))
              : undefined;
          }}
          unavailableReason="Change something first (and fix any problem): the copy is the request Save would send."
        />
      }
    >
      <PartySelect
        control={form.control}
        name="primaryParty"
        label="Primary party"
        description="Optional: the party this user stands for in applications. Empty clears it."
        identityProviderId={partiesOfIdentityProviderId}
        showCheck
        maw={FIELD_WIDTH.long}
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
    </GuardedEditForm>
  );
}
