import { Anchor } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import { AllocatePartyForm } from '@/features/parties/allocate-party-form';
import { paths } from '@/app/paths';

export function NewPartyPage() {
  const navigate = useNavigate();
  return (
    <>
      <Anchor component={Link} to={paths.parties.to()} size="sm" mb="xs" display="block">
        ← Parties
      </Anchor>
      <PageHeader
        title="Allocate party"
        description="A new party hosted on this participant, with its identity provider and metadata."
      />
      <QueryBoundary>
        <AllocatePartyForm
          onAllocated={(party) => {
            // The IdP goes along, so the party page need not look for it.
            void navigate(paths.party.to(party.party, party.identityProviderId ?? ''));
          }}
        />
      </QueryBoundary>
    </>
  );
}
