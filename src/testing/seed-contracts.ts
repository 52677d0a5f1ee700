import {
  seedActiveIous,
  type SeedIousOptions,
  type SeedIousResult,
} from '../../sandbox/src/scenarios/seed-ious';
import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

/**
 * `count` active Ious of the sandbox's demo package for the active contracts' tests, put on the
 * ledger in a few transactions as the benchmarks do (sandbox/src/scenarios/seed-ious.ts).
 */
export function seedActiveContracts(
  sandbox: Sandbox,
  options: SeedIousOptions,
  token?: string,
): Promise<SeedIousResult> {
  return seedActiveIous(sandboxSteps(sandbox, token), options);
}
