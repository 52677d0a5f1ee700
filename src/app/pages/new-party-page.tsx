import { useNavigate } from 'react-router';
import { QueryBoundary } from '@/components/feedback/query-boundary';
import { PageHeader } from '@/components/page-header';
import {
  AllocatePartyForm,
  type AllocatePartyFormLinks,
} from '@/features/parties/allocate-party-form';
import { paths } from '@/app/paths';

const links: AllocatePartyFormLinks = {
  parties: paths.parties.to(),
  user: paths.user.to,
  newUser: paths.newUser.to,
};

export function NewPartyPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Allocate party"
        description="A new party hosted on this participant, with its identity provider and metadata."
        back={{ to: paths.parties.to(), label: 'parties' }}
      />
      <QueryBoundary>
        <AllocatePartyForm
          onAllocated={(party) => {
            // The IdP goes along, so the party page need not look for it.
            void navigate(paths.party.to(party.party, party.identityProviderId ?? ''));
          }}
          links={links}
        />
      </QueryBoundary>
    </>
  );
}
