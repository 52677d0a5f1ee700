import { Alert, Button, Checkbox, Group, Stack, Table, Text } from '@mantine/core';
import { useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { sessionQueries } from '@/api/session';
import { toUserRights, toWireRight, userMutations, userQueries, type UserRef } from '@/api/users';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { confirmDanger } from '@/components/feedback/confirm-danger';
import { EmptyState } from '@/components/feedback/empty-state';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { Identifier } from '@/components/identifier';
import { RightName } from '@/components/right-name';
import { SectionCard } from '@/components/section-card';
import { rightKey, type Access, type UserRight } from '@/lib/access/access-rights';
import { RightsChangeReport, type RightsChange } from './rights-change-report';
import { ADMIN_ONLY_EXPLANATION, describeRight, RIGHT_KIND_INFO } from '@/lib/access/right-names';
import { canListUserRights } from './user-rights-access';
import { rightsChangeCommands } from './users-copy-as';
import { RightsList, UserRightsGrantForm } from './user-rights-grant-form';
import { buttonBusy } from '@/components/form/button-busy';

export type UserRightsPanelProps = {
  userRef: UserRef;
  access: Access;
  /** False for a read-only view (a user looking at itself). */
  canEdit: boolean;
};

/** The user's rights, with grant and revoke for callers who administer the user. */
export function UserRightsPanel({ userRef, access, canEdit }: UserRightsPanelProps) {
  const [change, setChange] = useState<RightsChange>();
  const canList = canListUserRights(access, userRef);

  return (
    <Stack gap="lg">
      {change && (
        <RightsChangeReport
          change={change}
          onClose={() => {
            setChange(undefined);
          }}
        />
      )}
      <SectionCard title="Current rights">
        {canList ? (
          <QueryBoundary>
            <CurrentRights
              userRef={userRef}
              access={access}
              canEdit={canEdit}
              onChanged={setChange}
            />
          </QueryBoundary>
        ) : (
          <Alert color="blue" title="The API cannot list these rights">
            This user belongs to the identity provider {userRef.identityProviderId}. The JSON Ledger
            API lists rights only of default identity provider users for a participant admin (its
            rights endpoint takes no identity provider). You can still grant and revoke rights
            below; the server reports what actually changed. To see the list, move the user to the
            default IdP, or sign in as an admin of its IdP.
          </Alert>
        )}
      </SectionCard>
      {canEdit && (
        <SectionCard title="Grant rights">
          <UserRightsGrantForm userRef={userRef} access={access} onChanged={setChange} />
        </SectionCard>
      )}
      {canEdit && !canList && (
        <SectionCard title="Revoke rights">
          <UserRightsGrantForm
            userRef={userRef}
            access={access}
            action="revoke"
            onChanged={setChange}
          />
        </SectionCard>
      )}
    </Stack>
  );
}

type CurrentRightsProps = UserRightsPanelProps & {
  onChanged: (change: RightsChange) => void;
};

function CurrentRights({ userRef, access, canEdit, onChanged }: CurrentRightsProps) {
  const { data: rights } = useSuspenseQuery({
    ...userQueries.rights(userRef),
    select: toUserRights,
  });
  const [selectedKeys, setSelectedKeys] = useState<ReadonlySet<string>>(new Set());
  const revoke = useMutation({
    ...userMutations.revokeRights(),
    // The caller may be revoking its own rights, which decide what the console offers it.
    meta: {
      ...userMutations.revokeRights().meta,
      invalidates: [userQueries.all(), sessionQueries.all()],
    },
  });
  // Rights revoked elsewhere drop out of the selection as soon as the list refreshes.
  const selected = rights.filter((right) => selectedKeys.has(rightKey(right)));

  if (rights.length === 0) {
    return <EmptyState title="No rights" description="This user has no rights yet." />;
  }

  const toggle = (right: UserRight, isChecked: boolean) => {
    const next = new Set(selectedKeys);
    if (isChecked) next.add(rightKey(right));
    else next.delete(rightKey(right));
    setSelectedKeys(next);
  };

  const handleRevoke = () => {
    const count = selected.length === 1 ? 'right' : `${String(selected.length)} rights`;
    confirmDanger({
      title: `Revoke ${count} from ${userRef.userId}?`,
      body: <RightsList intro="These rights will be revoked:" rights={selected} />,
      confirmLabel: `Revoke ${count}`,
      onConfirm: () => {
        revoke.mutate(
          { ...userRef, rights: selected.map(toWireRight) },
          {
            onSuccess: (revoked) => {
              setSelectedKeys(new Set());
              onChanged({ action: 'revoke', requested: selected, changed: toUserRights(revoked) });
            },
          },
        );
      },
    });
  };

  return (
    <Stack gap="sm">
      <Table aria-label={`Rights of ${userRef.userId}`} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {canEdit && (
              <Table.Th w={40}>
                <Text span style={visuallyHidden}>
                  Select
                </Text>
              </Table.Th>
            )}
            <Table.Th>Right</Table.Th>
            <Table.Th>Party</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rights.map((right) => {
            const key = rightKey(right);
            const mayRevoke = access.canGrant(right.kind);
            return (
              <Table.Tr key={key}>
                {canEdit && (
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${describeRight(right)}`}
                      title={mayRevoke ? undefined : ADMIN_ONLY_EXPLANATION}
                      disabled={!mayRevoke}
                      checked={selectedKeys.has(key)}
                      onChange={(event) => {
                        toggle(right, event.currentTarget.checked);
                      }}
                    />
                  </Table.Td>
                )}
                <Table.Td>
                  <Text size="sm">
                    <RightName kind={right.kind} />
                  </Text>
                  <Text size="xs" c="dimmed">
                    {RIGHT_KIND_INFO[right.kind].help}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {'party' in right ? (
                    <Identifier
                      value={right.party}
                      // A name per row: the same party may have several rights.
                      label={`party ${right.party} (${RIGHT_KIND_INFO[right.kind].label} right)`}
                      kind="party"
                    />
                  ) : (
                    <Text size="sm" c="dimmed">
                      Any
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {canEdit && (
        <Group>
          <Button
            color="red"
            variant="light"
            disabled={selected.length === 0}
            loading={buttonBusy(revoke.isPending)}
            onClick={handleRevoke}
          >
            Revoke selected
          </Button>
          <CopyAsMenu
            label="Copy revoke as…"
            commands={() => rightsChangeCommands('revoke', userRef, selected)}
            unavailableReason="Select the rights to revoke first."
          />
          {!rights.every((right) => access.canGrant(right.kind)) && (
            <Text size="xs" c="dimmed">
              {ADMIN_ONLY_EXPLANATION}
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}

// Mantine's VisuallyHidden renders a div, which a table header cell should not need.
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
