import { Box, Menu, Text } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import type { LazyMenuBodyProps } from '@/components/lazy-menu';
import { useSignOut } from '@/features/session/use-sign-in';
import { paths } from '@/app/paths';

/** What the menu says of who is signed in; each line is left out when undefined or empty. */
export type SignedInIdentity = {
  /** Shown in bold above the lines, when an ID token named a person other than the user id. */
  personName: string | undefined;
  participant: string | undefined;
  userId: string | undefined;
  subject: string | undefined;
  issuer: string | undefined;
  role: string | undefined;
  through: string | undefined;
  token: string | undefined;
};

export type SignedInMenuDropdownProps = LazyMenuBodyProps & {
  identity: SignedInIdentity;
  /** The signed-in user's own page, when the caller is a user. */
  myUserHref: string | undefined;
  hasToken: boolean;
};

/**
 * The signed-in menu itself, loaded when the header's button is first wanted (LazyMenu).
 */
export function SignedInMenuDropdown({
  trigger,
  identity,
  myUserHref,
  hasToken,
  isOpenedOnMount,
}: SignedInMenuDropdownProps) {
  const { personName, participant, userId, subject, issuer, role, through, token } = identity;
  const hasDetails = [personName, participant, userId, subject, issuer, role, through, token].some(
    (line) => line !== undefined && line !== '',
  );

  return (
    <Menu position="bottom-end" withinPortal defaultOpened={isOpenedOnMount}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown maw={360}>
        {hasDetails && (
          <Box px="sm" py={6} aria-label="Signed-in identity" role="group">
            {personName && (
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {personName}
              </Text>
            )}
            <IdentityLine label="Participant" value={participant} />
            <IdentityLine label="User id" value={userId} />
            <IdentityLine label="Subject" value={subject} />
            <IdentityLine label="Issuer" value={issuer} />
            <IdentityLine label="Role" value={role} />
            <IdentityLine label="Through" value={through} />
            <IdentityLine label="Token" value={token} />
          </Box>
        )}
        {hasDetails && <Menu.Divider />}
        {myUserHref !== undefined && (
          <Menu.Item component={Link} to={myUserHref}>
            My user
          </Menu.Item>
        )}
        <SignInElsewhereItem />
        {hasToken && <SignOutItem />}
      </Menu.Dropdown>
    </Menu>
  );
}

/** One fact of the identity in the menu; long values wrap anywhere, as ids must be read whole. */
function IdentityLine({ label, value }: { label: string; value: string | undefined }) {
  if (value === undefined || value === '') return null;
  return (
    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
      {label}:{' '}
      <Text span size="xs" c="var(--mantine-color-text)">
        {value}
      </Text>
    </Text>
  );
}

/** Reads the location only while the menu is open, so navigations do not re-render the header. */
function SignInElsewhereItem() {
  const { pathname, search } = useLocation();
  return (
    <Menu.Item component={Link} to={paths.signIn.to(`${pathname}${search}`)}>
      Sign in as someone else
    </Menu.Item>
  );
}

function SignOutItem() {
  const navigate = useNavigate();
  const signOut = useSignOut(() => void navigate(paths.signIn.to()));
  return (
    <Menu.Item color="red" onClick={() => void signOut()}>
      Sign out
    </Menu.Item>
  );
}
