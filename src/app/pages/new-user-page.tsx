import { useNavigate, useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { CreateUserForm, type CreateUserFormLinks } from '@/features/users/create-user-form';
import { paths } from '@/app/paths';

const links: CreateUserFormLinks = {
  users: paths.users.to(),
  user: paths.user.to,
  newUser: paths.newUser.to,
};

export function NewUserPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // From an access request link: the form checks these like anything typed.
  const userId = searchParams.get('userId')?.slice(0, 1024);
  const identityProviderId = searchParams.get('idp')?.slice(0, 255);
  return (
    <>
      <PageHeader
        title="Create user"
        description="A user with its profile and rights, created in one request."
        back={{ to: paths.users.to(), label: 'users' }}
      />
      <QueryBoundary>
        <CreateUserForm
          // A prefill link followed from the form itself (a fix) starts a fresh form.
          key={`${userId ?? ''}/${identityProviderId ?? ''}`}
          initialValues={{
            ...(userId ? { userId } : {}),
            ...(identityProviderId ? { identityProviderId } : {}),
          }}
          onCreated={(user) => {
            void navigate(paths.user.to(user.id, user.identityProviderId));
          }}
          links={links}
        />
      </QueryBoundary>
    </>
  );
}
