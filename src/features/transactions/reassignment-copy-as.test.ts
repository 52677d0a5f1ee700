import { describe, expect, it } from 'vitest';
import { toCurl } from '@/lib/text/copy-as';
import { completeMoveCopyAs, moveCopyAs } from './reassignment-copy-as';

const ALICE = `alice::1220${'a'.repeat(64)}`;
const LOCAL = `local::1220${'1'.repeat(64)}`;
const GLOBAL = `global::1220${'2'.repeat(64)}`;
const CONTRACT = `00${'c'.repeat(66)}`;
const REASSIGNMENT = `001220${'d'.repeat(64)}`;

describe('copy as for moving a contract', () => {
  it('copies the unassignment as curl and the whole move as submit_reassign', () => {
    const commands = moveCopyAs({
      contractId: CONTRACT,
      source: LOCAL,
      target: GLOBAL,
      submitter: ALICE,
    });
    expect(commands.request.path).toBe('/v2/commands/submit-and-wait-for-reassignment');
    expect(commands.request.body).toMatchObject({
      reassignmentCommands: {
        submitter: ALICE,
        commands: [
          {
            command: {
              UnassignCommand: { value: { contractId: CONTRACT, source: LOCAL, target: GLOBAL } },
            },
          },
        ],
      },
    });
    expect(toCurl(commands.request, 'https://console.example')).toContain(
      `curl -sS -X POST 'https://console.example/v2/commands/submit-and-wait-for-reassignment'`,
    );
    expect(commands.cantonConsole).toBe(
      `participant.ledger_api.commands.submit_reassign(submitter = PartyId.tryFromProtoPrimitive("${ALICE}"), contractIds = Seq(com.digitalasset.canton.protocol.LfContractId.assertFromString("${CONTRACT}")), source = SynchronizerId.tryFromString("${LOCAL}"), target = SynchronizerId.tryFromString("${GLOBAL}"))`,
    );
  });

  it('copies completing a move as the assignment, with the user when one is named', () => {
    const commands = completeMoveCopyAs({
      reassignmentId: REASSIGNMENT,
      source: LOCAL,
      target: GLOBAL,
      submitter: ALICE,
      userId: 'participant_admin',
    });
    expect(commands.request.body).toMatchObject({
      reassignmentCommands: {
        userId: 'participant_admin',
        commands: [
          {
            command: {
              AssignCommand: {
                value: { reassignmentId: REASSIGNMENT, source: LOCAL, target: GLOBAL },
              },
            },
          },
        ],
      },
    });
    expect(commands.cantonConsole).toBe(
      `participant.ledger_api.commands.submit_assign(submitter = PartyId.tryFromProtoPrimitive("${ALICE}"), reassignmentId = "${REASSIGNMENT}", source = SynchronizerId.tryFromString("${LOCAL}"), target = SynchronizerId.tryFromString("${GLOBAL}"), userId = "participant_admin")`,
    );
  });
});
