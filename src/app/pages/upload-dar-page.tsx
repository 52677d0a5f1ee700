import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { UploadDar } from '@/features/packages/upload-dar';
import { paths } from '@/app/paths';

const links = { package: paths.package.to, packages: paths.packages.to() };

export function UploadDarPage() {
  return (
    <>
      <PageHeader
        title="Upload a DAR"
        description="Add the Daml packages of a DAR file to this participant."
        back={{ to: paths.packages.to(), label: 'packages' }}
      />
      <QueryBoundary>
        <UploadDar links={links} />
      </QueryBoundary>
    </>
  );
}
