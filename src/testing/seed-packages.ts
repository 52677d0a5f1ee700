import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeDar, templatePackageSpec } from '@daml-lf/encode-package';
import type { DamlType, Field, PrimType } from '@daml-lf/package-model';
import type { Sandbox } from './sandbox-network';

/** The Canton team's DARs, read in place (never copied into the repo). */
export const FIXTURE_DARS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../shared/fixtures/dars',
);

export const PING_DAR = 'canton-builtin-admin-workflow-ping.dar';
/** The ping DAR's main package: `canton-builtin-admin-workflow-ping` 3.4.0. */
export const PING_MAIN_PACKAGE_ID =
  'de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54';
export const PARTY_REPLICATION_DAR = 'canton-builtin-admin-workflow-party-replication-alpha.dar';
export const ILLFORMED_DAR = 'illformed.dar';
/**
 * The Daml team's definitions-service DAR. Its dependency `DamlDefinitionsServiceDep` 3.4.0 holds
 * what the other fixtures lack: template keys, non-consuming choices and an interface.
 */
export const DEFINITIONS_DAR = 'DamlDefinitionsServiceMain.dar';
/** `DamlDefinitionsServiceDep` 3.4.0, module `ExternalDep`, a dependency of `DEFINITIONS_DAR`. */
export const DEFINITIONS_DEP_PACKAGE_ID =
  '8647afd5a9d03559ca543929fd840e28dfe8c76cd495f049d9df781c5ac387ee';

export function fixtureDarBytes(name: string): Uint8Array<ArrayBuffer> {
  // A copy into a plain ArrayBuffer: Node's file buffers may share a pooled one.
  return new Uint8Array(readFileSync(path.join(FIXTURE_DARS_DIR, name)));
}

/** A fixture DAR as the file a user would pick or drop. */
export function fixtureDarFile(name: string): File {
  return new File([fixtureDarBytes(name)], name, { type: 'application/octet-stream' });
}

/** Uploads a fixture DAR through the sandbox's own endpoint; fails the test if it is refused. */
export async function seedDar(
  sandbox: Sandbox,
  name: string,
  { vetAllPackages = true, token }: { vetAllPackages?: boolean; token?: string } = {},
): Promise<void> {
  const headers = new Headers({ 'Content-Type': 'application/octet-stream' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await sandbox.fetch(
    new Request(`http://localhost:3000/v2/dars?vetAllPackages=${String(vetAllPackages)}`, {
      method: 'POST',
      headers,
      body: fixtureDarBytes(name),
    }),
  );
  if (!response.ok) {
    throw new Error(
      `uploading ${name} answered ${String(response.status)}: ${await response.text()}`,
    );
  }
}

const lf = (prim: PrimType, ...args: DamlType[]): DamlType => ({ kind: 'prim', prim, args });
const lfField = (name: string, type: DamlType): Field => ({ name, type });

/** `upgrade-demo` at `version`, with one template `Asset` of these fields. */
function upgradeDemo(version: string, fields: Field[]) {
  return templatePackageSpec({
    name: 'upgrade-demo',
    version,
    templates: [{ name: 'Asset', fields }],
  });
}

/**
 * Two versions of a small package, `upgrade-demo`: 1.0.0 and a 2.0.0 that drops one of Asset's
 * fields, which is not a valid smart-contract upgrade. Real DARs, built by the sandbox's encoder.
 */
export async function incompatibleUpgradeDars() {
  const owner = lfField('owner', lf('PARTY'));
  const v1 = await encodeDar([upgradeDemo('1.0.0', [owner, lfField('amount', lf('INT64'))])]);
  const v2 = await encodeDar([upgradeDemo('2.0.0', [owner])]);
  // Copies backed by a plain ArrayBuffer, which is what Request and File bodies take.
  return {
    v1: { bytes: new Uint8Array(v1.bytes), packageId: v1.packageIds[0] ?? '' },
    v2: { bytes: new Uint8Array(v2.bytes), packageId: v2.packageIds[0] ?? '' },
  };
}
