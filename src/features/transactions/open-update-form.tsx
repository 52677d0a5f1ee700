import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { type ReadScope } from '@/api/updates';
import { type UpdateView, updateViewQueries } from '@/api/update-views';
import { FormRootError } from '@/components/form/form-root-error';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import {
  emptyOpenUpdateValues,
  openUpdateSchema,
  toUpdateRef,
  type OpenUpdateValues,
} from './open-update-form-schema';
import { buttonBusy } from '@/components/form/button-busy';

export type OpenUpdateFormProps = {
  scope: ReadScope;
  /** The update was found (and its tree is cached under its id): show it. */
  onOpen: (updateId: string) => void;
};

/** Longer than an update id with spaces around it; anything longer is a paste gone wrong. */
const MAX_INPUT_LENGTH = 100;

/**
 * A compact search box that opens an update by id or by offset (told apart by their form). It is
 * looked up here, so that "not found" (or not visible to the caller's parties) shows on the field,
 * with what was typed kept.
 */
export function OpenUpdateForm({ scope, onOpen }: OpenUpdateFormProps) {
  const queryClient = useQueryClient();
  const form = useForm<OpenUpdateValues>({
    resolver: zodResolver(openUpdateSchema),
    defaultValues: emptyOpenUpdateValues,
  });
  const open = useFormMutation(
    form,
    {
      mutationFn: async (values: OpenUpdateValues): Promise<UpdateView> => {
        const ref = toUpdateRef(values);
        const view = await queryClient.query(updateViewQueries.view(ref, scope));
        queryClient.setQueryData(
          updateViewQueries.view({ updateId: view.updateId }, scope).queryKey,
          view,
        );
        return view;
      },
      onSuccess: (view) => {
        onOpen(view.updateId);
      },
    },
    { UPDATE_NOT_FOUND: 'value', NON_POSITIVE_OFFSET: 'value', INVALID_ARGUMENT: 'value' },
  );

  const handleSubmit = form.handleSubmit((values) => {
    open.mutate(values);
  });

  return (
    <form noValidate aria-label="Open an update" onSubmit={(event) => void handleSubmit(event)}>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <FormTextInput
          control={form.control}
          name="value"
          aria-label="Update id or offset"
          placeholder="Update id or offset"
          autoComplete="off"
          spellCheck={false}
          maxLength={MAX_INPUT_LENGTH}
          w={{ base: '100%', xs: 300 }}
          style={{ flex: 1, maxWidth: 360 }}
        />
        <Button type="submit" variant="default" loading={buttonBusy(open.isPending)}>
          Open
        </Button>
      </Group>
      <FormRootError control={form.control} error={open.error} />
    </form>
  );
}
