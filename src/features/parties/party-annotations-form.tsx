import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useFormState } from 'react-hook-form';
import { partyMutations, partyQueries, type PartyDetails } from '@/api/parties';
import { notify } from '@/components/feedback/notify';
import { FormAnnotationsInput } from '@/components/form/form-annotations-input';
import { FormUpdateError } from '@/components/form/form-update-error';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { useReloadLatest } from '@/components/form/use-reload-latest';
import { PropertyList } from '@/components/property-list';
import { shortenIdentifier } from '@/lib/format';
import {
  partyAnnotationsErrorField,
  partyAnnotationsSchema,
  toPartyAnnotationsPatch,
  toPartyAnnotationsValues,
  type PartyAnnotationsValues,
} from './party-form-schema';

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
  const queryClient = useQueryClient();
  // What the form edits: the party as loaded, saved, or explicitly reloaded; never a background
  // refetch, which would silently move the resourceVersion under the user's edits.
  const [base, setBase] = useState(party);
  const form = useForm<PartyAnnotationsValues>({
    resolver: zodResolver(partyAnnotationsSchema),
    defaultValues: toPartyAnnotationsValues(base),
  });
  const { isDirty } = useFormState({ control: form.control });
  const update = useFormMutation(form, partyMutations.updateAnnotations(), {}, (error) =>
    partyAnnotationsErrorField(error, form.getValues()),
  );

  const handleSubmit = form.handleSubmit((values) => {
    const annotations = toPartyAnnotationsPatch(base, values);
    if (!annotations) return;
    update.mutate(
      { loaded: base, annotations },
      {
        onSuccess: (saved) => {
          notify.success(`Annotations of ${shortenIdentifier(saved.party)} saved`);
          setBase(saved);
          form.reset(toPartyAnnotationsValues(saved));
        },
      },
    );
  });

  const reloadLatest = useReloadLatest(
    () =>
      queryClient.query({
        ...partyQueries.detail({
          party: base.party,
          identityProviderId: base.identityProviderId ?? '',
        }),
        staleTime: 0,
      }),
    (latest) => {
      // Gone meanwhile: keep the form; saving will say so.
      if (!latest) return;
      setBase(latest);
      form.reset(toPartyAnnotationsValues(latest));
      update.reset();
    },
  );

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Annotations">
      <Stack gap="lg" maw={760}>
        <FormUpdateError
          control={form.control}
          error={update.error}
          conflictCode="CONCURRENT_PARTY_DETAILS_UPDATE_DETECTED"
          conflictTitle="Someone else changed this party after you opened it"
          onReload={reloadLatest.reload}
          isReloading={reloadLatest.isReloading}
        />
        <PropertyList
          items={[
            {
              label: 'Resource version',
              value: <Text size="sm">{base.localMetadata?.resourceVersion ?? ''}</Text>,
            },
          ]}
        />
        <FormAnnotationsInput
          control={form.control}
          name="annotations"
          description="Key/value metadata kept by this participant. Keys: an optional DNS prefix and '/', then a name. Removing a row removes the key."
        />
        <Group>
          <Button type="submit" loading={update.isPending} disabled={!isDirty}>
            Save annotations
          </Button>
          <Button
            variant="default"
            disabled={!isDirty || update.isPending}
            onClick={() => {
              form.reset(toPartyAnnotationsValues(base));
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
