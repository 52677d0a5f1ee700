import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { SignInPanel } from '@/features/session/sign-in-panel';
import { paths } from '@/app/paths';

/**
 * Only same-origin paths are followed after signing in. Resolved as a URL, so `//host`, `/\host`
 * and the like, which browsers read as other origins, fall back to the overview.
 */
function safeReturnPath(from: string | null): string {
  if (!from?.startsWith('/')) return paths.overview.to();
  const url = new URL(from, window.location.origin);
  if (url.origin !== window.location.origin || url.pathname.startsWith(paths.signIn.pattern)) {
    return paths.overview.to();
  }
  return `${url.pathname}${url.search}${url.hash}`;
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
