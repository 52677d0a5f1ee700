import type { Context } from 'hono';
import type { Caller } from '../auth/authorizer';

/** Per-request values the middleware sets for the route handlers. */
export type SandboxEnv = {
  Variables: {
    traceId: string;
    caller: Caller;
    /** Logging-context properties that the real server puts into error context. */
    loggingContext: Record<string, string>;
  };
};

export type SandboxContext = Context<SandboxEnv>;
