import { Text } from '@mantine/core';
import { useSuspenseQuery } from '@tanstack/react-query';
import type { BoundedCount } from '@/api/bounded-count';
import { packageQueries } from '@/api/packages';
import { partyQueries } from '@/api/parties';
import { pruningQueries } from '@/api/pruning';
import { sessionQueries } from '@/api/session';
import { synchronizerQueries } from '@/api/synchronizers';
import { userQueries } from '@/api/users';
import { accessOf, type Caller } from '@/lib/access/access-rights';
import { forbiddenDetails } from '@/lib/errors/forbidden';
import { formatCount, plural } from '@/lib/text/format';
import { NotVisible, StatValue } from './stat-card';

/** "1000+" when the count stopped at its bound. */
function formatBoundedCount({ count, isComplete }: BoundedCount): string {
  return isComplete ? String(count) : `${String(count)}+`;
}

/** Whose users and parties the lists show: the caller's own IdP (§2.6, §4.5). */
function identityProviderOf(caller: Caller): string {
  return caller.kind === 'user' && caller.identityProviderId !== ''
    ? `identity provider ${caller.identityProviderId}`
    : 'the default identity provider';
}

/**
 * Only admins may list users and parties (ledger-api-behaviour.md §4.6): anyone else is told so
 * without a request the participant would refuse.
 */
function useListingCaller(): { caller: Caller; mayList: boolean; need: string | undefined } {
  const { data: caller } = useSuspenseQuery(sessionQueries.caller());
  return {
    caller,
    mayList: accessOf(caller).canManageUsers,
    need: forbiddenDetails(caller, ['ParticipantAdmin', 'IdentityProviderAdmin']).need,
  };
}

/** The users of the caller's IdP; "Not visible to you" for a caller who may not list them. */
export function UsersStat() {
  const { caller, mayList, need } = useListingCaller();
  if (!mayList) return <NotVisible need={need} />;
  return <UsersCount caller={caller} />;
}

function UsersCount({ caller }: { caller: Caller }) {
  const { data } = useSuspenseQuery(userQueries.count());
  return <StatValue value={formatBoundedCount(data)} detail={`In ${identityProviderOf(caller)}`} />;
}

/**
 * The parties the participant knows (its own and other participants', §5.2), and how many of them
 * are hosted here and in the caller's IdP: a listing sees a party of another IdP as not hosted here.
 */
export function PartiesStat() {
  const { caller, mayList, need } = useListingCaller();
  if (!mayList) return <NotVisible need={need} />;
  return <PartiesCount caller={caller} />;
}

function PartiesCount({ caller }: { caller: Caller }) {
  const { data } = useSuspenseQuery(partyQueries.count());
  const atLeast = data.isComplete ? '' : 'at least ';
  return (
    <StatValue
      value={formatBoundedCount(data)}
      detail={
        <>
          Known to this participant, wherever hosted.
          <br />
          Of these, {atLeast}
          {String(data.hostedHere)} {plural(data.hostedHere, 'is', 'are')} hosted here and{' '}
          {plural(data.hostedHere, 'belongs', 'belong')} to {identityProviderOf(caller)}.
        </>
      }
    />
  );
}

/** Every package the participant holds: uploaded ones and their dependencies. */
export function PackagesStat() {
  const { data: packageIds } = useSuspenseQuery(packageQueries.ids());
  return <StatValue value={String(packageIds.length)} detail="Uploaded and their dependencies" />;
}

// A participant is connected to a handful; the card names a few.
const NAMED_SYNCHRONIZERS = 3;

/** The synchronizers this participant is connected to, by alias. */
export function SynchronizersStat() {
  const { data: synchronizers } = useSuspenseQuery(synchronizerQueries.connected());
  if (synchronizers.length === 0) {
    return <StatValue value="0" detail="Not connected: no command can be submitted" />;
  }
  const aliases = synchronizers.map((synchronizer) => synchronizer.synchronizerAlias);
  const named = aliases.slice(0, NAMED_SYNCHRONIZERS).join(', ');
  const more = aliases.length - NAMED_SYNCHRONIZERS;
  return (
    <StatValue
      value={String(synchronizers.length)}
      detail={
        <Text span size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {more > 0 ? `${named} and ${formatCount(more, 'other', 'others')}` : named}
        </Text>
      }
    />
  );
}

/** Up to which offset the history is gone; "None" when the participant never pruned. */
export function PruningStat() {
  const { data: offset } = useSuspenseQuery(pruningQueries.offset());
  return offset === 0 ? (
    <StatValue value="None" detail="Never pruned: every update can be read" />
  ) : (
    <StatValue
      value={String(offset)}
      detail="Updates at or below this offset can no longer be read"
    />
  );
}
