import { idStringProblem, PARTY_STRING } from '@ledger-console/participant/identifiers';
import { Button, Radio, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { sessionQueries } from '@/api/session';
import { toWireRight, userMutations, userQueries } from '@/api/users';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { notify } from '@/components/feedback/notify';
import { PartyInput } from '@/pickers/party-select';
import { accessOf, type Caller, type UserRight } from '@/lib/access/access-rights';
import { describeRight, RIGHT_KIND_INFO } from '@/lib/access/right-names';
import { idStringProblemText } from '@/lib/forms/id-string-problem-text';
import { shortenIdentifier } from '@/lib/text/format';
import { buttonBusy } from '@/components/form/button-busy';

type CallerUser = Extract<Caller, { kind: 'user' }>;

export type GrantReadAccessProps = {
  /** The signed-in user, who may grant rights to itself (an admin). */
  caller: CallerUser;
};

/**
 * For an admin who reads no party: grant its own user a read right here, with what the right
 * means, behind a confirmation. The grant refreshes who the caller is, so the page behind loads.
 */
export function GrantReadAccess({ caller }: GrantReadAccessProps) {
  const access = accessOf(caller);
  const mayReadAny = access.canGrant('CanReadAsAnyParty');
  const [scope, setScope] = useState<'party' | 'any'>('party');
  const [party, setParty] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const grant = useMutation({
    ...userMutations.grantRights(),
    // Who the caller is decides what every page reads: ask again once the right is there.
    meta: {
      ...userMutations.grantRights().meta,
      errorDisplay: 'inline',
      invalidates: [userQueries.all(), sessionQueries.all()],
    },
  });
  const trimmed = party.trim();
  const right: UserRight =
    scope === 'any' ? { kind: 'CanReadAsAnyParty' } : { kind: 'CanReadAs', party: trimmed };

  const confirm = () => {
    // The participant's own rule for party strings, checked before anything is asked.
    const partyProblem =
      scope === 'party'
        ? idStringProblemText(idStringProblem(PARTY_STRING, trimmed), {
            empty: 'Pick or type the party whose contracts you want to read',
            noun: 'party id',
            showsLength: true,
            allowed: ' (a party id holds letters, digits, ":", "-", "_" and spaces)',
          })
        : undefined;
    if (partyProblem !== undefined) {
      setProblem(partyProblem);
      return;
    }
    setProblem(undefined);
    const target = scope === 'any' ? 'every party' : shortenIdentifier(trimmed);
    confirmDanger({
      title: `Grant yourself ${RIGHT_KIND_INFO[right.kind].label}?`,
      color: 'blue',
      confirmLabel: `Grant ${RIGHT_KIND_INFO[right.kind].label}`,
      body: (
        <Stack gap="xs">
          <Text size="sm">
            Your user {caller.userId} gets the right {describeRight(right)}.
          </Text>
          <Text size="sm">
            {RIGHT_KIND_INFO[right.kind].help} It lets this user read {target}&apos;s contracts and
            transactions from now on, here and through any application signed in as it; it grants no
            right to act.
          </Text>
          <Text size="sm" c="dimmed">
            Revoke it on your user&apos;s page (Rights) when you no longer need it.
          </Text>
        </Stack>
      ),
      onConfirm: () => {
        grant
          .mutateAsync({
            userId: caller.userId,
            identityProviderId: caller.identityProviderId,
            rights: [toWireRight(right)],
          })
          .then(
            () => {
              notify.success(`${describeRight(right)} granted to ${caller.userId}`);
            },
            // Shown below the button (the mutation's error).
            () => undefined,
          );
      },
    });
  };

  return (
    <Stack gap="sm" w="100%" maw={560}>
      <Text size="sm" fw={600}>
        You may grant your user a read right here:
      </Text>
      <Radio.Group
        value={scope}
        onChange={(value) => {
          setScope(value === 'any' ? 'any' : 'party');
        }}
        label="Read as"
      >
        <Stack gap={6} mt={4}>
          <Radio
            value="party"
            label={RIGHT_KIND_INFO.CanReadAs.label}
            description={`${RIGHT_KIND_INFO.CanReadAs.help} Pick the party below.`}
          />
          {mayReadAny && (
            <Radio
              value="any"
              label={RIGHT_KIND_INFO.CanReadAsAnyParty.label}
              description={RIGHT_KIND_INFO.CanReadAsAnyParty.help}
            />
          )}
        </Stack>
      </Radio.Group>
      {scope === 'party' && (
        <PartyInput
          label="Party to read as"
          value={party}
          onChange={(value) => {
            setParty(value.slice(0, 512));
            setProblem(undefined);
          }}
          identityProviderId={access.administeredIdentityProviderId ?? ''}
          error={problem}
          maxLength={512}
          showCheck
        />
      )}
      <Button
        variant="light"
        loading={buttonBusy(grant.isPending)}
        onClick={confirm}
        style={{ alignSelf: 'flex-start' }}
      >
        Grant {RIGHT_KIND_INFO[right.kind].label}…
      </Button>
      {grant.error !== null && <ErrorAlert error={grant.error} />}
    </Stack>
  );
}
