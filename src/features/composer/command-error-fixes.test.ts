import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorBody } from '@/lib/errors/api-error';
import {
  classifyCommandFailure,
  missingAuthorizers,
  type CommandDraftFacts,
  type SubmitterAccess,
} from './command-error-fixes';

const ALICE = `alice::1220${'a'.repeat(64)}`;
const BOB = `bob::1220${'b'.repeat(64)}`;
const CAROL = `carol::1220${'c'.repeat(64)}`;
const PKG = 'f'.repeat(64);
const CID = `00${'d'.repeat(66)}`;

const error = (status: number, body: Partial<ApiErrorBody> & { code: string }) =>
  new ApiError(status, { cause: '', ...body });

const draft = (overrides: Partial<CommandDraftFacts> = {}): CommandDraftFacts => ({
  actAs: [ALICE],
  readAs: [],
  userId: '',
  commands: [{ templateId: '#sandbox-demo:Demo.Iou:Iou', contractId: '', choice: '' }],
  ...overrides,
});

const trader: SubmitterAccess = {
  actAs: [ALICE, BOB],
  readAs: [ALICE, BOB],
  userId: 'trader',
  canGrantPartyRights: false,
};
const admin: SubmitterAccess = {
  actAs: [ALICE],
  readAs: [ALICE],
  userId: 'admin',
  canGrantPartyRights: true,
};

const authorization = (required: string[], given: string[]) =>
  error(400, {
    code: 'DAML_AUTHORIZATION_ERROR',
    cause: `Interpretation error: Error: node NodeId(0) (${PKG}:Demo.Iou:Iou) requires authorizers ${required.join(',')}, but only ${given.join(',')} were given`,
  });

describe('missingAuthorizers', () => {
  it('reads the required authorizers that were not given', () => {
    expect(
      missingAuthorizers(
        `node NodeId(0) (x) requires authorizers ${ALICE},${BOB}, but only ${ALICE} were given`,
      ),
    ).toEqual({ parties: [BOB], anyOneOf: false });
  });

  it("reads a fetch's stakeholders, any one of which would do", () => {
    expect(
      missingAuthorizers(
        `node NodeId(1) (x) requires one of the stakeholders ${BOB},${CAROL} of the fetched contract to be an authorizer, but authorizers were ${ALICE}`,
      ),
    ).toEqual({ parties: [BOB, CAROL], anyOneOf: true });
  });

  it('knows nothing of other wording', () => {
    expect(missingAuthorizers('something else')).toBeUndefined();
  });
});

describe('classifyCommandFailure', () => {
  it('offers to add a missing authorizer the caller may act as', () => {
    const failure = classifyCommandFailure(authorization([ALICE, BOB], [ALICE]), draft(), trader);
    expect(failure?.fixes).toEqual([{ kind: 'addActAs', parties: [BOB] }]);
    expect(failure?.cause).toMatch(/needs the authority of bob::1220bb…bb?.*not in Act as/);
  });

  it('names who can grant a party the caller may not act as, and offers an admin to grant it', () => {
    const asTrader = classifyCommandFailure(authorization([CAROL], [ALICE]), draft(), trader);
    expect(asTrader?.fixes).toEqual([]);
    expect(asTrader?.cause).toMatch(/ask a participant administrator/);

    const asAdmin = classifyCommandFailure(authorization([CAROL], [ALICE]), draft(), admin);
    expect(asAdmin?.fixes).toEqual([
      { kind: 'grantRight', right: 'CanActAs', parties: [CAROL], userId: 'admin' },
    ]);
  });

  it('adds one stakeholder for a fetch', () => {
    const failure = classifyCommandFailure(
      error(400, {
        code: 'DAML_AUTHORIZATION_ERROR',
        cause: `requires one of the stakeholders ${CAROL},${BOB} of the fetched contract to be an authorizer, but authorizers were ${ALICE}`,
      }),
      draft(),
      trader,
    );
    expect(failure?.fixes).toEqual([{ kind: 'addActAs', parties: [BOB] }]);
  });

  it('says which right a 403 is about, from the draft and the caller', () => {
    const failure = classifyCommandFailure(
      error(403, { code: 'NA', cause: 'A security-sensitive error has been received' }),
      draft({ actAs: [ALICE, CAROL], readAs: [CAROL] }),
      admin,
    );
    expect(failure?.cause).toMatch(/missing Act as for carol::.* and Read as for carol::/);
    expect(failure?.fixes).toEqual([
      { kind: 'grantRight', right: 'CanActAs', parties: [CAROL], userId: 'admin' },
      { kind: 'grantRight', right: 'CanReadAs', parties: [CAROL], userId: 'admin' },
    ]);
    const asTrader = classifyCommandFailure(
      error(403, { code: 'NA' }),
      draft({ actAs: [CAROL] }),
      trader,
    );
    expect(asTrader?.fixes).toEqual([]);
    expect(asTrader?.cause).toMatch(/missing Act as for carol::.*Ask a participant administrator/);
  });

  it('says a 403 for another user id is about the user id', () => {
    const failure = classifyCommandFailure(
      error(403, { code: 'NA' }),
      draft({ userId: 'someone-else' }),
      trader,
    );
    expect(failure?.cause).toMatch(/names user someone-else, but you are signed in as trader/);
  });

  it('offers the catalog and an upload for an unknown template', () => {
    const failure = classifyCommandFailure(
      error(404, {
        code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND',
        cause: `Templates do not exist: [${PKG}:Demo.Iou:Nope].`,
        resources: [['TEMPLATE_ID', `${PKG}:Demo.Iou:Nope`]],
      }),
      draft({
        commands: [
          { templateId: '#sandbox-demo:Demo.Iou:Iou', contractId: '', choice: '' },
          { templateId: '#sandbox-demo:Demo.Iou:Nope', contractId: '', choice: '' },
        ],
      }),
      trader,
    );
    expect(failure?.cause).toBe(
      'The participant has no template #sandbox-demo:Demo.Iou:Nope. Pick one from its packages, or upload the DAR that holds it.',
    );
    expect(failure?.fixes).toEqual([
      { kind: 'pickTemplate', commandIndex: 1 },
      { kind: 'uploadDar' },
    ]);
  });

  it('offers the choices of the template for an unknown choice', () => {
    const failure = classifyCommandFailure(
      error(400, {
        code: 'INVALID_ARGUMENT',
        cause: `The submitted request has invalid arguments: Invalid template:${PKG}:Demo.Iou:Iou or choice:Iou_Nope`,
      }),
      draft({
        commands: [
          { templateId: '#sandbox-demo:Demo.Iou:Iou', contractId: CID, choice: 'Iou_Nope' },
        ],
      }),
      trader,
    );
    expect(failure?.cause).toBe(
      'Template Demo.Iou:Iou has no choice Iou_Nope. Pick one of its choices.',
    );
    expect(failure?.fixes).toEqual([{ kind: 'pickChoice', commandIndex: 0 }]);
  });

  it('offers to open a contract that is archived or unknown', () => {
    const archived = classifyCommandFailure(
      error(404, {
        code: 'CONTRACT_NOT_ACTIVE',
        cause: `Interpretation error: Error: Update failed due to fetch of an inactive contract ${CID}`,
        resources: [['CONTRACT_ID', CID]],
      }),
      draft(),
      trader,
    );
    expect(archived?.cause).toMatch(/no longer active: it was archived/);
    expect(archived?.fixes).toEqual([{ kind: 'openContract', contractId: CID }]);
    const unknown = classifyCommandFailure(
      error(404, {
        code: 'CONTRACT_NOT_FOUND',
        cause: `Contract could not be found with id ${CID}`,
        resources: [['CONTRACT_ID', CID]],
      }),
      draft(),
      trader,
    );
    expect(unknown?.cause).toMatch(
      /not active, or none of the Act as and Read as parties can see it/,
    );
    expect(unknown?.fixes).toEqual([{ kind: 'openContract', contractId: CID }]);
  });

  it('offers a new command id for a duplicate', () => {
    const failure = classifyCommandFailure(
      error(409, {
        code: 'DUPLICATE_COMMAND',
        cause: 'A command with the given command id has already been successfully processed',
        context: { completion_offset: '7' },
      }),
      draft(),
      trader,
    );
    expect(failure?.cause).toMatch(/already accepted \(at offset 7\)/);
    expect(failure?.fixes).toEqual([{ kind: 'newCommandId' }]);
  });

  it('leaves other failures to the server’s message', () => {
    expect(
      classifyCommandFailure(
        error(400, { code: 'COMMAND_PREPROCESSING_FAILED', cause: 'Missing non-optional fields' }),
        draft(),
        trader,
      ),
    ).toBeUndefined();
  });
});
