import { zodResolver } from '@hookform/resolvers/zod';
import { partyMutations, partyQueries, type PartyDetails } from '@/api/parties';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FormAnnotationsInput } from '@/components/form/form-annotations-input';
import { GuardedEditForm } from '@/components/form/guarded-edit-form';
import { useGuardedEditForm } from '@/components/form/use-guarded-edit-form';
import { shortenIdentifier } from '@/lib/text/format';
import {
  partyAnnotationsErrorField,
  partyAnnotationsSchema,
  toPartyAnnotationsPatch,
  toPartyAnnotationsValues,
} from './party-form-schema';
import { partyAnnotationsCommands } from './parties-copy-as';

export type PartyAnnotationsFormProps = {
  /** The party as loaded when the page opened; edits are based on its resourceVersion. */
  party: PartyDetails;
};

/**
 * Edits a party's annotations with one PATCH that sends only what changed (removed keys as `""`).
 * The loaded resourceVersion goes along, so a concurrent change is refused rather than
 * overwritten; the form then keeps the typed values until the user explicitly reloads.
 */
export function PartyAnnotationsForm({ party }: PartyAnnotationsFormProps) {
  const edit = useGuardedEditForm({
    loaded: party,
    resolver: zodResolver(partyAnnotationsSchema),
    toValues: toPartyAnnotationsValues,
    toVariables: (base, values) => {
      const annotations = toPartyAnnotationsPatch(base, values);
      return annotations ? { loaded: base, annotations } : undefined;
    },
    mutation: partyMutations.updateAnnotations(),
    errorField: partyAnnotationsErrorField,
    latestQuery: (base) =>
      partyQueries.detail({ party: base.party, identityProviderId: base.identityProviderId ?? '' }),
    onSaved: (saved) => {
      notify.success(`Annotations of ${shortenIdentifier(saved.party)} saved`);
    },
  });
  const { form, base } = edit;

  return (
    <GuardedEditForm
      label="Annotations"
      edit={edit}
      conflictCode="CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED"
      conflictTitle="Someone else changed this party after you opened it"
      resourceVersion={base.localMetadata?.resourceVersion ?? ''}
      saveLabel="Save annotations"
      extra={
        <CopyAsMenu
          commands={() => {
            const parsed = partyAnnotationsSchema.safeParse(form.getValues());
            return parsed.success ? partyAnnotationsCommands(base, parsed.data) : undefined;
          }}
          unavailableReason="Change an annotation first (and fix any problem): the copy is the request Save would send."
        />
      }
    >
      <FormAnnotationsInput
        control={form.control}
        name="annotations"
        description="Key/value metadata kept by this participant. Keys: an optional DNS prefix and '/', then a name. Removing a row removes the key."
      />
    </GuardedEditForm>
  );
}
