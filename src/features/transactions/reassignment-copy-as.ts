import {
  assignCall,
  unassignCall,
  type AssignRequest,
  type UnassignRequest,
} from '@/api/reassignment';
import {
  cantonConsoleCall,
  scalaPartyId,
  scalaString,
  type CopyAsCommands,
} from '@/lib/text/copy-as';

/**
 * "Copy as…" for moving a contract, built by the same builders the mutations send with.
 *
 * A move is two requests, and the second needs the id the first answers with: curl copies the
 * unassignment (step 1), after which the contract page offers to complete the move (and copies
 * that assignment). The Canton console has one command for both halves,
 * `ledger_api.commands.submit_reassign(submitter, contractIds, source, target, …)`; completing a
 * move is `submit_assign(submitter, reassignmentId, source, target, …)` (Canton 3.5
 * LedgerApiAdministration).
 */

const synchronizerId = (id: string) => `SynchronizerId.tryFromString(${scalaString(id)})`;

/** The console does not import LfContractId: the full name needs no import. */
const contractId = (id: string) =>
  `com.digitalasset.canton.protocol.LfContractId.assertFromString(${scalaString(id)})`;

export function moveCopyAs(request: UnassignRequest): CopyAsCommands {
  return {
    request: unassignCall(request),
    cantonConsole: cantonConsoleCall('ledger_api.commands.submit_reassign', [
      ['submitter', scalaPartyId(request.submitter)],
      ['contractIds', `Seq(${contractId(request.contractId)})`],
      ['source', synchronizerId(request.source)],
      ['target', synchronizerId(request.target)],
      ['userId', request.userId === undefined ? undefined : scalaString(request.userId)],
    ]),
  };
}

export function completeMoveCopyAs(request: AssignRequest): CopyAsCommands {
  return {
    request: assignCall(request),
    cantonConsole: cantonConsoleCall('ledger_api.commands.submit_assign', [
      ['submitter', scalaPartyId(request.submitter)],
      ['reassignmentId', scalaString(request.reassignmentId)],
      ['source', synchronizerId(request.source)],
      ['target', synchronizerId(request.target)],
      ['userId', request.userId === undefined ? undefined : scalaString(request.userId)],
    ]),
  };
}
