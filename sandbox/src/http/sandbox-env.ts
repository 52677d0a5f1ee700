import type { Context } from 'hono';
import type { Caller } from '../auth/authorizer';

/** Per-request values the middleware sets for the route handlers. */
export type SandboxEnv = {
  Variables: {
    traceId: string;
    caller: Caller;
    /** Logging-context properties that the real server puts into error context. */
    loggingContext: Record<string, string>;
    /** The RequestInfo id when it differs from the trace id: a command's submission id (§1.5). */
    correlationId: string | undefined;
    /** The body limit of this request (body-limit.ts), for bodies read outside the fetch Request. */
    maxBodyBytes: number;
  };
};

export type SandboxContext = Context<SandboxEnv>;
