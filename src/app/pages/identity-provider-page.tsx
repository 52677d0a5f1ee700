import type { QueryClient } from '@tanstack/react-query';

export function identityProviderPageLoader(_queryClient: QueryClient) {
  return () => null;
}

// TODO(#4): replaced by the real page.
export function IdentityProviderPage() {
  return null;
}
