import { createContext } from 'react';

/**
 * Whether the participant answers its health checks, as the app's header polls them. Sections
 * waiting for it ({@link UnreachableNote}) retry when it turns true again.
 */
export const ParticipantReachabilityContext = createContext<boolean>(true);
