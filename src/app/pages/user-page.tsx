import { Badge } from '@mantine/core';
import { lazy } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { userQueries, type UserRef } from '@/api/users';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { UserDetail, type UserDetailLinks } from '@/features/users/user-detail';
import { withUserTab } from '@/features/users/user-tabs';
import { canListUserRights } from '@/features/users/user-rights-access';
import { accessOf } from '@/lib/access/access-rights';
import { idFromRouteSegment, paths } from '@/app/paths';
import { auditMentionsSearch } from '@/lib/activity/audit-log';

// The Activity tab's content loads when that tab is first opened.
const RecentActivity = lazy(() =>
  import('@/features/activity/recent-activity').then((module) => ({
    default: module.RecentActivity,
  })),
);

const links: UserDetailLinks = { user: paths.user.to, newUser: paths.newUser.to };

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
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const userRef = userRefOf(params.userId, search);
  const { userId, identityProviderId } = userRef;
  // The tab is in the URL (?tab=rights), so reload, back and links restore it; none = Profile.
  const tab = search.get('tab');
  const { data: loaded } = useQuery({ ...userQueries.detail(userRef), enabled: false });

  return (
    <>
      <PageHeader
        title={userId}
        description={
          identityProviderId === ''
            ? 'User of the default identity provider'
            : `User of identity provider ${identityProviderId}`
        }
        back={{ to: paths.users.to(), label: 'users' }}
        {...(loaded === undefined
          ? {}
          : {
              badges: loaded.isDeactivated ? (
                <Badge color="gray" variant="light">
                  Deactivated
                </Badge>
              ) : (
                <Badge color="green" variant="light">
                  Active
                </Badge>
              ),
            })}
      />
      {/* Another user, or the same one after a move, starts with fresh forms. */}
      <QueryBoundary
        key={`${identityProviderId}/${userId}`}
        notFound={{
          what: 'user',
          id: userId,
          ...(identityProviderId === ''
            ? {}
            : { scope: `in identity provider ${identityProviderId}` }),
          back: { to: paths.users.to(), label: 'users' },
        }}
      >
        <UserDetail
          userRef={userRef}
          tab={tab}
          onTabChange={(next) => {
            setSearch((current) => withUserTab(current, next));
          }}
          links={links}
          activity={
            <QueryBoundary>
              <RecentActivity
                subject={{ kind: 'user', userId, identityProviderId }}
                activityHref={`${paths.activity.to()}${auditMentionsSearch(userId)}`}
              />
            </QueryBoundary>
          }
          onDeleted={() => {
            void navigate(paths.users.to());
          }}
          onMoved={(target) => {
            const to = paths.user.to(userId, target);
            const withTab =
              tab === null
                ? to
                : `${to}${to.includes('?') ? '&' : '?'}tab=${encodeURIComponent(tab)}`;
            void navigate(withTab, { replace: true });
          }}
        />
      </QueryBoundary>
    </>
  );
}
