import { Alert, Button, Code, Group, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { sessionQueries } from '@/api/session';
import { PageHeader } from '@/components/page-header';
import { PropertyList } from '@/components/property-list';
import { SectionCard } from '@/components/section-card';
import { parseAccessRequest, type AccessRequest } from '@/lib/access/access-request';
import { accessOf } from '@/lib/access/access-rights';
import { paths } from '@/app/paths';

/**
 * An access request link, opened by whoever received it: its content for review, as plain text,
 * and the way to act on it for an administrator of the person's identity provider.
 */
export function AccessRequestPage() {
  const [searchParams] = useSearchParams();
  const parsed = parseAccessRequest(searchParams);

  return (
    <>
      <PageHeader
        title="Access request"
        description="Someone signed in at their identity provider and asks to be onboarded on this participant. Check it with them before acting: anyone can make such a link."
      />
      {parsed.ok ? (
        <RequestReview request={parsed.request} warnings={parsed.warnings} />
      ) : (
        <Alert color="red" variant="light" title="This link is not a usable access request">
          <List size="sm">
            {parsed.problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
    </>
  );
}

function RequestReview({ request, warnings }: { request: AccessRequest; warnings: string[] }) {
  const caller = useQuery({ ...sessionQueries.caller(), meta: { errorDisplay: 'inline' } });
  const access = caller.data === undefined ? undefined : accessOf(caller.data);
  const idpLabel = request.identityProviderId || 'the default IdP';
  // A participant admin onboards into the default IdP only: through the JSON API it can neither
  // list the rights of nor delete another IdP's users, so it could not check or undo the run.
  const mayOnboard =
    access !== undefined &&
    access.canManageUsers &&
    (access.administeredIdentityProviderId ?? '') === request.identityProviderId;

  return (
    <Stack maw={760}>
      <SectionCard title="Who asks">
        <PropertyList
          items={[
            { label: 'Subject (user id)', value: <Code>{request.subject}</Code> },
            { label: 'Issuer', value: <Code>{request.issuer}</Code> },
            { label: 'Identity provider', value: <Text size="sm">{idpLabel}</Text> },
            ...(request.name
              ? [{ label: 'Name', value: <Text size="sm">{request.name}</Text> }]
              : []),
            ...(request.email
              ? [{ label: 'Email', value: <Text size="sm">{request.email}</Text> }]
              : []),
            ...(request.requestedAccess
              ? [
                  {
                    label: 'Asks for',
                    value: (
                      <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                        {request.requestedAccess}
                      </Text>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </SectionCard>
      {warnings.map((warning) => (
        <Alert key={warning} color="orange" variant="light">
          {warning}
        </Alert>
      ))}
      {mayOnboard ? (
        <Group>
          <Button
            component={Link}
            to={paths.onboard.to({
              subject: request.subject,
              identityProviderId: request.identityProviderId,
              ...(request.name ? { displayName: request.name } : {}),
              ...(request.requestedAccess ? { requestedAccess: request.requestedAccess } : {}),
            })}
          >
            Onboard this person
          </Button>
          <Text size="xs" c="dimmed">
            The onboarding form opens prefilled; you choose the party and rights, and review the
            plan before anything is sent.
          </Text>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {request.identityProviderId
            ? `An IdP admin of ${idpLabel} can onboard this person: open this link signed in as one.`
            : 'A participant admin can onboard this person: open this link signed in as one.'}
        </Text>
      )}
    </Stack>
  );
}
