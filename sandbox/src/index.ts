/**
 * The sandbox's front door: everything outside `sandbox/` (the console server, the SPA's test
 * helpers, e2e, benchmarks) imports the sandbox from here, never from its inner folders, so those
 * can move without breaking anyone. Loading it loads the whole participant (SQLite included); what
 * a server needs even when it proxies to a real participant (the request guard, body limits) is in
 * the edge package, @ledger-console/edge (ADR 018).
 */
export { createSandbox, type Sandbox, type SandboxOptions } from './create-sandbox';
export { startSandbox, type RunningSandbox } from './start-sandbox';
export {
  createSandboxFleet,
  MAX_FLEET_PARTICIPANTS,
  type FleetMember,
  type SandboxFleet,
  type SandboxFleetOptions,
} from './fleet/create-sandbox-fleet';
export {
  startSandboxFleet,
  type RunningFleetMember,
  type RunningSandboxFleet,
  type StartSandboxFleetOptions,
} from './fleet/start-sandbox-fleet';
export { mintUserToken } from './auth/user-token';
