import type { QueryClient } from '@tanstack/react-query';

export function userPageLoader(_queryClient: QueryClient) {
  return () => null;
}

// TODO(#4): replaced by the real page.
export function UserPage() {
  return null;
}
