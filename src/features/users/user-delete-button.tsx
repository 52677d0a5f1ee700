import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { userMutations, userQueries, type UserRef } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { notify } from '@/components/feedback/notify';
import { deleteUserCommands } from './users-copy-as';

export type UserDeleteButtonProps = {
  userRef: UserRef;
  /** Why the caller cannot delete this user, shown instead of a button that would fail. */
  cannotDeleteReason?: string;
  onDeleted: () => void;
};

/** Deletes the user after a confirm that names it; a failure shows as a toast. */
export function UserDeleteButton({
  userRef,
  cannotDeleteReason,
  onDeleted,
}: UserDeleteButtonProps) {
  const deleteUser = useMutation({
    ...userMutations.delete(),
    // The deleted user's detail must not refetch (it would fail); the lists must.
    meta: { ...userMutations.delete().meta, invalidates: [userQueries.lists()] },
  });

  const handleDelete = () => {
    confirmDanger({
      title: `Delete user ${userRef.userId}?`,
      body: `User ${userRef.userId} and all its rights will be deleted, and its tokens stop working. This cannot be undone.`,
      confirmLabel: 'Delete user',
      onConfirm: () => {
        deleteUser.mutate(userRef, {
          onSuccess: () => {
            notify.success(`User ${userRef.userId} deleted`);
            onDeleted();
          },
        });
      },
    });
  };

  return (
    <Stack gap={4} align="flex-start">
      <Group gap="xs">
        <Button
          color="red"
          variant="light"
          onClick={handleDelete}
          loading={deleteUser.isPending}
          disabled={cannotDeleteReason !== undefined}
        >
          Delete user
        </Button>
        <CopyAsMenu commands={() => deleteUserCommands(userRef)} />
      </Group>
      {cannotDeleteReason !== undefined && (
        <Text size="xs" c="dimmed">
          {cannotDeleteReason}
        </Text>
      )}
    </Stack>
  );
}
