import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { readAccessToken } from '@/api/access-token';
import { participantQueries } from '@/api/participant';
import { sessionQueries } from '@/api/session';
import { signInProviderQueries, type SignInProviderConfig } from '@/api/sign-in-providers';
import { tokenDoctorQueries } from './token-doctor-lookups';
import { accessOf } from '@/lib/access/access-rights';
import { diagnoseToken } from './diagnosis/diagnose-token';
import type {
  DoctorContext,
  IdentityProviderInfo,
  Lookup,
  SignInProviderInfo,
} from './diagnosis/doctor-context';
import { inspectToken } from './diagnosis/inspect-token';
import { userToLookUp } from './diagnosis/user-verdicts';
import type { Verdict } from './diagnosis/verdict';

/** A token handed to the doctor, and when: times are judged against that moment. */
export type Examination = { token: string; at: number };

export type TokenDoctorState = {
  /** Undefined while a lookup is still running. */
  verdicts: Verdict[] | undefined;
  /** Whether the console is signed in, so the lookups can be made. */
  isSignedIn: boolean;
};

const inline = { meta: { errorDisplay: 'inline' } } as const;

/**
 * Gathers what the verdicts depend on, with the console's current sign-in: the sign-in providers
 * (no sign-in needed), the participant id, the IdP configurations (participant admins only), then
 * the token's user and its rights in the IdP the token selects. The token itself is never sent.
 */
export function useTokenDoctor(examination: Examination | undefined): TokenDoctorState {
  const caller = useQuery({ ...sessionQueries.caller(), ...inline });
  const isSignedIn = caller.isSuccess;
  const access = caller.data ? accessOf(caller.data) : undefined;
  const isExamining = examination !== undefined;

  const providersQuery = useQuery({ ...signInProviderQueries.list(), ...inline });
  const participantIdQuery = useQuery({
    ...participantQueries.participantId(),
    ...inline,
    enabled: isExamining && isSignedIn,
  });
  const mayListIdps = isSignedIn && access?.canManageIdentityProviders === true;
  const idpsQuery = useQuery({
    ...tokenDoctorQueries.identityProviders(),
    ...inline,
    enabled: isExamining && mayListIdps,
  });

  const inspected = useMemo(
    () => (examination ? inspectToken(examination.token) : undefined),
    [examination],
  );
  const providers: readonly SignInProviderInfo[] | undefined = useMemo(
    () => providersQuery.data?.map(toProviderInfo),
    [providersQuery.data],
  );
  const identityProviders: Lookup<readonly IdentityProviderInfo[]> | undefined = !isSignedIn
    ? { status: 'signed-out' }
    : mayListIdps
      ? idpsQuery.data
      : { status: 'forbidden' };

  // The IdP to look the user up in depends on the providers and IdP configurations: wait for both.
  const isIdpKnown = !providersQuery.isPending && identityProviders !== undefined;
  const userRef =
    inspected?.kind === 'jwt' && isIdpKnown
      ? userToLookUp(inspected.claims, { providers, identityProviders })
      : undefined;
  const placeholderRef = { userId: '', identityProviderId: '' };
  const userQuery = useQuery({
    ...tokenDoctorQueries.user(userRef ?? placeholderRef),
    ...inline,
    enabled: isSignedIn && userRef !== undefined,
  });
  const isUserFound = userQuery.data?.status === 'found';
  const rightsQuery = useQuery({
    ...tokenDoctorQueries.rights(userRef ?? placeholderRef),
    ...inline,
    enabled: isSignedIn && userRef !== undefined && isUserFound,
  });

  const isChecking =
    providersQuery.isPending ||
    (participantIdQuery.isEnabled && participantIdQuery.isPending) ||
    (idpsQuery.isEnabled && idpsQuery.isPending) ||
    (inspected?.kind === 'jwt' && !isIdpKnown) ||
    (userQuery.isEnabled && userQuery.isPending) ||
    (rightsQuery.isEnabled && rightsQuery.isPending);

  let verdicts: Verdict[] | undefined;
  if (examination && !isChecking) {
    // Cheap (the token is at most 16 KB and decoded once above), so computed on every render.
    verdicts = diagnoseToken(examination.token, {
      now: examination.at,
      ...(providers ? { providers } : {}),
      ...(participantIdQuery.data ? { participantId: participantIdQuery.data } : {}),
      ...(identityProviders ? { identityProviders } : {}),
      user: isSignedIn ? userQuery.data : { status: 'signed-out' },
      rights: isSignedIn ? rightsQuery.data : { status: 'signed-out' },
      callerIsParticipantAdmin: access?.isParticipantAdmin === true,
      // Answered without a token, the participant cannot be judging tokens (no auth services).
      participantIgnoresTokens: caller.data?.kind === 'unidentified' && !readAccessToken(),
    } satisfies DoctorContext);
  }

  return { verdicts, isSignedIn };
}

function toProviderInfo(provider: SignInProviderConfig): SignInProviderInfo {
  const audience = provider.oidc.extraQueryParams.audience;
  return {
    id: provider.id,
    name: provider.name,
    issuer: provider.oidc.authority,
    identityProviderId: provider.identityProviderId,
    ...(audience ? { audience } : {}),
  };
}
