import { createContext, type ReactNode } from 'react';

/**
 * What an error shows when the participant refused the caller (401/403): the app provides a way to
 * sign in again, since components know nothing of routes.
 */
export const AuthRecoveryContext = createContext<((status: number) => ReactNode) | undefined>(
  undefined,
);
