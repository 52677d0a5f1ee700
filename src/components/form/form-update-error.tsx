import { Alert, Button, Stack, Text } from '@mantine/core';
import type { Control, FieldValues } from 'react-hook-form';
import { describeError } from '@/lib/errors/api-error';
import { FormRootError } from './form-root-error';
import { buttonBusy } from './button-busy';

export type FormUpdateErrorProps<T extends FieldValues> = {
  control: Control<T>;
  /** The failed update's error (the mutation's). */
  error: unknown;
  /** The code the server refuses a stale resourceVersion with, e.g. CONCURRENT_USER_UPDATE_DETECTED. */
  conflictCode: string;
  /** What happened, naming the thing edited: "Someone else changed this user after you opened it". */
  conflictTitle: string;
  /** Loads the latest version into the form, discarding the edits. */
  onReload: () => void;
  isReloading: boolean;
};

/**
 * The top-of-form error of an edit guarded by a resourceVersion. A concurrent change gets its own
 * alert: nothing was saved, the typed values stay, and "Reload latest" is the explicit way to
 * take the other change (and lose the edits). Any other failure shows as {@link FormRootError}.
 */
export function FormUpdateError<T extends FieldValues>({
  control,
  error,
  conflictCode,
  conflictTitle,
  onReload,
  isReloading,
}: FormUpdateErrorProps<T>) {
  if (describeError(error).code !== conflictCode) {
    return <FormRootError control={control} error={error} />;
  }
  return (
    <Alert color="orange" title={conflictTitle}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          Nothing was saved, and your edits are still in the form. Reload latest to see the current
          version (this discards your edits), then make your changes again.
        </Text>
        <Button size="xs" onClick={onReload} loading={buttonBusy(isReloading)}>
          Reload latest
        </Button>
      </Stack>
    </Alert>
  );
}
