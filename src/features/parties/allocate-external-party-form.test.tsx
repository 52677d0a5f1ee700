import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { seedPartyRecords } from '@/testing/seed-parties';
import { captureDownloads } from '@/testing/capture-downloads';

// Whole-app journeys through two steps and the page they open; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 30_000;

const hintField = () => screen.getByRole('textbox', { name: /^Party id hint/ });
const publicKeyField = () => screen.getByRole('textbox', { name: /^Public key/ });
const generateButton = () => screen.getByRole('button', { name: 'Generate topology' });
const allocateButton = () => screen.getByRole('button', { name: 'Sign and allocate' });
const signForm = () => screen.findByRole('form', { name: 'Sign and allocate external party' });

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every request body the console sends (after its method and path), to prove no private key goes out. */
function recordBodies(view: ReturnType<typeof renderRoute>) {
  const bodies: string[] = [];
  view.interceptNetwork(async (request, sandboxFetch) => {
    if (request.method !== 'GET') {
      const { pathname } = new URL(request.url);
      bodies.push(`${request.method} ${pathname}\n${await request.clone().text()}`);
    }
    return sandboxFetch(request);
  });
  return bodies;
}

/** Every key and value a storage holds, as one text. */
function storageText(storage: Storage): string {
  return Array.from({ length: storage.length }, (_, index) => {
    const key = storage.key(index) ?? '';
    return `${key}=${storage.getItem(key) ?? ''}`;
  }).join('\n');
}

async function openForm(sandbox: Sandbox = createSandbox(), options = {}) {
  const view = renderRoute('/parties/new-external', { sandbox, ...options });
  await screen.findByRole('form', { name: 'Allocate external party' });
  // One synchronizer: chosen for the user.
  await waitFor(() => {
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: /^Synchronizer/ }).value).toMatch(
      /^local \(/,
    );
  });
  return view;
}

function ed25519() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey,
    privateKey,
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    rawBase64: Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString(
      'base64',
    ),
  };
}

async function pastePublicKey(user: ReturnType<typeof renderRoute>['user'], text: string) {
  await user.click(screen.getByRole('radio', { name: 'Use my public key' }));
  await user.click(publicKeyField());
  await user.paste(text);
}

/** Step 1 for a pasted public key (of a new Ed25519 pair), and on to step 2. */
async function generateForPublicKey(
  hint: string,
  keyText: (key: ReturnType<typeof ed25519>) => string,
  sandbox: Sandbox = createSandbox(),
) {
  const key = ed25519();
  const view = await openForm(sandbox);
  await view.user.type(hintField(), hint);
  await pastePublicKey(view.user, keyText(key));
  await view.user.click(generateButton());
  await signForm();
  return { sandbox, key, view };
}

/** The multi-hash step 2 shows, as the user would copy it. */
function shownMultiHash(): Buffer {
  const group = screen.getByRole('group', { name: 'Multi-hash (base64)' });
  const text = within(group).getByText(/^[A-Za-z0-9+/]+=*$/).textContent;
  return Buffer.from(text, 'base64');
}

const signatureOf = (privateKey: KeyObject, bytes: Buffer) =>
  sign(null, bytes, privateKey).toString('hex');

describe('allocate external party', { timeout: JOURNEY_TIMEOUT }, () => {
  it(
    'makes a key in the browser, shows the decoded topology, offers the key as a download and allocates',
    async () => {
      const sandbox = createSandbox();
      const downloads = captureDownloads();
      const view = await openForm(sandbox);
      const bodies = recordBodies(view);

      await view.user.type(hintField(), 'wallet');
      await view.user.click(generateButton());

      const form = await signForm();
      const partyGroup = screen.getByRole('group', { name: 'Party id' });
      const partyId = within(partyGroup).getByText(/^wallet::1220[0-9a-f]{64}$/).textContent;
      const fingerprint = partyId.slice('wallet::'.length);
      expect(
        within(screen.getByRole('group', { name: 'Key fingerprint' })).getByText(fingerprint),
      ).toBeVisible();
      expect(
        within(screen.getByRole('group', { name: 'Multi-hash check' })).getByText('Matches'),
      ).toBeVisible();
      const transaction = screen.getByRole('region', {
        name: 'Topology transaction 1: PartyToParticipant',
      });
      const hosting = within(transaction).getByRole('table', { name: 'Hosting participants' });
      expect(within(hosting).getByText('CONFIRMATION')).toBeVisible();
      expect(within(hosting).getByText('(this participant)')).toBeVisible();
      const keys = within(transaction).getByRole('table', { name: 'Party signing keys' });
      expect(within(keys).getByText('EC_CURVE25519')).toBeVisible();
      expect(within(transaction).getByText('Signing threshold: 1 of 1 keys')).toBeVisible();

      // The key must be saved before the party exists.
      expect(screen.getByText(/The console keeps nothing/)).toBeVisible();
      expect(within(form).getByRole('button', { name: 'Sign and allocate' })).toBeDisabled();
      await view.user.click(
        screen.getByRole('button', { name: 'Download private key (wallet.ed25519.pem)' }),
      );
      expect(downloads.names).toEqual(['wallet.ed25519.pem']);
      const pem = await downloads.saved[0]?.text();
      expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      await view.user.click(allocateButton());

      expect(await screen.findByRole('heading', { name: 'wallet', level: 1 })).toBeVisible();
      expect(decodeURIComponent(view.router.state.location.pathname)).toBe(`/parties/${partyId}`);
      expect(sandbox.state.hostingSynchronizers(partyId)).toEqual([sandbox.state.synchronizerId]);
      expect(sandbox.state.parties.signingKeys(partyId)).toBeDefined();
      // The party page marks it, with its key's fingerprint and its hosting.
      const hostingGroup = await screen.findByRole('group', { name: 'Hosting' });
      expect(within(hostingGroup).getByText('External')).toBeVisible();
      expect(
        within(screen.getByRole('group', { name: 'Key fingerprint' })).getByText(fingerprint),
      ).toBeVisible();
      expect(
        await within(screen.getByRole('group', { name: 'Synchronizers' })).findByText(
          /^local \(local::1220.*\): CONFIRMATION$/,
        ),
      ).toBeVisible();
      // Nothing of the private key went out or was stored.
      const pemBody = (pem ?? '').replace(/-----[A-Z ]+-----|\s/g, '');
      // Two writes (the topology generated, the party allocated); the new party's page also reads
      // its hosting from the update list, a POST that changes nothing.
      expect(bodies.filter((body) => !body.startsWith('POST /v2/updates\n'))).toHaveLength(2);
      for (const body of bodies) {
        expect(body).not.toContain('PRIVATE');
        expect(body).not.toContain(pemBody.slice(-44));
      }
      expect(storageText(localStorage)).not.toContain(pemBody.slice(-44));
      expect(storageText(sessionStorage)).not.toContain(pemBody.slice(-44));
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'generates for a pasted public key and signs with the key file, read in memory',
    async () => {
      const { sandbox, key, view } = await generateForPublicKey('custody', (k) => k.publicPem);
      expect(screen.queryByRole('radio', { name: 'The key made in this browser' })).toBeNull();

      // Another key's file is refused on the field.
      const fileInput = screen.getByLabelText(/^Private key file/);
      await view.user.upload(
        fileInput,
        new File([ed25519().privatePem], 'other.pem', { type: 'application/x-pem-file' }),
      );
      await waitFor(() => {
        expect(fileInput).toHaveAccessibleDescription(/This is not the party's key/);
      });
      // A file that is no key at all, too.
      await view.user.upload(fileInput, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
      await waitFor(() => {
        expect(fileInput).toHaveAccessibleDescription(/holds no private key/);
      });

      await view.user.upload(
        fileInput,
        new File([key.privatePem], 'custody.pem', { type: 'application/x-pem-file' }),
      );
      expect(
        await screen.findByText('Signed with custody.pem; the key is not kept.'),
      ).toBeVisible();
      await view.user.click(allocateButton());

      expect(await screen.findByRole('heading', { name: 'custody', level: 1 })).toBeVisible();
      const party = sandbox.state.parties
        .page('', '', 10)
        .find(({ party: id }) => id.startsWith('custody::'));
      expect(party).toBeDefined();
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'allocates with a signature made elsewhere, refusing a malformed one and one over other bytes',
    async () => {
      const { sandbox, key, view } = await generateForPublicKey('hsm', (k) => k.rawBase64);
      const multiHash = shownMultiHash();
      expect(multiHash).toHaveLength(34);

      await view.user.click(screen.getByRole('radio', { name: 'A signature made elsewhere' }));
      const signatureField = screen.getByRole('textbox', { name: /^Signature/ });
      await view.user.type(signatureField, 'abcd');
      await view.user.click(allocateButton());
      await waitFor(() => {
        expect(signatureField).toHaveAccessibleDescription(/64 bytes; this has 2/);
      });

      await view.user.clear(signatureField);
      await view.user.click(signatureField);
      await view.user.paste(signatureOf(key.privateKey, Buffer.from('another hash')));
      await view.user.click(allocateButton());
      await waitFor(() => {
        expect(signatureField).toHaveAccessibleDescription(/This signature does not verify/);
      });
      expect(sandbox.state.parties.page('', '', 10)).toEqual([]);

      await view.user.clear(signatureField);
      await view.user.click(signatureField);
      await view.user.paste(signatureOf(key.privateKey, multiHash));
      // Copy as… the allocation: signature and transactions, never a key.
      await view.user.click(screen.getByRole('button', { name: 'Copy as…' }));
      await view.user.click(await screen.findByRole('menuitem', { name: 'curl' }));
      const copied = await navigator.clipboard.readText();
      expect(copied).toMatch(/^curl -sS -X POST '.*\/v2\/parties\/external\/allocate'/);
      expect(copied).toContain('"multiHashSignatures"');
      expect(copied).toContain(
        Buffer.from(signatureOf(key.privateKey, multiHash), 'hex').toString('base64'),
      );
      expect(screen.queryByRole('menuitem', { name: 'Canton console' })).toBeNull();
      await view.user.keyboard('{Escape}');

      await view.user.click(allocateButton());
      expect(await screen.findByRole('heading', { name: 'hsm', level: 1 })).toBeVisible();
    },
    JOURNEY_TIMEOUT,
  );

  it('refuses a public key it cannot read on its field, and sends nothing', async () => {
    const view = await openForm();
    const bodies = recordBodies(view);

    await view.user.type(hintField(), 'bad-key');
    await pastePublicKey(view.user, 'not a key!');
    await view.user.click(generateButton());
    await waitFor(() => {
      expect(publicKeyField()).toHaveAccessibleDescription(/must be base64, hex or PEM/);
    });

    await view.user.clear(publicKeyField());
    await view.user.click(publicKeyField());
    await view.user.paste(ed25519().privatePem);
    await view.user.click(generateButton());
    await waitFor(() => {
      expect(publicKeyField()).toHaveAccessibleDescription(/This is a private key/);
    });
    expect(hintField()).toHaveValue('bad-key');
    expect(bodies).toEqual([]);
  });

  it('checks the hint, the other participants and the threshold before sending', async () => {
    const sandbox = createSandbox();
    const view = await openForm(sandbox);
    const bodies = recordBodies(view);

    await view.user.click(generateButton());
    await waitFor(() => {
      expect(hintField()).toHaveAccessibleDescription(/Required/);
    });
    await view.user.type(hintField(), 'a::b');
    const others = screen.getByRole('textbox', { name: /^Other confirming participants/ });
    await view.user.click(others);
    await view.user.paste(sandbox.state.participantId);
    await view.user.type(screen.getByRole('textbox', { name: /^Confirmation threshold/ }), '3');
    await view.user.click(generateButton());

    await waitFor(() => {
      expect(hintField()).toHaveAccessibleDescription(/must not contain "::"/);
    });
    expect(others).toHaveAccessibleDescription(/is this participant/);
    expect(
      screen.getByRole('textbox', { name: /^Confirmation threshold/ }),
    ).toHaveAccessibleDescription(/At most the number of confirming participants \(2\)/);
    expect(bodies).toEqual([]);
  });

  it(
    'shows a synchronizer the participant no longer knows as its refusal on the synchronizer field',
    async () => {
      const sandbox = createSandbox();
      const gone = `gone::1220${'cd'.repeat(32)}`;
      const view = renderRoute('/parties/new-external', {
        sandbox,
        // The list as it was before the participant left `gone`: the sandbox then refuses it.
        intercept: async (request, sandboxFetch) => {
          const response = await sandboxFetch(request);
          if (new URL(request.url).pathname !== '/v2/state/connected-synchronizers') {
            return response;
          }
          const body = (await response.json()) as { connectedSynchronizers: object[] };
          return Response.json({
            connectedSynchronizers: [
              ...body.connectedSynchronizers,
              {
                synchronizerAlias: 'gone',
                synchronizerId: gone,
                permission: 'PARTICIPANT_PERMISSION_SUBMISSION',
              },
            ],
          });
        },
      });
      await screen.findByRole('form', { name: 'Allocate external party' });
      const synchronizer = screen.getByRole('combobox', { name: /^Synchronizer/ });
      await waitFor(() => {
        expect(synchronizer).toBeEnabled();
      });
      await view.user.type(hintField(), 'wanderer');
      await view.user.click(synchronizer);
      await view.user.click(await screen.findByRole('option', { name: /^gone / }));
      await view.user.click(generateButton());

      await waitFor(() => {
        expect(synchronizer).toHaveAccessibleDescription(/Unknown or not connected synchronizer/);
      });
      expect(hintField()).toHaveValue('wanderer');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    "shows the participant's refusal of a party that exists already, and keeps the form",
    async () => {
      const sandbox = createSandbox();
      const key = ed25519();
      const view = await openForm(sandbox);

      const allocateOnce = async () => {
        await view.user.click(generateButton());
        await signForm();
        const multiHash = shownMultiHash();
        await view.user.click(screen.getByRole('radio', { name: 'A signature made elsewhere' }));
        await view.user.click(screen.getByRole('textbox', { name: /^Signature/ }));
        await view.user.paste(signatureOf(key.privateKey, multiHash));
        await view.user.click(allocateButton());
      };
      await view.user.type(hintField(), 'twice');
      await pastePublicKey(view.user, key.publicPem);
      await allocateOnce();
      await screen.findByRole('heading', { name: 'twice', level: 1 });

      await view.router.navigate('/parties/new-external');
      await screen.findByRole('form', { name: 'Allocate external party' });
      await view.user.type(hintField(), 'twice');
      await pastePublicKey(view.user, key.publicPem);
      await allocateOnce();

      const form = await signForm();
      expect(await within(form).findByText(/already exists on synchronizer/)).toBeVisible();
      expect(screen.getByRole('textbox', { name: /^Signature/ })).not.toHaveValue('');
      await view.user.click(screen.getByRole('button', { name: 'Back' }));
      expect(hintField()).toHaveValue('twice');
    },
    JOURNEY_TIMEOUT,
  );

  it('marks external parties in the parties list, and local ones not', async () => {
    const sandbox = createSandbox();
    seedPartyRecords(sandbox, [{ hint: 'desk' }]);
    const { key, view } = await generateForPublicKey('outside', (k) => k.rawBase64, sandbox);
    const multiHash = shownMultiHash();
    await view.user.click(screen.getByRole('radio', { name: 'A signature made elsewhere' }));
    await view.user.click(screen.getByRole('textbox', { name: /^Signature/ }));
    await view.user.paste(signatureOf(key.privateKey, multiHash));
    await view.user.click(allocateButton());
    await screen.findByRole('heading', { name: 'outside', level: 1 });

    await view.router.navigate('/parties');
    const table = await screen.findByRole('table', { name: 'Parties' });
    const outside = (await within(table).findByRole('link', { name: /^outside::/ })).closest('tr');
    const desk = within(table)
      .getByRole('link', { name: /^desk::/ })
      .closest('tr');
    expect(within(outside ?? document.body).getByText('External')).toBeVisible();
    expect(within(desk ?? document.body).queryByText('External')).toBeNull();
    expect(within(desk ?? document.body).getByText('Local')).toBeVisible();
  });

  it('copies the generate-topology request for a pasted public key as curl', async () => {
    const key = ed25519();
    const view = await openForm();
    await view.user.type(hintField(), 'copied');
    await pastePublicKey(view.user, key.rawBase64);

    await view.user.click(screen.getByRole('button', { name: 'Copy as…' }));
    await view.user.click(await screen.findByRole('menuitem', { name: 'curl' }));
    const copied = await navigator.clipboard.readText();
    expect(copied).toMatch(/^curl -sS -X POST '.*\/v2\/parties\/external\/generate-topology'/);
    expect(copied).toContain('"partyHint": "copied"');
    expect(copied).toContain(`"keyData": "${key.rawBase64}"`);
  });
});
