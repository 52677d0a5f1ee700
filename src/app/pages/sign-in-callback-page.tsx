import { env } from '@/env';
import { Loader, Group, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { completeSignIn } from '@/features/session/complete-sign-in';
import { describeError } from '@/lib/errors/api-error';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/app/paths';
import { safeReturnPath } from '@/app/safe-return-path';

/** What the sign-in page shows after a failed round trip (router state: never in the URL). */
export type SignInPageState = { signInError?: { title: string; message: string } };

/**
 * Where an OpenID provider sends the browser back. It exchanges the code, then leaves at once
 * (replacing this entry, so the code and state are not kept in the history): to the page the
 * sign-in started from, or to the sign-in page with the reason it failed.
 */
export function SignInCallbackPage() {
  const providers = useQuery({ ...signInProviderQueries.list(), meta: { errorDisplay: 'inline' } });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const url = `${window.location.origin}${env.PAGE_BASE}${pathname}${search}`;

  useEffect(() => {
    const fail = (error: unknown) => {
      const { title, message } = describeError(error);
      const state: SignInPageState = { signInError: { title, message } };
      void navigate(paths.signIn.to(), { replace: true, state });
    };
    if (providers.isError) {
      fail(providers.error);
      return;
    }
    if (!providers.data) return;
    completeSignIn(providers.data, url, queryClient).then(({ returnTo }) => {
      void navigate(safeReturnPath(returnTo ?? null), { replace: true });
    }, fail);
  }, [providers.data, providers.isError, providers.error, queryClient, navigate, url]);

  return (
    <>
      <PageHeader title="Signing in" />
      <Group gap="sm">
        <Loader size="sm" />
        <Text size="sm">Completing the sign-in with your identity provider…</Text>
      </Group>
    </>
  );
}
