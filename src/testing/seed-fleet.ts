import { createIou, transferIou } from '../../sandbox/src/scenarios/demo-commands';
import { createdContractIds } from '../../sandbox/src/scenarios/ledger-steps';
import type { Sandbox } from './sandbox-network';
import { sandboxSteps } from './sandbox-steps';

/**
 * Transactions across two participants of an in-process fleet (issue 28), on the demo package,
 * submitted on the first as a client would.
 */

/**
 * On `p1`: a bank issues an Iou to alice (both hosted there), and alice transfers it to bob,
 * hosted on `p2`. The transfer's exercise has only the bank and alice as informees; the new Iou
 * it creates has bob as its owner (an observer), so `p2` sees that node only.
 */
export async function seedTransferAcross(p1: Sandbox, p2: Sandbox) {
  const one = sandboxSteps(p1);
  const [bank, alice, bob] = await Promise.all([
    one.allocateFreshParty('bank'),
    one.allocateFreshParty('alice'),
    sandboxSteps(p2).allocateFreshParty('bob'),
  ]);
  const issued = await one.submit(
    [createIou({ issuer: bank, owner: alice, currency: 'USD', amount: '10.0' })],
    { actAs: [bank] },
  );
  const [iouId = ''] = createdContractIds(issued);
  const transfer = await one.submit([transferIou(iouId, bob)], { actAs: [alice] });
  return { bank, alice, bob, issued, transfer };
}

/**
 * On `p1` of a jwt-mode fleet: alice issues herself an Iou, submitted by `alice-user` (who may
 * act as alice), whom the app can then be signed in as.
 */
export async function seedOwnIouWithUser(p1: Sandbox) {
  const one = sandboxSteps(p1, await sandboxSteps(p1).mintToken('participant_admin'));
  const alice = await one.allocateFreshParty('alice');
  await one.createUser('alice-user', { rights: [{ kind: 'CanActAs', party: alice }] });
  const issued = await one.submit(
    [createIou({ issuer: alice, owner: alice, currency: 'USD', amount: '1.0' })],
    { actAs: [alice], userId: 'alice-user', token: await one.mintToken('alice-user') },
  );
  return { alice, userId: 'alice-user', issued };
}
