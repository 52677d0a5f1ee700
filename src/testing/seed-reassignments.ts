import { createIou } from '../../sandbox/src/scenarios/demo-commands';
import { createdContractIds } from '../../sandbox/src/scenarios/ledger-steps';
import type { Sandbox } from './sandbox-network';
import { sandboxJson } from './seed-parties';
import { sandboxSteps } from './sandbox-steps';

/**
 * Contracts on a sandbox connected to two synchronizers (`createSandbox({ synchronizers: [a, b] })`)
 * for the reassignment tests, put there through its HTTP API as a client would.
 */

export type SeededIou = {
  issuer: string;
  owner: string;
  iouId: string;
  /** Where routing put the Iou (the smaller id of the two), and the other synchronizer. */
  source: string;
  target: string;
};

/**
 * An Iou of a new bank to a new owner, on the first synchronizer. Both parties are hosted on both
 * synchronizers unless `ownerOnSourceOnly` (then the owner cannot follow the contract).
 */
export async function seedIouOnTwoSynchronizers(
  sandbox: Sandbox,
  { ownerOnSourceOnly = false }: { ownerOnSourceOnly?: boolean } = {},
): Promise<SeededIou> {
  const synchronizerIds = sandbox.state.synchronizerIds;
  if (synchronizerIds.length !== 2) throw new Error('Two synchronizers needed');
  const steps = sandboxSteps(sandbox);
  const suffix = crypto.randomUUID().slice(0, 8);
  const allocate = async (hint: string, synchronizers: readonly string[]) => {
    let party = '';
    for (const synchronizerId of synchronizers) {
      party = await steps.allocateParty(hint, { synchronizerId });
    }
    return party;
  };
  // Routing picks the smaller synchronizer id when the parties are hosted on both.
  const [source = '', target = ''] = [...synchronizerIds].sort();
  const issuer = await allocate(`bank-${suffix}`, [source, target]);
  const owner = await allocate(`owner-${suffix}`, ownerOnSourceOnly ? [source] : [source, target]);
  const created = await steps.submit(
    [createIou({ issuer, owner, currency: 'USD', amount: '100.0' })],
    { actAs: [issuer] },
  );
  const createdOn = (created as typeof created & { synchronizerId?: string }).synchronizerId;
  if (createdOn !== source) throw new Error(`The Iou was created on ${String(createdOn)}`);
  const [iouId = ''] = createdContractIds(created);
  return { issuer, owner, iouId, source, target };
}

/** Unassigns the Iou from its source towards its target, and leaves it in flight. */
export async function unassignIou(sandbox: Sandbox, iou: SeededIou): Promise<string> {
  const { reassignment } = await sandboxJson<{
    reassignment: { events: { JsUnassignedEvent: { value: { reassignmentId: string } } }[] };
  }>(sandbox, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
    reassignmentCommands: {
      commandId: `seed-unassign-${crypto.randomUUID()}`,
      submitter: iou.issuer,
      userId: 'participant_admin',
      commands: [
        {
          command: {
            UnassignCommand: {
              value: { contractId: iou.iouId, source: iou.source, target: iou.target },
            },
          },
        },
      ],
    },
    eventFormat: { filtersByParty: { [iou.issuer]: {} }, verbose: false },
  });
  const id = reassignment.events[0]?.JsUnassignedEvent.value.reassignmentId;
  if (!id) throw new Error('No unassigned event');
  return id;
}

/** Assigns an unassigned Iou to its target: the move completed. */
export async function assignIou(
  sandbox: Sandbox,
  iou: SeededIou,
  reassignmentId: string,
): Promise<void> {
  await sandboxJson(sandbox, 'POST', '/v2/commands/submit-and-wait-for-reassignment', {
    reassignmentCommands: {
      commandId: `seed-assign-${crypto.randomUUID()}`,
      submitter: iou.issuer,
      userId: 'participant_admin',
      commands: [
        {
          command: {
            AssignCommand: { value: { reassignmentId, source: iou.source, target: iou.target } },
          },
        },
      ],
    },
  });
}

/** Vets or unvets the sandbox's demo package on one synchronizer. */
export async function setDemoPackageVetting(
  sandbox: Sandbox,
  synchronizerId: string,
  isVetted: boolean,
): Promise<void> {
  const packages = [{ packageId: sandbox.state.demoPackageId }];
  await sandboxJson(sandbox, 'POST', '/v2/package-vetting/update', {
    changes: [
      {
        operation: isVetted ? { Vet: { value: { packages } } } : { Unvet: { value: { packages } } },
      },
    ],
    synchronizerId,
  });
}

/** Where the sandbox's ACS has the contract now, read through its API (for assertions). */
export async function synchronizerOf(sandbox: Sandbox, party: string, contractId: string) {
  const end = await sandboxSteps(sandbox).ledgerEnd();
  const entries = await sandboxJson<
    {
      contractEntry: {
        JsActiveContract?: { synchronizerId: string; createdEvent: { contractId: string } };
      };
    }[]
  >(sandbox, 'POST', '/v2/state/active-contracts', {
    eventFormat: { filtersByParty: { [party]: {} }, verbose: false },
    activeAtOffset: end,
  });
  return entries.find(
    (entry) => entry.contractEntry.JsActiveContract?.createdEvent.contractId === contractId,
  )?.contractEntry.JsActiveContract?.synchronizerId;
}
