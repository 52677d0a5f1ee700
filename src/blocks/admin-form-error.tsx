import type { Control, FieldValues } from 'react-hook-form';
import { FormRootError } from '@/components/form/form-root-error';
import type { AdminCaller, AdminFix } from '@/lib/errors/admin-error-fixes';
import { useAdminFailure, type FailedAdminChange } from '@/hooks/use-admin-failure';
import { AdminFailureAlert, type AdminFixLinks } from './admin-fix-actions';

export type AdminFormErrorProps<T extends FieldValues> = {
  control: Control<T>;
  /** The failed submission's error (the mutation's). */
  error: unknown;
  /** What the failed submission asked for; undefined before the first one. */
  change: FailedAdminChange | undefined;
  caller: AdminCaller;
  links: AdminFixLinks;
  /** The kinds of fix this form offers; every one the failure has when absent. */
  offers?: readonly AdminFix['kind'][];
  /** Sets the form's identity provider (the "use identity provider" fix). */
  onUseIdentityProvider?: (identityProviderId: string) => void;
};

/**
 * The error area of a form that creates a user or grants one a party: when the user may be in
 * another identity provider, the failure in the user's terms with its fixes; otherwise the form's
 * own root error.
 */
export function AdminFormError<T extends FieldValues>({
  control,
  error,
  change,
  caller,
  links,
  offers,
  onUseIdentityProvider,
}: AdminFormErrorProps<T>) {
  const found = useAdminFailure(error, change, caller);
  const failure =
    found === undefined || offers === undefined
      ? found
      : { ...found, fixes: found.fixes.filter((fix) => offers.includes(fix.kind)) };
  return failure === undefined ? (
    <FormRootError control={control} error={error} />
  ) : (
    <AdminFailureAlert
      failure={failure}
      links={links}
      {...(onUseIdentityProvider === undefined ? {} : { onUseIdentityProvider })}
    />
  );
}
