import { useNavigate, useSearchParams } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { AllocateExternalPartyForm } from '@/features/parties/allocate-external-party-form';
import { parseExternalPartyPrefill } from '@/features/parties/external-party-form-schema';
import { paths } from '@/app/paths';

export function NewExternalPartyPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // The party page's "Host on another synchronizer…": an existing party, its hint, where next.
  const prefill = parseExternalPartyPrefill(search);
  return (
    <>
      <PageHeader
        title="Allocate external party"
        description="A party whose key you hold: this participant hosts it, and only the key can authorize its transactions."
        back={{ to: paths.parties.to(), label: 'parties' }}
      />
      {/* Another prefill (a link followed from here) starts a fresh form. */}
      <QueryBoundary key={search.toString()}>
        <AllocateExternalPartyForm
          onAllocated={(partyId, identityProviderId) => {
            void navigate(paths.party.to(partyId, identityProviderId));
          }}
          links={{ parties: paths.parties.to() }}
          {...(prefill === undefined ? {} : { prefill })}
        />
      </QueryBoundary>
    </>
  );
}
