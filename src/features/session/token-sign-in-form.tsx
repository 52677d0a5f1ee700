import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack } from '@mantine/core';
import { useForm, useWatch } from 'react-hook-form';
import { FormCheckbox } from '@/components/form/form-checkbox';
import { FormTextarea } from '@/components/form/form-textarea';
import { FormRootError } from '@/components/form/form-root-error';
import { decodeToken } from '@/lib/access/token-claims';
import { describeError } from '@/lib/errors/api-error';
import {
  emptyTokenSignInValues,
  normalizeToken,
  tokenSignInSchema,
  type TokenSignInValues,
} from './sign-in-form-schema';
import { TokenClaimsSummary } from './token-claims-summary';
import { useSignIn } from './use-sign-in';
import { buttonBusy } from '@/components/form/button-busy';

export type TokenSignInFormProps = { onSignedIn: () => void };

/** Paste a bearer token; its claims show as soon as it decodes, before anything is sent. */
export function TokenSignInForm({ onSignedIn }: TokenSignInFormProps) {
  const form = useForm<TokenSignInValues>({
    resolver: zodResolver(tokenSignInSchema),
    defaultValues: emptyTokenSignInValues,
  });
  const signIn = useSignIn();
  const token = useWatch({ control: form.control, name: 'token' });
  const decoded = token.trim() ? decodeToken(normalizeToken(token)) : undefined;

  const handleSubmit = form.handleSubmit((values) => {
    signIn.mutate(
      { token: normalizeToken(values.token), remember: values.remember },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          form.setError('root.server', { type: 'server', message: describeError(error).message });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate>
      <Stack>
        <FormRootError control={form.control} error={signIn.error} />
        <FormTextarea
          control={form.control}
          name="token"
          label="Bearer token"
          description="A JWT from your identity provider; it is sent only to this console's server, which passes it to the participant."
          autosize
          minRows={3}
          maxRows={8}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {decoded?.kind === 'jwt' && <TokenClaimsSummary claims={decoded.claims} />}
        <FormCheckbox
          control={form.control}
          name="remember"
          label="Remember on this device"
          description="Kept in this browser's local storage until you sign out; otherwise only for this browser session."
        />
        <div>
          <Button type="submit" loading={buttonBusy(signIn.isPending)}>
            Sign in with token
          </Button>
        </div>
      </Stack>
    </form>
  );
}
