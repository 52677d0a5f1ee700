import { env } from '@/env';
import { useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { OnboardPerson } from '@/features/onboarding/onboard-person';
import { ACCESS_REQUEST_LIMITS } from '@/lib/access/access-request';
import { paths } from '@/app/paths';

export function OnboardPage() {
  const [searchParams] = useSearchParams();
  // From an access request: bounded here, then checked by the form like anything typed.
  const subject = searchParams.get('sub')?.slice(0, 1024);
  const displayName = searchParams.get('name')?.slice(0, ACCESS_REQUEST_LIMITS.name);
  const identityProviderId = searchParams.get('idp')?.slice(0, 255);
  const requestedAccess = searchParams
    .get('access')
    ?.slice(0, ACCESS_REQUEST_LIMITS.requestedAccess)
    .trim();
  return (
    <>
      <PageHeader
        title="Onboard a person"
        description="A user for their subject at the identity provider, their party and least-privilege rights, planned call by call before anything is sent."
      />
      <QueryBoundary>
        <OnboardPerson
          prefill={{
            ...(subject ? { subject } : {}),
            ...(displayName ? { displayName } : {}),
            ...(identityProviderId ? { identityProviderId } : {}),
          }}
          {...(requestedAccess ? { requestedAccess } : {})}
          signInUrl={`${window.location.origin}${env.PAGE_BASE}${paths.signIn.to()}`}
          cancelHref={paths.users.to()}
        />
      </QueryBoundary>
    </>
  );
}
