import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { updateQueries, type ReadScope } from '@/api/updates';
import { FormRootError } from '@/components/form/form-root-error';
import { FormSelect } from '@/components/form/form-select';
import { FormTextInput } from '@/components/form/form-text-input';
import { useFormMutation } from '@/components/form/use-form-mutation';
import type { TransactionTree } from '@/lib/transaction-tree/model';
import {
  emptyOpenUpdateValues,
  openUpdateSchema,
  toUpdateRef,
  type OpenUpdateValues,
} from './open-update-form-schema';

export type OpenUpdateFormProps = {
  scope: ReadScope;
  /** The update was found (and its tree is cached under its id): show it. */
  onOpen: (updateId: string) => void;
};

/**
 * Opens an update by id or by offset. It is looked up here, so that "not found" (or not visible to
 * the caller's parties) shows on the form, with what was typed kept.
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
      mutationFn: async (values: OpenUpdateValues): Promise<TransactionTree> => {
        const ref = toUpdateRef(values);
        const tree = await queryClient.query(updateQueries.tree(ref, scope));
        queryClient.setQueryData(
          updateQueries.tree({ updateId: tree.updateId }, scope).queryKey,
          tree,
        );
        return tree;
      },
      onSuccess: (tree) => {
        onOpen(tree.updateId);
      },
    },
    { UPDATE_NOT_FOUND: 'value', NON_POSITIVE_OFFSET: 'value', INVALID_ARGUMENT: 'value' },
  );

  const handleSubmit = form.handleSubmit((values) => {
    open.mutate(values);
  });

  return (
    <form noValidate aria-label="Open an update" onSubmit={(event) => void handleSubmit(event)}>
      <Stack gap="sm">
        <FormRootError control={form.control} error={open.error} />
        <Group align="flex-start" gap="sm" wrap="wrap">
          <FormSelect
            control={form.control}
            name="lookup"
            label="Look up by"
            data={[
              { value: 'id', label: 'Update id' },
              { value: 'offset', label: 'Offset' },
            ]}
            allowDeselect={false}
            w={140}
          />
          <FormTextInput
            control={form.control}
            name="value"
            label="Update id or offset"
            placeholder="1220… or 42"
            autoComplete="off"
            spellCheck={false}
            style={{ flex: 1, minWidth: 260 }}
          />
          <Button type="submit" loading={open.isPending} mt={25}>
            Open
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
