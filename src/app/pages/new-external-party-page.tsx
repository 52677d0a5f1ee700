import { useNavigate } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { AllocateExternalPartyForm } from '@/features/parties/allocate-external-party-form';
import { paths } from '@/app/paths';

export function NewExternalPartyPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Allocate external party"
        description="A party whose key you hold: this participant hosts it, and only the key can authorize its transactions."
        back={{ to: paths.parties.to(), label: 'parties' }}
      />
      <QueryBoundary>
        <AllocateExternalPartyForm
          onAllocated={(partyId, identityProviderId) => {
            void navigate(paths.party.to(partyId, identityProviderId));
          }}
          links={{ parties: paths.parties.to() }}
        />
      </QueryBoundary>
    </>
  );
}
