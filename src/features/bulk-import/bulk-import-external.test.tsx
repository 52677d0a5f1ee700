import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox } from '@/testing/sandbox-network';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';
import { captureDownloads } from '@/testing/capture-downloads';

const JWT_SECRET = 'bulk-import-external-test-secret';
const JOURNEY_TIMEOUT = 40_000;

afterEach(() => {
  vi.restoreAllMocks();
});

function ed25519() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    rawBase64: Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString(
      'base64',
    ),
  };
}

const signatureOf = (privateKey: KeyObject, hex: string) =>
  sign(null, Buffer.from(hex, 'hex'), privateKey).toString('hex');

/** The multi-hashes file, by row number: its cells have no commas or quotes. */
async function multiHashesOf(blob: Blob | undefined): Promise<Map<number, string[]>> {
  const [header, ...lines] = ((await blob?.text()) ?? '').trim().split(/\r?\n/);
  expect(header).toBe('row,userId,party,multiHashHex,multiHashBase64,signature');
  return new Map(lines.map((line) => [Number(line.split(',')[0]), line.split(',')]));
}

describe('bulk import of people with external parties', () => {
  it(
    'lists each external row’s multi-hash, takes a signature back from a file, runs it and reports the unsigned row as waiting',
    async () => {
      const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
      await signInAsIdentityProviderAdmin(sandbox);
      const downloads = captureDownloads().saved;
      const { user } = renderRoute('/users/import', { sandbox });
      await screen.findByRole('heading', { name: 'Import users', level: 1 });
      const keyA = ed25519();
      const keyB = ed25519();
      const csv = [
        'userId,partyHint,rights,externalPublicKey',
        `ext-a,ext-a,acts-as-own,${keyA.rawBase64}`,
        `ext-b,ext-b,acts-as-own,${keyB.rawBase64}`,
        'loc-c,loc-c,acts-as-own,',
        'ext-d,ext-d,acts-as-own,not-a-key',
      ].join('\r\n');
      await user.upload(
        await screen.findByLabelText('Choose an import file'),
        new File([csv], 'people.csv', { type: 'text/csv' }),
      );
      expect(
        await screen.findByText(
          '4 rows: 3 to create, 0 to complete with missing rights, 0 to skip, 1 invalid, 0 blocked.',
        ),
      ).toBeVisible();
      // A key that is no key: the row is invalid, on its column.
      const plan = screen.getByRole('table', { name: 'Import plan' });
      expect(within(plan).getByText(/externalPublicKey: /)).toBeVisible();

      await user.click(screen.getByRole('button', { name: 'Generate topologies' }));
      const table = screen.getByRole('table', { name: 'Multi-hashes to sign' });
      await waitFor(() => {
        expect(within(table).getAllByRole('textbox')).toHaveLength(2);
      });
      expect(screen.getByText(/0 of 2 signed\./)).toBeVisible();

      await user.click(screen.getByRole('button', { name: 'Download multi-hashes (CSV)' }));
      const hashes = await multiHashesOf(downloads[0]);
      const rowA = hashes.get(1) ?? [];
      expect(rowA[1]).toBe('ext-a');
      const partyA = rowA[2] ?? '';
      expect(partyA).toMatch(/^ext-a::1220[0-9a-f]{64}$/);
      const hexA = rowA[3] ?? '';
      expect(Buffer.from(rowA[4] ?? '', 'base64').toString('hex')).toBe(hexA);
      expect(hashes.get(2)?.[2]).toMatch(/^ext-b::1220/);
      expect([...hashes.keys()]).toEqual([1, 2]);

      // A wrong paste for row 2 is refused on its field; row 2 stays unsigned.
      const fieldB = within(table).getByRole('textbox', { name: 'Signature for row 2' });
      await user.click(fieldB);
      await user.paste(signatureOf(keyB.privateKey, hexA));
      await waitFor(() => {
        expect(fieldB).toHaveAccessibleDescription(/This signature does not verify/);
      });

      await user.upload(
        screen.getByLabelText('Choose a signatures file'),
        new File([`row,signature\r\n1,${signatureOf(keyA.privateKey, hexA)}\r\n`], 'signed.csv', {
          type: 'text/csv',
        }),
      );
      expect(await screen.findByText(/1 of 2 signed\./)).toBeVisible();

      await user.click(screen.getByRole('button', { name: 'Run import' }));
      expect(
        await screen.findByText(
          'Results: 2 created, 0 updated, 0 skipped, 1 waiting for a signature, 1 failed.',
          {},
          { timeout: 20_000 },
        ),
      ).toBeVisible();
      expect(sandbox.state.parties.signingKeys(partyA)).toBeDefined();
      expect(sandbox.state.hostingSynchronizers(partyA)).toEqual([sandbox.state.synchronizerId]);
      expect(sandbox.state.users.get('ext-a')).toMatchObject({ primaryParty: partyA });
      expect(sandbox.state.users.rights('ext-a')).toEqual([{ kind: 'CanActAs', party: partyA }]);
      expect(sandbox.state.users.get('loc-c')).toBeDefined();
      // The unsigned row created nothing, and says why and what to do.
      expect(sandbox.state.users.get('ext-b')).toBeUndefined();
      const waitingRow = within(plan)
        .getAllByRole('row')
        .find((row) => row.textContent.includes('ext-b'));
      expect(waitingRow).toHaveTextContent('Waiting');
      expect(waitingRow).toHaveTextContent(
        /Waiting for the person’s signature of multi-hash 1220[0-9a-f]{64} \(the one given was refused: This signature does not verify/,
      );

      // Signed later, the waiting row runs on Resume.
      const hexB = hashes.get(2)?.[3] ?? '';
      const fieldAgain = within(
        screen.getByRole('table', { name: 'Multi-hashes to sign' }),
      ).getByRole('textbox', { name: 'Signature for row 2' });
      // The run ends after refreshing the lists; until then nothing can be edited.
      await waitFor(() => {
        expect(fieldAgain).toBeEnabled();
      });
      await user.clear(fieldAgain);
      await user.paste(signatureOf(keyB.privateKey, hexB));
      expect(await screen.findByText(/2 of 2 signed\./)).toBeVisible();
      await user.click(screen.getByRole('button', { name: /^Resume \(/ }));
      expect(
        await screen.findByText(
          'Results: 3 created, 0 updated, 0 skipped, 1 failed.',
          {},
          {
            timeout: 20_000,
          },
        ),
      ).toBeVisible();
      expect(sandbox.state.users.get('ext-b')).toBeDefined();
    },
    JOURNEY_TIMEOUT,
  );
});
