import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { BulkImport } from '@/features/bulk-import/bulk-import';
import { paths } from '@/app/paths';

export function UsersImportPage() {
  return (
    <>
      <Anchor component={Link} to={paths.users.to()} size="sm">
        Back to users
      </Anchor>
      <PageHeader
        title="Import users"
        description="Onboard many people from a CSV or JSON file: every row is checked and planned before anything runs, and running the same file again changes nothing."
      />
      <QueryBoundary>
        <BulkImport />
      </QueryBoundary>
    </>
  );
}
