import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueries, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { partyHostingQueries } from '@/api/party-hosting';
import { partyQueries } from '@/api/parties';
import { sessionQueries } from '@/api/session';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { toUserRights, userQueries, type User, type UserRef } from '@/api/users';
import { SectionCard } from '@/components/section-card';
import { VerdictList } from '@/components/verdict-list';
import { accessOf, type Caller } from '@/lib/access/access-rights';
import { accessFixes } from '@/lib/errors/admin-error-fixes';
import { describeError } from '@/lib/errors/api-error';
import { AdminFixActions, type AdminFixLinks } from '@/blocks/admin-fix-actions';
import {
  accessVerdicts,
  partiesToCheck,
  type Outcome,
  type PartyLookup,
} from './user-access-check-verdicts';
import { canListUserRights } from './user-rights-access';
import { IsolatedText } from '@/components/isolated-text';
import { buttonBusy } from '@/components/form/button-busy';

export type UserAccessCheckProps = { userRef: UserRef; links: AdminFixLinks };

const inline = { errorDisplay: 'inline' } as const;

/**
 * "Can this person get in and work?": status, rights, each party it stands for (hosted here, on
 * which connected synchronizer) and the sign-in provider of its IdP, as verdicts with fixes. Runs
 * on request only, since it costs two lookups per party.
 */
export function UserAccessCheck({ userRef, links }: UserAccessCheckProps) {
  // The user page's main section shows the user's loading and errors; this one waits for it.
  const { data: caller } = useQuery(sessionQueries.caller());
  const { data: user } = useQuery(userQueries.detail(userRef));
  if (caller === undefined || user === undefined) return null;
  return <AccessCheck caller={caller} user={user} userRef={userRef} links={links} />;
}

type AccessCheckProps = { caller: Caller; user: User; userRef: UserRef; links: AdminFixLinks };

function AccessCheck({ caller, user, userRef, links }: AccessCheckProps) {
  const [requested, setRequested] = useState(false);
  const identityProviderId = user.identityProviderId ?? '';
  const access = accessOf(caller);
  const rightsListable = canListUserRights(access, userRef);

  const rights = useQuery({
    ...userQueries.rights(userRef),
    enabled: requested && rightsListable,
    meta: inline,
  });
  const providers = useQuery({ ...signInProviderQueries.list(), enabled: requested, meta: inline });
  const userRights = rights.data === undefined ? [] : toUserRights(rights.data);
  const rightsSettled = !rightsListable || rights.isSuccess || rights.isError;
  const { parties, notChecked } = partiesToCheck(user, rightsSettled ? userRights : []);
  const partyQueriesEnabled = requested && rightsSettled;
  const details = useQueries({
    queries: parties.map(({ party }) => ({
      ...partyQueries.detail({ party, identityProviderId }),
      enabled: partyQueriesEnabled,
      meta: inline,
    })),
  });
  const hosting = useQueries({
    queries: parties.map(({ party }) => ({
      ...partyHostingQueries.synchronizers({ party, identityProviderId }),
      enabled: partyQueriesEnabled,
      meta: inline,
    })),
  });

  // Every lookup of this check; concat keeps the query objects whole (their tracked props).
  const lookups = ([rights, providers] as UseQueryResult[]).concat(details, hosting);
  const pending = lookups.some((query) => query.isFetching);
  const settled =
    requested &&
    rightsSettled &&
    !pending &&
    lookups.slice(1).every((query) => query.isSuccess || query.isError);

  const recheck = () => {
    for (const query of lookups) {
      if (query.isSuccess || query.isError) void query.refetch();
    }
  };

  // Until the page moves to the user's canonical URL (UserDetail does that), show nothing.
  if (identityProviderId !== userRef.identityProviderId) return null;

  return (
    <SectionCard title="Check access">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Whether <IsolatedText isIdentifier>{user.id}</IsolatedText> can sign in and work: status,
          rights, the parties it stands for (hosted here, and on which connected synchronizer) and
          the sign-in provider of its identity provider.
        </Text>
        <Group>
          {requested ? (
            <Button variant="default" onClick={recheck} loading={buttonBusy(pending)}>
              Check again
            </Button>
          ) : (
            <Button
              onClick={() => {
                setRequested(true);
              }}
            >
              Check access
            </Button>
          )}
        </Group>
        {requested && !settled && (
          <Group gap="xs">
            <Loader size="xs" />
            <Text size="sm">Checking…</Text>
          </Group>
        )}
        {settled && (
          <AdminFixActions
            fixes={accessFixes(
              {
                userId: user.id,
                identityProviderId,
                isDeactivated: user.isDeactivated ?? false,
                primaryParty: user.primaryParty ?? '',
                rights: rightsListable && rights.isSuccess ? userRights : undefined,
              },
              {
                canManageUser: access.canManageUsers,
                canGrantReadAs: access.canGrant('CanReadAs'),
                isSelf:
                  caller.kind === 'user' &&
                  caller.userId === user.id &&
                  caller.identityProviderId === identityProviderId,
              },
            )}
            links={links}
            // A fix changed the user: check again, so the verdicts show the result.
            onApplied={recheck}
          />
        )}
        {settled && (
          <VerdictList
            label="Access check"
            verdicts={accessVerdicts({
              user,
              rights: rightsListable
                ? outcome(rights, toUserRights)
                : {
                    ok: false,
                    reason:
                      'Not checked: the JSON API lists rights only of default-IdP users for a participant admin (move the user to the default IdP, or ask an admin of its IdP).',
                  },
              parties: parties.map((party, index): PartyLookup => ({
                ...party,
                details: outcomeAt(details, index),
                synchronizers: outcomeAt(hosting, index),
              })),
              partiesNotChecked: notChecked,
              providers: outcome(providers, (list) => list),
            })}
          />
        )}
      </Stack>
    </SectionCard>
  );
}

function outcome<T, R>(query: UseQueryResult<T>, map: (value: T) => R): Outcome<R> {
  if (query.isSuccess) return { ok: true, value: map(query.data) };
  return { ok: false, reason: `Could not check: ${describeError(query.error).message}` };
}

function outcomeAt<T>(queries: readonly UseQueryResult<T>[], index: number): Outcome<T> {
  const query = queries[index];
  if (query === undefined) return { ok: false, reason: 'Not checked.' };
  return outcome(query, (value) => value);
}
