import { Alert, List, Text } from '@mantine/core';
import { rightKey, type UserRight } from '@/lib/access/access-rights';
import { describeRight } from '@/lib/access/right-names';

/** What a grant or revoke asked for, and what the server reports it actually changed. */
export type RightsChange = {
  action: 'grant' | 'revoke';
  requested: readonly UserRight[];
  changed: readonly UserRight[];
};

export type RightsChangeReportProps = {
  change: RightsChange;
  onClose: () => void;
};

/**
 * The server's answer in words. Grant and revoke are idempotent and report only what they
 * changed (newlyGrantedRights / newlyRevokedRights), so "nothing changed" is said explicitly.
 */
export function RightsChangeReport({ change, onClose }: RightsChangeReportProps) {
  const changedKeys = new Set(change.changed.map(rightKey));
  const unchanged = change.requested.filter((right) => !changedKeys.has(rightKey(right)));
  const isGrant = change.action === 'grant';
  const title =
    change.changed.length === 0 ? 'No change' : isGrant ? 'Rights granted' : 'Rights revoked';

  return (
    <Alert
      role="status"
      color={change.changed.length === 0 ? 'gray' : 'green'}
      title={title}
      withCloseButton
      closeButtonLabel="Dismiss report"
      onClose={onClose}
    >
      {change.changed.length === 0 ? (
        <Text size="sm">
          {isGrant
            ? 'No change: the user already had these rights.'
            : 'No change: the user did not have these rights.'}
        </Text>
      ) : (
        <List size="sm" spacing={2}>
          {change.changed.map((right) => (
            <List.Item key={rightKey(right)}>
              {isGrant ? 'Granted' : 'Revoked'}: {describeRight(right)}
            </List.Item>
          ))}
          {unchanged.map((right) => (
            <List.Item key={rightKey(right)}>
              {isGrant ? 'Already had' : 'Did not have'}: {describeRight(right)}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
