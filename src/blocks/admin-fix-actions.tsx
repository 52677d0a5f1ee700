import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { sessionQueries } from '@/api/session';
import { activationRequest, getUser, toWireRight, userMutations, userQueries } from '@/api/users';
import { ErrorAlert } from '@/components/feedback/error-alert';
import { notify } from '@/components/feedback/notify';
import {
  identityProviderName,
  type AdminFailure,
  type AdminFix,
} from '@/lib/errors/admin-error-fixes';
import { RIGHT_KIND_INFO } from '@/lib/access/right-names';
import { shortenIdentifier } from '@/lib/text/format';
import { buttonBusy } from '@/components/form/button-busy';

/** The app's routes the fixes link to; features pass the app's paths in. */
export type AdminFixLinks = {
  user: (userId: string, identityProviderId: string) => string;
  newUser: (prefill: { userId: string; identityProviderId: string }) => string;
};

export type AdminFailureAlertProps = {
  failure: AdminFailure;
  links: AdminFixLinks;
  /** Sets the form's identity provider (the "use identity provider" fix). */
  onUseIdentityProvider?: (identityProviderId: string) => void;
  /** A fix that changed something on the participant was applied. */
  onApplied?: (fix: AdminFix) => void;
};

/**
 * A failed admin change in the user's terms, with each fix the caller may take as a button or a
 * link, in the form's error area.
 */
export function AdminFailureAlert({
  failure,
  links,
  onUseIdentityProvider,
  onApplied,
}: AdminFailureAlertProps) {
  return (
    <Alert color="red" variant="light" title="This cannot be done as it stands" role="alert">
      <Stack gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {failure.cause}
        </Text>
        <AdminFixActions
          fixes={failure.fixes}
          links={links}
          {...(onUseIdentityProvider === undefined ? {} : { onUseIdentityProvider })}
          {...(onApplied === undefined ? {} : { onApplied })}
        />
      </Stack>
    </Alert>
  );
}

export type AdminFixActionsProps = {
  fixes: readonly AdminFix[];
  links: AdminFixLinks;
  onUseIdentityProvider?: (identityProviderId: string) => void;
  onApplied?: (fix: AdminFix) => void;
};

/** Each fix as one control: links open a page, buttons change the participant or the form. */
export function AdminFixActions({
  fixes,
  links,
  onUseIdentityProvider,
  onApplied,
}: AdminFixActionsProps) {
  if (fixes.length === 0) return null;
  return (
    <Group gap="sm" wrap="wrap">
      {fixes.map((fix) => (
        <FixControl
          key={JSON.stringify(fix)}
          fix={fix}
          links={links}
          {...(onUseIdentityProvider === undefined ? {} : { onUseIdentityProvider })}
          {...(onApplied === undefined ? {} : { onApplied })}
        />
      ))}
    </Group>
  );
}

function FixControl({
  fix,
  links,
  onUseIdentityProvider,
  onApplied,
}: {
  fix: AdminFix;
  links: AdminFixLinks;
  onUseIdentityProvider?: (identityProviderId: string) => void;
  onApplied?: (fix: AdminFix) => void;
}) {
  switch (fix.kind) {
    case 'openUser':
      return (
        <Anchor
          component={Link}
          to={links.user(fix.userId, fix.identityProviderId)}
          size="sm"
          c="inherit"
          underline="always"
        >
          Open user {fix.userId}
        </Anchor>
      );
    case 'createUser':
      return (
        <Anchor
          component={Link}
          to={links.newUser({ userId: fix.userId, identityProviderId: fix.identityProviderId })}
          size="sm"
          c="inherit"
          underline="always"
        >
          Create user {fix.userId}
        </Anchor>
      );
    case 'useIdentityProvider':
      return onUseIdentityProvider === undefined ? null : (
        <Button
          size="xs"
          variant="light"
          onClick={() => {
            onUseIdentityProvider(fix.identityProviderId);
          }}
        >
          Use {identityProviderName(fix.identityProviderId)}
        </Button>
      );
    case 'moveUser':
    case 'reactivateUser':
    case 'grantRight':
      return <MutatingFix fix={fix} {...(onApplied === undefined ? {} : { onApplied })} />;
  }
}

type MutatingFixKind = Extract<AdminFix, { kind: 'moveUser' | 'reactivateUser' | 'grantRight' }>;

function fixLabel(fix: MutatingFixKind): string {
  switch (fix.kind) {
    case 'moveUser':
      return `Move to ${fix.to === '' ? 'the default identity provider' : fix.to}`;
    case 'reactivateUser':
      return 'Reactivate user';
    case 'grantRight':
      return `Grant ${RIGHT_KIND_INFO[fix.right].label} ${shortenIdentifier(fix.party)} to ${fix.userId}`;
  }
}

/** A fix that changes the participant: one click, its own error, then what it did. */
function MutatingFix({
  fix,
  onApplied,
}: {
  fix: MutatingFixKind;
  onApplied?: (fix: AdminFix) => void;
}) {
  const [done, setDone] = useState(false);
  const meta = { errorDisplay: 'inline' as const };
  const move = useMutation({
    ...userMutations.moveToIdentityProvider(),
    meta: { ...userMutations.moveToIdentityProvider().meta, ...meta },
  });
  const update = useMutation({
    ...userMutations.update(),
    meta: { ...userMutations.update().meta, ...meta },
  });
  const grant = useMutation({
    ...userMutations.grantRights(),
    // The caller may be granting itself, which decides what the console offers it.
    meta: {
      ...userMutations.grantRights().meta,
      ...meta,
      invalidates: [userQueries.all(), sessionQueries.all()],
    },
  });
  const mutation = fix.kind === 'moveUser' ? move : fix.kind === 'grantRight' ? grant : update;
  const label = fixLabel(fix);

  const apply = async () => {
    switch (fix.kind) {
      case 'moveUser':
        await move.mutateAsync({
          userId: fix.userId,
          sourceIdentityProviderId: fix.from,
          targetIdentityProviderId: fix.to,
        });
        notify.success(`User ${fix.userId} moved to ${identityProviderName(fix.to)}`);
        break;
      case 'reactivateUser': {
        const user = await getUser({
          userId: fix.userId,
          identityProviderId: fix.identityProviderId,
        });
        await update.mutateAsync(activationRequest(user, false));
        notify.success(`User ${fix.userId} reactivated`);
        break;
      }
      case 'grantRight':
        await grant.mutateAsync({
          userId: fix.userId,
          identityProviderId: fix.identityProviderId,
          rights: [toWireRight({ kind: fix.right, party: fix.party })],
        });
        notify.success(`${RIGHT_KIND_INFO[fix.right].label} granted to ${fix.userId}`);
        break;
    }
    setDone(true);
    onApplied?.(fix);
  };

  if (done) {
    return (
      <Text size="sm" fw={500} role="status">
        Done: {label.charAt(0).toLowerCase()}
        {label.slice(1)}.
      </Text>
    );
  }
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        variant="light"
        loading={buttonBusy(mutation.isPending)}
        onClick={() => {
          // Failures show below the button (the mutation's error).
          apply().catch(() => undefined);
        }}
      >
        {label}
      </Button>
      {mutation.error !== null && <ErrorAlert error={mutation.error} />}
    </Stack>
  );
}
