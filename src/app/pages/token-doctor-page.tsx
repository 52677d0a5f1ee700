import { PageHeader } from '@/components/page-header';
import { TokenDoctorPanel } from '@/features/token-doctor/token-doctor-panel';

export function TokenDoctorPage() {
  return (
    <>
      <PageHeader
        title="Token doctor"
        description="Why a participant refuses a token: it answers every authentication failure with a bare 401 or 403. Paste a token to see what Canton will make of it, and what to fix."
      />
      <TokenDoctorPanel />
    </>
  );
}
