import { Hono } from 'hono';
import type { SandboxEnv } from '../http/sandbox-env';
import type { Schemas } from '../wire-types';

/** The version the sandbox emulates. */
export const LEDGER_API_VERSION = '3.5.7';

export function healthRoutes() {
  return (
    new Hono<SandboxEnv>()
      // 200 with an empty body (JSON/HealthService.scala).
      .get('/livez', (c) => c.body(null, 200))
      .get('/readyz', (c) => c.text('[+] ledger ok (SERVING)\nreadyz check passed\n', 200))
  );
}

export function versionRoutes() {
  return new Hono<SandboxEnv>().get('/', (c) => {
    const body: Schemas['GetLedgerApiVersionResponse'] = {
      version: LEDGER_API_VERSION,
      features: {
        experimental: {
          staticTime: { supported: false },
          commandInspectionService: { supported: true },
        },
        userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
        partyManagement: { maxPartiesPageSize: 10000 },
        offsetCheckpoint: {
          maxOffsetCheckpointEmissionDelay: {
            seconds: 75,
            nanos: 0,
            unknownFields: { fields: {} },
          },
        },
        packageFeature: { maxVettedPackagesPageSize: 100 },
      },
    };
    return c.json(body);
  });
}
