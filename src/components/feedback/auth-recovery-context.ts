import { createContext, type ReactNode } from 'react';

/** What a refused request (401/403) shows: the app knows the caller and the way to sign in. */
export type AuthStateRenderer = (
  status: number,
  options: {
    /** A whole section or page was refused (a state panel), or one action was (a line). */
    placement: 'section' | 'inline';
    /** The right the refused request needs, in the console's words. */
    need?: string;
  },
) => ReactNode;

/** Provided by the app (components know nothing of routes and sessions). */
export const AuthRecoveryContext = createContext<AuthStateRenderer | undefined>(undefined);
