import { useNavigate } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { CreateUserForm } from '@/features/users/create-user-form';
import { paths } from '@/app/paths';

export function NewUserPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Create user"
        description="A user with its profile and rights, created in one request."
      />
      <QueryBoundary>
        <CreateUserForm
          onCreated={(user) => {
            void navigate(paths.user.to(user.id, user.identityProviderId));
          }}
        />
      </QueryBoundary>
    </>
  );
}
