import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconCloudOff,
  IconFileUnknown,
  IconLock,
  IconLogin2,
  type Icon,
} from '@tabler/icons-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';

export type StatePanelProps = {
  icon: Icon;
  color: string;
  title: string;
  children?: ReactNode;
  /** What to do next: links and buttons, the first one the way out. */
  actions?: ReactNode;
};

/**
 * The frame every non-data state shares (docs/design-system.md §States): an icon, a title that
 * says what is the case, a sentence or two, and the way on. A named region, so a screen reader
 * lands on its title.
 */
export function StatePanel({ icon: StateIcon, color, title, children, actions }: StatePanelProps) {
  const titleId = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId} maw={720}>
      <Group align="flex-start" gap="md" wrap="nowrap">
        <ThemeIcon variant="light" color={color} size="lg" radius="xl" aria-hidden>
          <StateIcon size={20} />
        </ThemeIcon>
        <Stack gap="xs" style={{ minWidth: 0 }}>
          <Title order={2} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {children}
          {actions !== undefined && (
            <Group gap="sm" mt={4}>
              {actions}
            </Group>
          )}
        </Stack>
      </Group>
    </Card>
  );
}

export type NotFoundStateProps = {
  /** What was looked for, in the user's words: "user", "package", "identity provider". */
  what: string;
  id: string;
  /** Where it was looked for, when that matters: "in identity provider acme-idp". */
  scope?: string;
  /** The list it would be in. */
  back: { to: string; label: string };
  /** Instead of the standard sentence, where the id is not an id (an offset, say). */
  detail?: string;
};

/** A thing that does not exist here: which id, and where to go instead. No Retry: it would not help. */
export function NotFoundState({ what, id, scope, back, detail }: NotFoundStateProps) {
  return (
    <StatePanel
      icon={IconFileUnknown}
      color="gray"
      title={`No ${what} “${id}”`}
      actions={
        <Button component={Link} to={back.to} variant="light">
          Go to {back.label}
        </Button>
      }
    >
      <Text size="sm">
        {detail ??
          `This participant has no ${what} with this id${scope === undefined ? '' : ` ${scope}`}. It may have been deleted, or the link may hold a typo.`}
      </Text>
    </StatePanel>
  );
}

export type ForbiddenStateProps = {
  /** "You may not see this" unless the page is about doing: "You may not create users". */
  title?: string;
  /** Who the participant took the caller for: "alice (identity provider acme-idp)". */
  who?: ReactNode;
  /** The right this needs, in the console's words: "Participant admin". */
  need?: string;
  /** Who can grant it: "A participant admin". */
  grantedBy?: string;
  actions?: ReactNode;
};

/** Signed in, but refused: who you are, which right is missing, who can grant it. */
export function ForbiddenState({
  title = 'You may not see this',
  who,
  need,
  grantedBy,
  actions,
}: ForbiddenStateProps) {
  return (
    <StatePanel icon={IconLock} color="orange" title={title} actions={actions}>
      {who !== undefined && <Text size="sm">You are signed in as {who}.</Text>}
      <Text size="sm">
        {need === undefined
          ? 'The participant refused: your user lacks the right this needs, or is deactivated.'
          : `This needs the right ${need}, which your user does not have.`}{' '}
        {grantedBy ?? 'A participant admin, or the admin of your identity provider,'} can grant it.
      </Text>
    </StatePanel>
  );
}

export type SignedOutStateProps = {
  /** The sign-in action and the token doctor. */
  actions: ReactNode;
  /**
   * Nobody has tried to sign in from this browser yet: the participant needs a sign-in and was not
   * asked to accept one, so nothing was refused and no refusal is explained.
   */
  isBeforeSignIn?: boolean;
};

/** Nobody (or an unaccepted token) is signed in. */
export function SignedOutState({ actions, isBeforeSignIn = false }: SignedOutStateProps) {
  return (
    <StatePanel icon={IconLogin2} color="blue" title="Sign in to see this" actions={actions}>
      <Text size="sm">
        {isBeforeSignIn
          ? 'This participant shows its data to signed-in users only. Sign in to continue.'
          : 'The participant did not accept a sign-in from this browser: there was none, it expired, or it was not signed by an issuer the participant trusts.'}
      </Text>
    </StatePanel>
  );
}

export type UnreachableNoteProps = {
  onRetry?: () => void;
};

/**
 * A section waiting for a participant that does not answer. Quiet on purpose: the global banner
 * says what is wrong once, instead of every card repeating a red box.
 */
export function UnreachableNote({ onRetry }: UnreachableNoteProps) {
  return (
    <Group gap="sm" role="status" c="dimmed">
      <IconCloudOff size={18} aria-hidden />
      <Text size="sm">Waiting for the participant: this loads when it answers again.</Text>
      {onRetry !== undefined && (
        <Button size="compact-sm" variant="subtle" onClick={onRetry}>
          Retry now
        </Button>
      )}
    </Group>
  );
}
