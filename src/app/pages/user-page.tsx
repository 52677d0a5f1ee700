import { Badge, Stack } from '@mantine/core';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { prefetch } from '@/api/prefetch';
import { sessionQueries } from '@/api/session';
import { userQueries, type UserRef } from '@/api/users';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { RecentActivity } from '@/features/activity/recent-activity';
import { UserAccessCheck } from '@/features/users/user-access-check';
import { UserDetail, type UserDetailLinks } from '@/features/users/user-detail';
import { userTabOf } from '@/features/users/user-tabs';
import { UserOffboarding } from '@/features/users/user-offboarding';
import { canListUserRights } from '@/features/users/user-rights-access';
import { accessOf } from '@/lib/access/access-rights';
import { idFromRouteSegment, paths } from '@/app/paths';

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
  // The tab is in the URL (?tab=rights), so reload, back and links restore it.
  const tab = userTabOf(search.get('tab'));
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
            setSearch((current) => {
              const params = new URLSearchParams(current);
              if (next === 'profile') params.delete('tab');
              else params.set('tab', next);
              return params;
            });
          }}
          links={links}
          onDeleted={() => {
            void navigate(paths.users.to());
          }}
          onMoved={(target) => {
            const to = paths.user.to(userId, target);
            const withTab =
              tab === 'profile' ? to : `${to}${to.includes('?') ? '&' : '?'}tab=${tab}`;
            void navigate(withTab, { replace: true });
          }}
        />
      </QueryBoundary>
      <Stack gap="lg" mt="lg">
        <QueryBoundary key={`access/${identityProviderId}/${userId}`}>
          <UserAccessCheck userRef={userRef} links={links} />
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
