import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useForm } from 'react-hook-form';
import { userMutations, userQueries, type UserRef } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { notify } from '@/components/feedback/notify';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { useFormMutation } from '@/components/form/use-form-mutation';
import { IdentityProviderSelect } from '@/pickers/identity-provider-select';
import {
  identityProviderMoveSchema,
  toIdentityProviderMove,
  type IdentityProviderMoveValues,
} from './user-form-schema';
import { moveUserCommands } from './users-copy-as';
import { IsolatedText } from '@/components/isolated-text';

export type UserIdentityProviderMoveProps = {
  userRef: UserRef;
  /** Called with the IdP the user now belongs to; its address changes with it. */
  onMoved: (identityProviderId: string) => void;
};

/** Moves a user to another IdP (participant admins only), confirmed in a dialog. */
export function UserIdentityProviderMove({ userRef, onMoved }: UserIdentityProviderMoveProps) {
  const [isOpen, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button variant="default" onClick={open}>
        Move to another identity provider
      </Button>
      <Modal opened={isOpen} onClose={close} title="Move user to another identity provider">
        {isOpen && <MoveForm userRef={userRef} onMoved={onMoved} onCancel={close} />}
      </Modal>
    </>
  );
}

type MoveFormProps = UserIdentityProviderMoveProps & { onCancel: () => void };

function MoveForm({ userRef, onMoved, onCancel }: MoveFormProps) {
  const source = userRef.identityProviderId;
  const form = useForm<IdentityProviderMoveValues>({
    resolver: zodResolver(identityProviderMoveSchema),
    defaultValues: { sourceIdentityProviderId: source, targetIdentityProviderId: source },
  });
  const move = useFormMutation(form, {
    ...userMutations.moveToIdentityProvider(),
    // The user's old address stops answering; refreshing it would only fail.
    meta: { ...userMutations.moveToIdentityProvider().meta, invalidates: [userQueries.lists()] },
  });

  const handleSubmit = form.handleSubmit((values) => {
    move.mutate(toIdentityProviderMove(userRef.userId, values), {
      onSuccess: () => {
        const target = values.targetIdentityProviderId;
        notify.success(
          `User ${userRef.userId} moved to ${target === '' ? 'the default IdP' : target}`,
        );
        onMoved(target);
      },
    });
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack gap="md">
        <FormRootError control={form.control} error={move.error} />
        <Text size="sm">
          <IsolatedText isIdentifier>{userRef.userId}</IsolatedText> now belongs to{' '}
          {source === '' ? 'the default IdP' : <IsolatedText isIdentifier>{source}</IsolatedText>}.
          After the move, only tokens of the new identity provider (and participant admins) can act
          for it; its rights and profile stay as they are.
        </Text>
        <IdentityProviderSelect
          control={form.control}
          name="targetIdentityProviderId"
          label="New identity provider"
          exclude={source}
          data-autofocus
        />
        <FormActions
          submitLabel="Move user"
          isSubmitting={move.isPending}
          cancel={{ onClick: onCancel }}
          extra={
            <CopyAsMenu
              label="Copy move as…"
              commands={() => {
                const parsed = identityProviderMoveSchema.safeParse(form.getValues());
                return parsed.success
                  ? moveUserCommands(
                      userRef.userId,
                      parsed.data.sourceIdentityProviderId,
                      parsed.data.targetIdentityProviderId,
                    )
                  : undefined;
              }}
              unavailableReason="Choose an identity provider other than the current one first."
            />
          }
        />
      </Stack>
    </form>
  );
}
