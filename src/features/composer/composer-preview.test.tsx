import { createPrivateKey, sign } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PREPARE_ENDPOINT, EXECUTE_ENDPOINT } from '@/api/interactive-submission';
import { signHash } from '@/lib/signing/signatures';
import { fromBase64, toBase64 } from '@/lib/signing/bytes';
import {
  fillCreateAsJson,
  fillSubmitter,
  IOU,
  openComposerAt,
  paste,
  replace,
} from '@/testing/composer-steps';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { sandboxSteps } from '@/testing/sandbox-steps';
import { seedExternalParty, type SeededExternalParty } from '@/testing/seed-external-parties';
import { seedParties } from '@/testing/seed-parties';

// Whole-app journeys through a large form; generous on a shared 2-core machine.
const JOURNEY_TIMEOUT = 60_000;
const FIND = { timeout: 15_000 };

type External = SeededExternalParty;
const onboardExternal = seedExternalParty;

/** The composer at `path`, keeping what it sends to the command and interactive endpoints. */
function openComposer(sandbox: Sandbox, path = '/composer') {
  return openComposerAt(sandbox, {
    path,
    recorded: ['/v2/commands/', '/v2/interactive-submission/'],
  });
}

function fillCreate(user: UserEvent, issuer: string, owner: string, amount = '100') {
  return fillCreateAsJson(user, IOU, { issuer, owner, currency: 'USD', amount, observers: [] });
}

/** Fills in `party` as the submitter, asks for a preview and waits for it. */
async function previewAs(user: UserEvent, party: string) {
  await fillSubmitter(user, party);
  await user.click(screen.getByRole('button', { name: 'Preview' }));
  return previewRegion();
}

/** The composer opened on a contract (as its page's "Exercise…" link does), Iou_Split chosen. */
async function fillSplit(user: UserEvent, amount: string) {
  const command = screen.getByRole('region', { name: 'Command 1' });
  await paste(user, within(command).getByRole('combobox', { name: /^Choice/ }), 'Iou_Split');
  await replace(
    user,
    await within(command).findByRole('textbox', { name: /^splitAmount/ }, FIND),
    amount,
  );
}

const exercisePath = (contractId: string) =>
  `/composer?exercise=${encodeURIComponent(contractId)}&template=${encodeURIComponent(IOU)}`;

const previewRegion = () => screen.findByRole('region', { name: 'Preview' }, FIND);
const resultRegion = () => screen.findByRole('region', { name: 'Result' }, FIND);

/** The participant's prepared hash as the preview shows it (base64). */
function shownHash(preview: HTMLElement, label = 'Hash (base64)'): string {
  const group = within(preview).getByRole('group', { name: label });
  return group.textContent.replace(label, '').trim();
}

/** An Iou of `owner`'s, created by the owner (external: prepared, signed and executed here). */
function createIouAs(sandbox: Sandbox, owner: External): Promise<string> {
  const iou = { issuer: owner.party, owner: owner.party, currency: 'USD', amount: '50' };
  return submitAs(
    sandbox,
    owner,
    { CreateCommand: { templateId: IOU, createArguments: { ...iou, observers: [] } } },
    'CreatedEvent',
  );
}

/**
 * Prepares `command` as the external `signer`, signs its hash with the signer's key and executes
 * it, as a wallet would outside the console; the contract id of the `wanted` event.
 */
async function submitAs(
  sandbox: Sandbox,
  signer: External,
  command: unknown,
  wanted: 'CreatedEvent' | 'ExercisedEvent',
): Promise<string> {
  const { client } = sandboxSteps(sandbox);
  const prepared = await client.request<{
    preparedTransaction: string;
    preparedTransactionHash: string;
  }>('POST', PREPARE_ENDPOINT, {
    body: {
      commands: [command],
      commandId: `external-${crypto.randomUUID()}`,
      actAs: [signer.party],
      userId: 'participant_admin',
    },
  });
  const signature = sign(
    null,
    Buffer.from(prepared.preparedTransactionHash, 'base64'),
    createPrivateKey(signer.pem),
  );
  const { transaction } = await client.request<{
    transaction: { events: Record<string, { contractId: string }>[] };
  }>('POST', EXECUTE_ENDPOINT, {
    body: {
      preparedTransaction: prepared.preparedTransaction,
      partySignatures: {
        signatures: [
          {
            party: signer.party,
            signatures: [
              {
                format: 'SIGNATURE_FORMAT_CONCAT',
                signature: signature.toString('base64'),
                signedBy: signer.key.publicKey.fingerprint,
                signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
              },
            ],
          },
        ],
      },
      submissionId: crypto.randomUUID(),
      userId: 'participant_admin',
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
    },
  });
  const event = transaction.events.find((entry) => wanted in entry)?.[wanted];
  return event?.contractId ?? '';
}

const keyFile = (pem: string) =>
  new File([pem], 'party-key.pem', { type: 'application/x-pem-file' });

describe('composer preview', () => {
  it(
    'previews a local create with a matching hash, commits it and finds the commit the same',
    async () => {
      const sandbox = createSandbox({ trafficCost: true });
      const [alice = ''] = await seedParties(sandbox, ['alice']);
      const { user, sent } = await openComposer(sandbox);
      await fillCreate(user, alice, alice);
      const preview = await previewAs(user, alice);
      expect(sent.map(({ path }) => path)).toEqual([PREPARE_ENDPOINT]);
      expect(sent[0]?.body).toMatchObject({ actAs: [alice], verboseHashing: false });
      // Nothing committed: the ledger is where it was.
      expect(within(preview).getByText('Matching: recomputed in this browser')).toBeInTheDocument();
      expect(within(preview).getByText('Hashing scheme V2')).toBeInTheDocument();
      const base64 = shownHash(preview);
      expect(shownHash(preview, 'Hash (hex)')).toBe(Buffer.from(base64, 'base64').toString('hex'));
      // The participant reports traffic cost: its estimate, the request part local submission pays.
      expect(within(preview).getByRole('group', { name: 'Cost estimation' })).toHaveTextContent(
        /^Cost estimation[\d,]+ bytes of traffic \(request [\d,]+ bytes, response 522 bytes\)$/,
      );
      // The same outline a committed transaction has.
      const outline = within(preview).getByRole('tree', { name: 'Transaction outline' });
      expect(within(outline).getByRole('treeitem', { name: /Create Iou/ })).toBeInTheDocument();

      await user.click(within(preview).getByRole('button', { name: 'Commit' }));
      const result = await resultRegion();
      expect(sent.map(({ path }) => path).slice(1)).toEqual([
        '/v2/commands/submit-and-wait-for-transaction-tree',
      ]);
      expect(
        within(result).getByText('The committed transaction is what was previewed'),
      ).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Preview' })).not.toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'previews an exercise with its input contract; an edit asks to preview again',
    async () => {
      const sandbox = createSandbox();
      const [alice = ''] = await seedParties(sandbox, ['alice']);
      const created = await sandboxSteps(sandbox).submit(
        [
          {
            CreateCommand: {
              templateId: IOU,
              createArguments: {
                issuer: alice,
                owner: alice,
                currency: 'USD',
                amount: '100',
                observers: [],
              },
            },
          },
        ],
        { actAs: [alice] },
      );
      const contractId = created.events[0]?.CreatedEvent?.contractId ?? '';
      const { user } = await openComposer(sandbox, exercisePath(contractId));
      await fillSplit(user, '30');
      const preview = await previewAs(user, alice);
      expect(within(preview).getByText('Input contracts')).toBeInTheDocument();
      // No traffic control on this participant: no estimate, and no row saying nothing.
      expect(within(preview).queryByText('Cost estimation')).not.toBeInTheDocument();
      expect(
        within(preview).getByRole('button', { name: 'Copy input contract id' }),
      ).toBeInTheDocument();
      const outline = within(preview).getByRole('tree', { name: 'Transaction outline' });
      expect(within(outline).getAllByRole('treeitem', { name: /Create Iou/ })).toHaveLength(2);

      await replace(user, screen.getByRole('textbox', { name: /^Workflow id/ }), 'changed');
      expect(
        await within(preview).findByText('The form changed since this preview'),
      ).toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'shows a prepare error with the same fix as a submit error',
    async () => {
      const sandbox = createSandbox();
      const [alice = '', bank = ''] = await seedParties(sandbox, ['alice', 'bank']);
      const { user } = await openComposer(sandbox);
      // The bank must sign as issuer, but only alice acts.
      await fillCreate(user, bank, alice);
      await fillSubmitter(user, alice);
      await user.click(screen.getByRole('button', { name: 'Preview' }));
      const alert = await screen
        .findByRole('alert', { name: 'Not prepared' }, FIND)
        .catch(() => screen.findByText('Not prepared', undefined, FIND));
      expect(alert).toBeInTheDocument();
      await user.click(await screen.findByRole('button', { name: /^Add bank.* to Act as$/ }));
      await user.click(screen.getByRole('button', { name: 'Preview' }));
      expect(await previewRegion()).toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'signs with a key file as an external party, executes, and compares',
    async () => {
      const sandbox = createSandbox();
      const ext = await onboardExternal(sandbox, 'ext');
      const other = await onboardExternal(sandbox, 'other');
      const { user, sent } = await openComposer(sandbox);
      await fillCreate(user, ext.party, ext.party);
      const preview = await previewAs(user, ext.party);
      expect(
        within(preview).getByRole('heading', { name: 'Sign and execute' }),
      ).toBeInTheDocument();
      expect(within(preview).queryByRole('button', { name: 'Commit' })).not.toBeInTheDocument();

      // Without a key: a field message, nothing sent.
      await user.click(within(preview).getByRole('button', { name: 'Sign and execute' }));
      const fileInput = within(preview).getByLabelText(/^Private key file of/);
      await waitFor(() => {
        expect(
          within(preview).getByText('Choose the party’s private key file.'),
        ).toBeInTheDocument();
      });
      // Another party's key: refused before sending, with the fingerprints.
      await user.upload(fileInput, keyFile(other.pem));
      expect(
        await within(preview).findByText(/^This key \(fingerprint .*\) is not /, undefined, FIND),
      ).toBeInTheDocument();
      await user.click(within(preview).getByRole('button', { name: 'Sign and execute' }));
      expect(sent.filter(({ path }) => path === EXECUTE_ENDPOINT)).toHaveLength(0);

      await user.upload(within(preview).getByLabelText(/^Private key file of/), keyFile(ext.pem));
      expect(
        await within(preview).findByText(/^Key of .* read/, undefined, FIND),
      ).toBeInTheDocument();
      await user.click(within(preview).getByRole('button', { name: 'Sign and execute' }));
      const result = await resultRegion();
      expect(
        within(result).getByText('The committed transaction is what was previewed'),
      ).toBeInTheDocument();
      expect(
        within(result).getByText(/^Its external transaction hash equals the prepared hash/),
      ).toBeInTheDocument();
      const executed = sent.find(({ path }) => path === EXECUTE_ENDPOINT)?.body as {
        preparedTransaction: string;
        partySignatures: { signatures: { party: string; signatures: { signedBy: string }[] }[] };
      };
      const prepared = sent.find(({ path }) => path === PREPARE_ENDPOINT)?.body;
      expect(prepared).toMatchObject({ actAs: [ext.party] });
      expect(executed.partySignatures.signatures).toEqual([
        {
          party: ext.party,
          signatures: [expect.objectContaining({ signedBy: ext.key.publicKey.fingerprint })],
        },
      ]);
      // Nothing the browser sent holds the private key.
      const body = JSON.stringify(sent);
      const keyBody = ext.pem.split('\n').slice(1, -2).join('');
      expect(body).not.toContain(keyBody);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'executes with a pasted signature; a signature of another hash is refused on its field',
    async () => {
      const sandbox = createSandbox();
      const ext = await onboardExternal(sandbox, 'ext');
      const { user } = await openComposer(sandbox);
      await fillCreate(user, ext.party, ext.party);
      const preview = await previewAs(user, ext.party);
      await user.click(within(preview).getByRole('radio', { name: 'Paste a signature' }));
      const field = within(preview).getByRole('textbox', { name: /^Signature by/ });

      // Malformed: a field message.
      await paste(user, field, 'abc');
      await user.click(within(preview).getByRole('button', { name: 'Sign and execute' }));
      expect(
        await within(preview).findByText(
          /^(The signature must be hex or base64\.|An Ed25519 signature has 64 bytes)/,
          undefined,
          FIND,
        ),
      ).toBeInTheDocument();

      // The right key over another hash: the participant refuses; the field says why.
      const wrong = await signHash(ext.key, new Uint8Array(32).fill(7));
      await replace(user, field, wrong.signature);
      await user.click(within(preview).getByRole('button', { name: 'Sign and execute' }));
      expect(
        await within(preview).findByText(/^The participant refused the signature/, undefined, FIND),
      ).toBeInTheDocument();
      expect(field).toHaveValue(wrong.signature);

      // Signed elsewhere, over the hash the preview offers (hex here): executed.
      const offered = shownHash(preview);
      const hash = fromBase64(offered) ?? new Uint8Array();
      const right = await signHash(ext.key, hash);
      const hex = Buffer.from(fromBase64(right.signature) ?? []).toString('hex');
      await replace(user, field, hex);
      await user.click(within(preview).getByRole('button', { name: 'Sign and execute' }));
      const result = await resultRegion();
      expect(
        within(result).getByText('The committed transaction is what was previewed'),
      ).toBeInTheDocument();
      expect(toBase64(hash)).toBe(offered);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'says a preview whose input was archived is stale, and previews again',
    async () => {
      const sandbox = createSandbox();
      const ext = await onboardExternal(sandbox, 'ext');
      const contractId = await createIouAs(sandbox, ext);
      const { user } = await openComposer(sandbox, exercisePath(contractId));
      await fillSplit(user, '10');
      const preview = await previewAs(user, ext.party);

      // Meanwhile the Iou is archived.
      await submitAs(
        sandbox,
        ext,
        { ExerciseCommand: { templateId: IOU, contractId, choice: 'Archive', choiceArgument: {} } },
        'ExercisedEvent',
      );

      await user.upload(within(preview).getByLabelText(/^Private key file of/), keyFile(ext.pem));
      await within(preview).findByText(/^Key of .* read/, undefined, FIND);
      await user.click(within(preview).getByRole('button', { name: 'Sign and execute' }));
      expect(
        await within(preview).findByText('The preview is stale', undefined, FIND),
      ).toBeInTheDocument();
      expect(within(preview).getByText(/no longer active.*Preview again/)).toBeInTheDocument();
      await user.click(within(preview).getByRole('button', { name: 'Preview again' }));
      expect(await screen.findByText('Not prepared', undefined, FIND)).toBeInTheDocument();
    },
    JOURNEY_TIMEOUT,
  );
});
