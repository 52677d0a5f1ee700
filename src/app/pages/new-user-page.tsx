import { useNavigate, useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { CreateUserForm } from '@/features/users/create-user-form';
import { paths } from '@/app/paths';

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
      />
      <QueryBoundary>
        <CreateUserForm
          initialValues={{
            ...(userId ? { userId } : {}),
            ...(identityProviderId ? { identityProviderId } : {}),
          }}
          onCreated={(user) => {
            void navigate(paths.user.to(user.id, user.identityProviderId));
          }}
        />
      </QueryBoundary>
    </>
  );
}
