import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { env } from '@/env';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { SectionSkeleton } from '@/components/feedback/section-skeleton';
import { sessionQueries } from '@/api/session';
import { readTokenlessAccess, subscribeTokenlessAccess } from '@/api/tokenless-access';
import { readAccessToken, subscribeAccessToken } from '@/api/access-token';
import {
  AuthRecoveryContext,
  type AuthStateRenderer,
} from '@/components/feedback/auth-recovery-context';
import { ForbiddenState, SignedOutState } from '@/components/feedback/page-state';
import { ParticipantReachabilityContext } from '@/components/feedback/participant-reachability-context';
import { useOidcRenewal } from '@/features/session/use-oidc-renewal';
import { useSignOut } from '@/features/session/use-sign-in';
import { accessOf } from '@/lib/access/access-rights';
import { describeError, explainRefusal } from '@/lib/errors/api-error';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import { decodeToken } from '@/lib/access/token-claims';
import { paths } from '@/app/paths';
import { ParticipantUnreachableBanner } from './participant-unreachable-banner';
import { SignInRequired } from './sign-in-required';
import { useParticipantUnreachable } from './use-participant-unreachable';

// Loaded only when someone signs in again: the dialog, the form and its validation stay out of
// the first chunk every route loads.
const SignInDialog = lazy(() =>
  import('./sign-in-dialog').then((module) => ({ default: module.SignInDialog })),
);
const NotOnboarded = lazy(() =>
  import('@/features/session/not-onboarded').then((module) => ({ default: module.NotOnboarded })),
);

/**
 * The routed page, or the reason there is none: a participant that refuses the caller from the
 * start (401/403 on who-am-I) gets an explanation instead of a broken page, and a person the
 * provider vouched for but the participant does not know gets the "not onboarded" page. A
 * refusal later in the session (an expired token) never unmounts the page, so a half-typed form
 * survives: signing in again happens in a dialog over it.
 */
export function MainContent() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  // Without a token nothing was refused yet: a 401 then only says that a sign-in is needed.
  const hasToken = useSyncExternalStore(
    subscribeAccessToken,
    () => readAccessToken() !== undefined,
  );
  const renewal = useOidcRenewal();
  const signOut = useSignOut(() => void navigate(paths.signIn.to()));
  const [hasSignInOpened, setHasSignInOpened] = useState(false);
  const [isSignInOpen, signInDialog] = useDisclosure(false, {
    onOpen: () => {
      setHasSignInOpened(true);
    },
  });
  // Without a token, the page waits until the console knows whether the participant needs one:
  // if so, its sections would each fail on their own (and report it) before the sign-in prompt
  // replaced them. Once known, a participant that needs a sign-in is not asked who this is.
  const tokenless = useSyncExternalStore(subscribeTokenlessAccess, readTokenlessAccess);
  const isFindingOutWithoutToken = !hasToken && tokenless === 'unknown';
  const isSignInFirst = !hasToken && tokenless === 'sign-in-first';
  const isRefused = caller.isError && describeError(caller.error).isAuthProblem;
  const isRefusedFromStart = isSignInFirst || (isRefused && caller.data === undefined);
  // Pages for the signed-out or refused: signing in, and finding out why a token is refused.
  const isSignInPage =
    pathname.startsWith(paths.signIn.pattern) || pathname === paths.tokenDoctor.pattern;
  const isNotOnboarded =
    isRefusedFromStart && describeError(caller.error).status === 403 && namesAPerson();
  const administered =
    caller.data === undefined ? undefined : accessOf(caller.data).administeredIdentityProviderId;

  const signInPath = paths.signIn.to(`${pathname}${search}`);
  const { unreachable } = useParticipantUnreachable();
  const callerData = caller.data;
  const renderAuthState: AuthStateRenderer = (status, { placement, need }) => {
    if (placement === 'inline') {
      return (
        <Group gap="sm">
          <Text size="sm">{explainRefusal(status)}</Text>
          <Button size="xs" variant="light" onClick={signInDialog.open}>
            Sign in again
          </Button>
        </Group>
      );
    }
    const whyLink = (
      <Button component={Link} to={paths.tokenDoctor.to()} variant="subtle">
        Why? Check the token
      </Button>
    );
    if (status === 401) {
      return (
        <SignedOutState
          isBeforeSignIn={!hasToken}
          actions={
            <>
              {callerData === undefined ? (
                <Button component={Link} to={signInPath}>
                  Sign in
                </Button>
              ) : (
                <Button onClick={signInDialog.open}>Sign in</Button>
              )}
              {/* Without a token there is nothing for the doctor to examine. */}
              {hasToken && whyLink}
            </>
          }
        />
      );
    }
    return (
      <ForbiddenState
        {...forbiddenDetails(callerData)}
        {...(need === undefined ? {} : { need })}
        actions={
          <>
            {callerData?.kind === 'user' && (
              <Button
                component={Link}
                to={paths.user.to(callerData.userId, callerData.identityProviderId)}
                variant="light"
              >
                See your rights
              </Button>
            )}
            <Button component={Link} to={signInPath} variant="subtle">
              Sign in as someone else
            </Button>
          </>
        }
      />
    );
  };

  const page = (() => {
    if (isSignInPage) return <Outlet />;
    if (isNotOnboarded) {
      return (
        <Suspense fallback={<SectionSkeleton lines={6} />}>
          <NotOnboarded
            error={caller.error}
            reviewPath={`${env.PAGE_BASE}${paths.accessRequest.to()}`}
            doctorPath={paths.tokenDoctor.to()}
            onSignOut={() => void signOut()}
          />
        </Suspense>
      );
    }
    if (isFindingOutWithoutToken) return <SectionSkeleton lines={6} />;
    if (isRefusedFromStart) {
      const status = isSignInFirst ? 401 : (describeError(caller.error).status ?? 401);
      return renderAuthState(status, { placement: 'section' });
    }
    return (
      <Stack gap="md">
        <ParticipantUnreachableBanner />
        {isRefused && <SignInRequired error={caller.error} onSignIn={signInDialog.open} />}
        {!isRefused && renewal.kind === 'needs-sign-in' && (
          <Alert
            color="orange"
            variant="light"
            title={renewal.hasExpired ? 'Your sign-in has expired' : 'Your sign-in ends soon'}
          >
            <Group gap="sm" justify="space-between">
              <Text size="sm">
                {renewal.reason} Sign in again: this page and what you typed stay as they are.
              </Text>
              <Button size="xs" onClick={signInDialog.open}>
                Sign in again
              </Button>
            </Group>
          </Alert>
        )}
        {administered !== undefined && (
          <Alert color="blue" variant="light" p="xs" aria-label="Identity provider scope">
            <Text size="sm">
              You administer the identity provider <strong>{administered}</strong>: users, rights
              and parties here are {administered}’s only. Other identity providers and the
              participant’s settings are out of your reach.
            </Text>
          </Alert>
        )}
        <Outlet />
      </Stack>
    );
  })();

  return (
    <AuthRecoveryContext value={renderAuthState}>
      <ParticipantReachabilityContext value={unreachable === undefined}>
        {page}
      </ParticipantReachabilityContext>
      {/* Mounted from its first opening on, so that it closes with its transition. */}
      {hasSignInOpened && (
        <Suspense fallback={null}>
          <SignInDialog
            opened={isSignInOpen}
            onClose={signInDialog.close}
            returnTo={`${pathname}${search}`}
          />
        </Suspense>
      )}
    </AuthRecoveryContext>
  );
}

/** A token that names a person (issuer and subject): a 403 then means "not onboarded here". */
function namesAPerson(): boolean {
  const token = readAccessToken();
  if (token === undefined) return false;
  const decoded = decodeToken(token);
  return decoded.kind === 'jwt' && Boolean(decoded.claims.subject && decoded.claims.issuer);
}
