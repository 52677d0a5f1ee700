import { describe, expect, it } from 'vitest';
import { routeFetchToConsoleServer } from '@/testing/console-server';
import { countPackageContracts } from './package-usage';

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${String(response.status)}`);
  return (await response.json()) as Record<string, unknown>;
}

describe('counting a package’s active contracts on the console server', () => {
  it('counts per template with the stakeholders, and "at least" at the limit', async () => {
    const { ledger } = await routeFetchToConsoleServer();
    const { partyDetails } = (await post(`${ledger}/v2/parties`, {
      partyIdHint: 'counted',
      identityProviderId: '',
    })) as { partyDetails: { party: string } };
    const owner = partyDetails.party;
    await post(`${ledger}/v2/commands/submit-and-wait`, {
      commands: [
        {
          CreateAndExerciseCommand: {
            templateId: '#sandbox-demo:Demo.Iou:IouIssuance',
            createArguments: { issuer: owner, owner, currency: 'USD', amount: '1.0', count: '7' },
            choice: 'IouIssuance_Issue',
            choiceArgument: {},
          },
        },
      ],
      commandId: crypto.randomUUID(),
      actAs: [owner],
      userId: 'participant_admin',
    });
    const { vettedPackages } = (await post(`${ledger}/v2/package-vetting/list`, {})) as {
      vettedPackages: { packages: { packageId: string; packageName: string }[] }[];
    };
    const packageId =
      vettedPackages
        .flatMap((entry) => entry.packages)
        .find((p) => p.packageName === 'sandbox-demo')?.packageId ?? '';
    const query = {
      packageId,
      templates: ['Demo.Iou:Iou', 'Demo.Iou:IouIssuance'],
      scope: { kind: 'parties', parties: [owner] } as const,
    };

    // Node has no WebSocket: the count can only have come from the console server.
    expect(globalThis.WebSocket as unknown).toBeUndefined();
    const usage = await countPackageContracts(query);
    expect(usage).toMatchObject({
      total: 7,
      byTemplate: { 'Demo.Iou:Iou': 7, 'Demo.Iou:IouIssuance': 0 },
      isComplete: true,
      stakeholders: [owner],
      readsNothing: false,
    });

    const capped = await countPackageContracts({ ...query, limit: 5 });
    expect(capped).toMatchObject({ total: 5, isComplete: false });
  });
});
