import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

import { readAccessToken, readSignInProviderId, subscribeAccessToken } from '@/api/access-token';
import { sessionQueries } from '@/api/session';
import { signInProviderQueries } from '@/api/sign-in-providers';
import { describeLifetime, useTokenLifetime } from '@/features/session/use-token-lifetime';
import { accessOf, type Caller } from '@/lib/access/access-rights';
import { claimText, fitText } from '@/lib/access/signed-in-identity';
import { isParticipantUnreachable } from '@/lib/errors/api-error';
import { decodeToken } from '@/lib/access/token-claims';
import { formatExactTime } from '@/lib/text/format';
import { LazyMenu } from '@/components/lazy-menu';
import { paths } from '@/app/paths';
import { usePageFleet } from '@/hooks/use-page-fleet';
import type { SignedInIdentity } from './signed-in-menu-dropdown';
import classes from './signed-in-menu.module.css';

/**
 * How many narrow characters the header gives the name and the line under it. Text is fitted to
 * this in whole words (fitText), never cut by CSS in the middle of one; on a phone the name takes
 * a smaller font and up to two lines instead of a shorter text, so every width shows the same words.
 */
const TEXT_BUDGET = 28;
/** The line under the name is smaller (xs) and shown from `sm` up only: it has more room. */
const SECOND_LINE_BUDGET = 40;
/** The lifetime joins the line under the name only when it is short enough to act on. */
const LIFETIME_SHOWN_BELOW_S = 5 * 60;

const loadMenu = async () => (await import('./signed-in-menu-dropdown')).SignedInMenuDropdown;

/**
 * Who is signed in, in the header: the person's name where an OpenID sign-in brought an ID token
 * (else the user id) and the role; the menu holds the rest (user id, subject, issuer, provider,
 * expiry) and the ways to switch user or sign out.
 */
export function SignedInMenu() {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const token = useSyncExternalStore(subscribeAccessToken, readAccessToken);
  const hasToken = token !== undefined;
  const claims = (() => {
    if (token === undefined) return undefined;
    const decoded = decodeToken(token);
    return decoded.kind === 'jwt' ? decoded.claims : undefined;
  })();
  const providerId = useSyncExternalStore(subscribeAccessToken, readSignInProviderId);
  const providers = useQuery({
    ...signInProviderQueries.list(),
    enabled: providerId !== undefined,
    meta: { errorDisplay: 'inline' },
  });
  const provider = providers.data?.find((candidate) => candidate.id === providerId);
  const personName = useQuery({
    ...signInProviderQueries.personName(provider, claims?.subject),
    meta: { errorDisplay: 'inline' },
  }).data;
  const lifetime = useTokenLifetime();
  // In a fleet, signing in is per participant: the menu says on which one.
  const participant = usePageFleet()?.current.name;

  const userId = caller.data?.kind === 'user' ? caller.data.userId : undefined;
  const subject = claimText(claims?.subject);
  const label = (() => {
    if (personName) return personName;
    if (caller.isPending) return '…';
    // The participant does not answer: that says nothing about who is signed in.
    if (caller.isError && isParticipantUnreachable(caller.error)) {
      return hasToken ? (subject ?? 'Signed in') : 'No token';
    }
    if (caller.isError) return 'Not signed in';
    if (caller.data.kind === 'unidentified') return hasToken ? 'Token without user' : 'No token';
    return caller.data.userId;
  })();
  const role = caller.data === undefined ? undefined : roleOf(caller.data);
  const identityProviderOf = (id: string) => (id === '' ? 'default IdP' : id);
  const identityProvider =
    caller.data?.kind === 'user'
      ? identityProviderOf(caller.data.identityProviderId)
      : provider && identityProviderOf(provider.identityProviderId);
  const lifetimeText = lifetime === undefined ? undefined : describeLifetime(lifetime);
  const expiresAt =
    claims?.expiresAt === undefined ? undefined : formatExactTime(claims.expiresAt * 1000);
  // The lifetime, when shown, is never the part left out: the role gives way to it.
  const shortLifetime =
    lifetime !== undefined && lifetimeText !== undefined && lifetime < LIFETIME_SHOWN_BELOW_S
      ? lifetimeText
      : undefined;
  const shownLabel = fitText(label, TEXT_BUDGET);
  const shownSecondLine =
    role === undefined
      ? undefined
      : shortLifetime === undefined
        ? fitText(role, SECOND_LINE_BUDGET)
        : `${fitText(role, SECOND_LINE_BUDGET - shortLifetime.length - 3)} · ${shortLifetime}`;
  // WCAG 2.5.3: the name holds what is shown, in the order shown, and adds the rest in brackets
  // (which label-in-name matching leaves out).
  const shown = [shownLabel, shownSecondLine].filter(Boolean).join(', ');
  const extra = [
    shownLabel !== label ? label : undefined,
    userId !== undefined && userId !== label ? `user ${userId}` : undefined,
    participant === undefined ? undefined : `on participant ${participant}`,
  ].filter((part): part is string => part !== undefined);
  const accessibleName = `Signed in: ${shown}${extra.length > 0 ? ` (${extra.join('; ')})` : ''}`;
  const details = [
    participant !== undefined && `Participant: ${participant}`,
    personName && personName !== userId && `Name: ${personName}`,
    userId !== undefined && `User id: ${userId}`,
    subject !== undefined && subject !== userId && `Subject: ${subject}`,
    claims?.issuer !== undefined && `Issuer: ${claimText(claims.issuer) ?? ''}`,
    role,
    lifetimeText !== undefined &&
      `Token ${lifetimeText}${expiresAt === undefined ? '' : ` (at ${expiresAt})`}`,
  ].filter((line): line is string => typeof line === 'string' && line !== '');

  const identity: SignedInIdentity = {
    personName: personName && personName !== userId ? personName : undefined,
    participant,
    userId,
    subject: subject !== undefined && subject !== userId ? subject : undefined,
    issuer: claimText(claims?.issuer),
    role,
    through: provider
      ? `${provider.name}${identityProvider ? ` · ${identityProvider}` : ''}`
      : identityProvider && `Token · ${identityProvider}`,
    token: lifetimeText && `${lifetimeText}${expiresAt === undefined ? '' : ` (at ${expiresAt})`}`,
  };
  const myUserHref =
    caller.data?.kind === 'user'
      ? paths.user.to(caller.data.userId, caller.data.identityProviderId)
      : undefined;

  const trigger = (
    <Button
      variant="subtle"
      size="compact-sm"
      aria-label={accessibleName}
      title={details.join('\n')}
      h="auto"
      py={2}
      // The content decides the width: each text is fitted in words, never clipped.
      styles={{ label: { overflow: 'visible' } }}
    >
      <Stack gap={0} align="flex-end">
        {/* The space keeps the two lines two words in the text the name is compared with. */}
        <Text size="sm" className={classes.name}>
          {shownLabel}
        </Text>{' '}
        {shownSecondLine !== undefined && (
          <Text size="xs" c="dimmed" visibleFrom="sm" className={classes.name}>
            {shownSecondLine}
          </Text>
        )}
      </Stack>
    </Button>
  );
  return (
    <LazyMenu trigger={trigger} load={loadMenu} menuProps={{ identity, myUserHref, hasToken }} />
  );
}

function roleOf(caller: Caller): string {
  if (caller.kind === 'unidentified') return 'No authentication required';
  const access = accessOf(caller);
  if (access.isParticipantAdmin) return 'Participant admin';
  if (access.administeredIdentityProviderId !== undefined) {
    return `IdP admin of ${access.administeredIdentityProviderId}`;
  }
  return 'User';
}
