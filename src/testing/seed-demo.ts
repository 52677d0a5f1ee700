import { DEMO_PARTY_HINTS, DEMO_USER_IDS, seedDemo } from '../../sandbox/src/testing/index';
import type { Sandbox } from './sandbox-network';

export { DEMO_PARTY_HINTS, DEMO_USER_IDS };

/**
 * Seeds `sandbox` as `npm start` does (`--seed demo`): the IdP, parties, users and ledger history
 * a newcomer explores, so component tests see what the Playwright journeys see. A jwt-mode
 * sandbox needs its secret, to sign each seeding user's requests.
 */
export async function seedDemoLedger(sandbox: Sandbox, { jwtSecret }: { jwtSecret?: string } = {}) {
  const result = await seedDemo(sandbox, jwtSecret === undefined ? {} : { jwtSecret });
  if (!result.seeded) throw new Error(`demo seed skipped: ${result.reason}`);
  return result;
}
