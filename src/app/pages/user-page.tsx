import { Anchor, Stack } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import {
  Link,
  useNavigate,
  useParams,
  useSearchParams,
  type LoaderFunctionArgs,
} from 'react-router';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { userQueries, type UserRef } from '@/api/users';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { RecentActivity } from '@/features/activity/recent-activity';
import { UserAccessCheck } from '@/features/users/user-access-check';
import { UserDetail } from '@/features/users/user-detail';
import { UserOffboarding } from '@/features/users/user-offboarding';
import { canListUserRights } from '@/features/users/user-rights-access';
import { accessOf } from '@/lib/access-rights';
import { idFromRouteSegment, paths } from '@/app/paths';

function userRefOf(userId: string | undefined, search: URLSearchParams): UserRef {
  return { userId: idFromRouteSegment(userId), identityProviderId: search.get('idp') ?? '' };
}

/** Starts loading the user and, where the API can list them, its rights; does not wait. */
export function userPageLoader(queryClient: QueryClient) {
  return ({ params, request }: LoaderFunctionArgs) => {
    const userRef = userRefOf(params.userId, new URL(request.url).searchParams);
    void prefetch(queryClient, userQueries.detail(userRef));
    void prefetch(queryClient, sessionQueries.caller()).then((caller) =>
      caller && canListUserRights(accessOf(caller), userRef)
        ? prefetch(queryClient, userQueries.rights(userRef))
        : undefined,
    );
    return null;
  };
}

export function UserPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const userRef = userRefOf(params.userId, search);
  const { userId, identityProviderId } = userRef;

  return (
    <>
      <Anchor component={Link} to={paths.users.to()} size="sm">
        Back to users
      </Anchor>
      <PageHeader
        title={userId}
        description={
          identityProviderId === ''
            ? 'User of the default identity provider'
            : `User of identity provider ${identityProviderId}`
        }
      />
      {/* Another user, or the same one after a move, starts with fresh forms. */}
      <QueryBoundary key={`${identityProviderId}/${userId}`}>
        <UserDetail
          userRef={userRef}
          onDeleted={() => {
            void navigate(paths.users.to());
          }}
          onMoved={(target) => {
            void navigate(paths.user.to(userId, target), { replace: true });
          }}
        />
      </QueryBoundary>
      <Stack gap="lg" mt="lg">
        <QueryBoundary key={`access/${identityProviderId}/${userId}`}>
          <UserAccessCheck userRef={userRef} />
        </QueryBoundary>
        <QueryBoundary key={`offboard/${identityProviderId}/${userId}`}>
          <UserOffboarding
            userRef={userRef}
            onDeleted={() => {
              void navigate(paths.users.to());
            }}
          />
        </QueryBoundary>
        <QueryBoundary key={`activity/${identityProviderId}/${userId}`}>
          <RecentActivity
            subject={{ kind: 'user', userId, identityProviderId }}
            activityHref={paths.activity.to()}
          />
        </QueryBoundary>
      </Stack>
    </>
  );
}
