import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useIdentifierHref } from '@/components/identifier-links';
import type { CommandFailure, CommandFix } from './command-error-fixes';
import { shortenIdentifier } from '@/lib/text/format';
import { RIGHT_KIND_INFO } from '@/lib/access/right-names';

export type FailureLinks = {
  uploadDar: () => string;
  /** A user's page, where its rights are granted. */
  user: (userId: string, identityProviderId: string) => string;
};

/** The fixes a form applies itself; links go elsewhere on their own. */
export type InFormFix = Extract<
  CommandFix,
  { kind: 'addActAs' | 'pickTemplate' | 'pickChoice' | 'newCommandId' }
>;

export type CommandFailureAlertProps = {
  failure: CommandFailure;
  /** What did not happen: "Not submitted" (default), "Not prepared". */
  title?: string;
  links: FailureLinks;
  /** The caller's identity provider, where its user lives. */
  identityProviderId: string;
  onApply: (fix: InFormFix) => void;
};

const partyNames = (parties: readonly string[]) => parties.map(shortenIdentifier).join(', ');

/**
 * A failed submission in the user's terms, with the action that fixes it (issue 16 item 3): in
 * the form, next to Submit, where the eye is after submitting.
 */
export function CommandFailureAlert({
  failure,
  title = 'Not submitted',
  links,
  identityProviderId,
  onApply,
}: CommandFailureAlertProps) {
  return (
    <Alert color="red" variant="light" title={title}>
      <Stack gap="xs">
        <Text size="sm">{failure.cause}</Text>
        {failure.fixes.length > 0 && (
          <Group gap="xs">
            {failure.fixes.map((fix) => (
              <FixAction
                key={fixKey(fix)}
                fix={fix}
                links={links}
                identityProviderId={identityProviderId}
                onApply={onApply}
              />
            ))}
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

function fixKey(fix: CommandFix): string {
  switch (fix.kind) {
    case 'addActAs':
      return `${fix.kind}:${fix.parties.join(',')}`;
    case 'grantRight':
      return `${fix.kind}:${fix.right}:${fix.parties.join(',')}`;
    case 'pickTemplate':
    case 'pickChoice':
      return `${fix.kind}:${String(fix.commandIndex)}`;
    case 'openContract':
      return `${fix.kind}:${fix.contractId}`;
    default:
      return fix.kind;
  }
}

function FixAction({
  fix,
  links,
  identityProviderId,
  onApply,
}: {
  fix: CommandFix;
  links: FailureLinks;
  identityProviderId: string;
  onApply: (fix: InFormFix) => void;
}) {
  switch (fix.kind) {
    case 'addActAs':
    case 'newCommandId':
    case 'pickTemplate':
    case 'pickChoice':
      return (
        <Button
          size="xs"
          // The fixes that make the command pass as it stands lead; the pickers only help.
          variant={fix.kind === 'addActAs' || fix.kind === 'newCommandId' ? 'filled' : 'default'}
          onClick={() => {
            onApply(fix);
          }}
        >
          {inFormLabel(fix)}
        </Button>
      );
    case 'uploadDar':
      return (
        <Button size="xs" variant="default" component={Link} to={links.uploadDar()}>
          Upload a DAR
        </Button>
      );
    case 'grantRight':
      return (
        <Button
          size="xs"
          variant="default"
          component={Link}
          to={links.user(fix.userId, identityProviderId)}
        >
          Grant {RIGHT_KIND_INFO[fix.right].label} for {partyNames(fix.parties)} to {fix.userId}
        </Button>
      );
    case 'openContract':
      return <OpenContract contractId={fix.contractId} />;
  }
}

function inFormLabel(fix: InFormFix): string {
  switch (fix.kind) {
    case 'addActAs':
      return `Add ${partyNames(fix.parties)} to Act as`;
    case 'newCommandId':
      return 'Generate a new command id';
    case 'pickTemplate':
      return 'Pick a template from the catalog';
    case 'pickChoice':
      return 'Pick one of its choices';
  }
}

function OpenContract({ contractId }: { contractId: string }) {
  const href = useIdentifierHref('contract', contractId);
  if (!href) return null;
  return (
    <Anchor component={Link} to={href} size="sm">
      Open contract {shortenIdentifier(contractId)}
    </Anchor>
  );
}
