import { describe, expect, it } from 'vitest';
import { packageDependencies } from '@/api/packages';
import { updateVettingBody } from '@/api/package-vetting';
import { darUploadPath } from '@/api/dars';
import { toCurl } from '@/lib/text/copy-as';
import { darUploadCopyAs, vettingCopyAs } from './package-copy-as';

const PACKAGE_ID = 'ab'.repeat(32);
const SYNCHRONIZER = 'local::1220cd';

describe('darUploadCopyAs', () => {
  it('copies the upload’s path and query, with the file as the body', () => {
    const commands = darUploadCopyAs({ synchronizerId: '', vetAllPackages: true }, 'finance.dar');

    expect(commands.request).toEqual({
      method: 'POST',
      path: '/v2/dars?vetAllPackages=true',
      file: { name: 'finance.dar', contentType: 'application/octet-stream' },
    });
    // The same path the upload itself opens.
    expect(commands.request.path).toBe(darUploadPath({ synchronizerId: '', vetAllPackages: true }));
    expect(toCurl(commands.request, 'https://console.example')).toBe(
      [
        `curl -sS -X POST 'https://console.example/v2/dars?vetAllPackages=true'`,
        `-H "Authorization: Bearer $TOKEN"`,
        `-H 'Content-Type: application/octet-stream'`,
        `--data-binary '@finance.dar'`,
      ].join(' \\\n  '),
    );
    expect(commands.cantonConsole).toBe('participant.dars.upload(path = "finance.dar")');
  });

  it('says when the packages are not vetted', () => {
    const commands = darUploadCopyAs({ synchronizerId: '', vetAllPackages: false }, 'a "b".dar');

    expect(commands.request.path).toBe('/v2/dars?vetAllPackages=false');
    expect(commands.cantonConsole).toBe(
      'participant.dars.upload(path = "a \\"b\\".dar", vetAllPackages = false)',
    );
  });

  it('has no console command for an upload to one synchronizer, which the console cannot do', () => {
    const commands = darUploadCopyAs(
      { synchronizerId: SYNCHRONIZER, vetAllPackages: true },
      'finance.dar',
    );

    expect(commands.request.path).toBe(
      `/v2/dars?vetAllPackages=true&synchronizerId=${encodeURIComponent(SYNCHRONIZER)}`,
    );
    expect(commands.cantonConsole).toBeUndefined();
  });

  it('quotes a file name the shell would otherwise read', () => {
    const { request } = darUploadCopyAs({ synchronizerId: '', vetAllPackages: true }, "it's.dar");
    expect(toCurl(request, 'http://localhost:4173')).toContain(`--data-binary '@it'\\''s.dar'`);
  });
});

describe('vettingCopyAs', () => {
  it('copies the change with the serial it was decided on', () => {
    const change = {
      operation: 'Unvet' as const,
      packageId: PACKAGE_ID,
      synchronizerId: SYNCHRONIZER,
      expectedTopologySerial: 4,
    };
    const commands = vettingCopyAs(change);

    expect(commands.request).toEqual({
      method: 'POST',
      path: '/v2/package-vetting/update',
      body: {
        changes: [{ operation: { Unvet: { value: { packages: [{ packageId: PACKAGE_ID }] } } } }],
        dryRun: false,
        synchronizerId: SYNCHRONIZER,
        expectedTopologySerial: { serial: { Prior: { value: 4 } } },
      },
    });
    expect(commands.request.body).toEqual(updateVettingBody(change));
    expect(commands.cantonConsole).toBeUndefined();
  });

  it('leaves the serial out when the list showed none', () => {
    const { request } = vettingCopyAs({
      operation: 'Vet',
      packageId: PACKAGE_ID,
      synchronizerId: SYNCHRONIZER,
      expectedTopologySerial: undefined,
    });
    expect(request.body).toEqual({
      changes: [{ operation: { Vet: { value: { packages: [{ packageId: PACKAGE_ID }] } } } }],
      dryRun: false,
      synchronizerId: SYNCHRONIZER,
    });
  });
});

describe('packageDependencies', () => {
  const con = (packageId: string, name: string) => ({
    kind: 'con' as const,
    tycon: { packageId, module: 'M', name },
    args: [],
  });

  it('finds the packages of the types a package’s declarations use, not its own', () => {
    const dependencies = packageDependencies({
      packageId: PACKAGE_ID,
      importedPackages: ['i1'],
      modules: [
        {
          name: 'Main',
          dataTypes: [
            {
              kind: 'record',
              name: 'R',
              params: [],
              serializable: true,
              fields: [
                { name: 'a', type: { kind: 'prim', prim: 'LIST', args: [con('p1', 'T')] } },
                { name: 'self', type: con('', 'R') },
                { name: 'own', type: con(PACKAGE_ID, 'R') },
              ],
            },
          ],
          synonyms: [],
          templates: [
            {
              name: 'T',
              tycon: { packageId: '', module: 'Main', name: 'T' },
              fields: [],
              keyType: con('p2', 'Key'),
              choices: [
                {
                  name: 'C',
                  consuming: true,
                  argType: con('p3', 'Arg'),
                  returnType: { kind: 'forall', vars: ['a'], body: con('p4', 'Ret') },
                },
              ],
              implements: [{ packageId: 'p5', module: 'I', name: 'I' }],
            },
          ],
          interfaces: [
            {
              name: 'View',
              tycon: { packageId: '', module: 'Main', name: 'View' },
              choices: [],
              viewType: con('p6', 'ViewType'),
              requires: [{ packageId: 'p7', module: 'I', name: 'Base' }],
            },
          ],
        },
      ],
    });

    expect(dependencies).toEqual(['i1', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
  });
});
