import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { SignInPanel } from '@/features/session/sign-in-panel';
import { paths } from '@/app/paths';

/** Only same-app paths are followed after signing in, never another origin. */
function safeReturnPath(from: string | null): string {
  return from?.startsWith('/') && !from.startsWith('//') && !from.startsWith(paths.signIn.pattern)
    ? from
    : paths.overview.to();
}

export function SignInPage() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const returnTo = safeReturnPath(searchParams.get('from'));

  return (
    <>
      <PageHeader
        title="Sign in"
        description="Choose how this console authenticates to the participant. The token stays in this browser."
      />
      <SignInPanel
        onSignedIn={() => {
          void navigate(returnTo);
        }}
      />
    </>
  );
}
