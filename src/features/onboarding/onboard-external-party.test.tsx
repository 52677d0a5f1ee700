import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/testing/render-route';
import { createSandbox, type Sandbox } from '@/testing/sandbox-network';
import { signInAsIdentityProviderAdmin } from '@/testing/sign-in-as';
import { captureDownloads } from '@/testing/capture-downloads';

const JWT_SECRET = 'onboard-external-test-secret';
const IDP = 'acme-idp';
// Whole-app journeys through form, topology, plan and run; tight on a shared 2-core machine.
const JOURNEY_TIMEOUT = 40_000;

afterEach(() => {
  vi.restoreAllMocks();
});

async function setUp() {
  const sandbox = createSandbox({ auth: 'jwt', jwtSecret: JWT_SECRET });
  await signInAsIdentityProviderAdmin(sandbox, { identityProviderId: IDP });
  return sandbox;
}

/** Opens the form and records every write and its body (to prove no private key goes out). */
async function openOnboarding(sandbox: Sandbox) {
  const writes: string[] = [];
  const bodies: string[] = [];
  const view = renderRoute('/onboard', {
    sandbox,
    intercept: async (request, sandboxFetch) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/__console/sign-in-providers') return Response.json({ providers: [] });
      if (request.method !== 'GET') {
        writes.push(`${request.method} ${pathname}`);
        bodies.push(await request.clone().text());
      }
      return sandboxFetch(request);
    },
  });
  await screen.findByRole('form', { name: 'Onboard a person' });
  return { ...view, writes, bodies };
}

function ed25519() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    privateKey,
    publicPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    privatePem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    rawBase64: Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString(
      'base64',
    ),
  };
}

const signatureOf = (privateKey: KeyObject, bytes: Buffer) =>
  sign(null, bytes, privateKey).toString('base64');

/** The multi-hash the form shows, as the admin would copy it for the person. */
function shownMultiHash(): Buffer {
  const group = screen.getByRole('group', { name: 'Multi-hash (hex)' });
  const text = within(group).getByText(/^[0-9a-f]+$/).textContent;
  return Buffer.from(text, 'hex');
}

async function chooseExternal(user: UserEvent, subject: string, hint: string) {
  await user.type(screen.getByRole('textbox', { name: /^Subject \(user id\)/ }), subject);
  await user.click(
    screen.getByRole('radio', { name: /^External party \(the person holds the key\)/ }),
  );
  await user.type(screen.getByRole('textbox', { name: /^Party hint/ }), hint);
  // One synchronizer: chosen for the admin.
  await waitFor(() => {
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: /^Synchronizer/ }).value).toMatch(
      /^local \(/,
    );
  });
}

function planItems() {
  return within(screen.getByRole('list', { name: 'Planned calls' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

describe('onboard a person with an external party', { timeout: JOURNEY_TIMEOUT }, () => {
  it(
    'generates the topology for their public key, refuses a wrong signature on its field, then allocates with theirs',
    async () => {
      const sandbox = await setUp();
      const key = ed25519();
      const { user, writes, bodies } = await openOnboarding(sandbox);

      await chooseExternal(user, 'erin', 'erin');
      await user.click(screen.getByRole('textbox', { name: /^Public key/ }));
      await user.paste(key.publicPem);
      // Reviewing before the topology exists says what to do, on the hint.
      await user.click(screen.getByRole('button', { name: 'Review the plan' }));
      expect(
        await screen.findByText(/Generate the topology for this hint and key first/),
      ).toBeVisible();

      await user.click(screen.getByRole('button', { name: 'Generate topology' }));
      const region = await screen.findByRole('region', { name: "What the person's key signs" });
      const partyId = within(screen.getByRole('group', { name: 'Party id' })).getByText(
        /^erin::1220[0-9a-f]{64}$/,
      ).textContent;
      expect(
        within(screen.getByRole('group', { name: 'Multi-hash check' })).getByText('Matches'),
      ).toBeVisible();
      expect(
        within(region).getByRole('region', { name: 'Topology transaction 1: PartyToParticipant' }),
      ).toBeVisible();
      const multiHash = shownMultiHash();
      expect(multiHash).toHaveLength(34);

      // A signature over other bytes: named on its field; nothing typed is lost, nothing sent.
      const signatureField = screen.getByRole('textbox', { name: /^Signature/ });
      await user.click(signatureField);
      await user.paste(signatureOf(key.privateKey, Buffer.from('another hash')));
      await user.click(screen.getByRole('button', { name: 'Review the plan' }));
      await waitFor(() => {
        expect(signatureField).toHaveAccessibleDescription(/This signature does not verify/);
      });
      expect(screen.getByRole('textbox', { name: /^Subject \(user id\)/ })).toHaveValue('erin');
      expect(screen.getByRole('textbox', { name: /^Party hint/ })).toHaveValue('erin');
      expect(screen.queryByRole('list', { name: 'Planned calls' })).toBeNull();
      // generate-topology changes nothing on the participant; nothing else went out.
      expect(writes).toEqual(['POST /v2/parties/external/generate-topology']);

      await user.clear(signatureField);
      await user.click(signatureField);
      await user.paste(signatureOf(key.privateKey, multiHash));
      await user.click(screen.getByRole('button', { name: 'Review the plan' }));

      await screen.findByRole('list', { name: 'Planned calls' });
      const items = planItems();
      expect(items).toHaveLength(3);
      expect(items[1]).toMatch(
        new RegExp(
          `^POST/v2/parties/external/allocateAllocate external party ${partyId} on ${sandbox.state.synchronizerId} in identity provider ${IDP} for user erin`,
        ),
      );
      expect(items[1]).toContain('"multiHashSignatures"');
      expect(items[1]).toContain('"userId": "erin"');
      expect(writes).toEqual(['POST /v2/parties/external/generate-topology']);

      await user.click(screen.getByRole('button', { name: 'Run the plan' }));
      expect(await screen.findByText('erin is onboarded')).toBeVisible();
      expect(writes).toEqual([
        'POST /v2/parties/external/generate-topology',
        'POST /v2/users',
        'POST /v2/parties/external/allocate',
        'PATCH /v2/users/erin',
      ]);
      expect(sandbox.state.hostingSynchronizers(partyId)).toEqual([sandbox.state.synchronizerId]);
      expect(sandbox.state.parties.signingKeys(partyId)).toBeDefined();
      expect(sandbox.state.parties.get(partyId)?.identityProviderId).toBe(IDP);
      expect(sandbox.state.users.get('erin')).toMatchObject({ primaryParty: partyId });
      expect(sandbox.state.users.rights('erin')).toEqual([{ kind: 'CanActAs', party: partyId }]);
      for (const body of bodies) expect(body).not.toContain('PRIVATE');
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'makes the key in this browser, insists on its download before planning, and signs with it',
    async () => {
      const sandbox = await setUp();
      const downloads = captureDownloads();
      const { user, writes, bodies } = await openOnboarding(sandbox);

      await chooseExternal(user, 'fay', 'fay');
      await user.click(screen.getByRole('radio', { name: 'Generate a key in this browser' }));
      await user.click(screen.getByRole('button', { name: 'Generate topology' }));
      await screen.findByRole('region', { name: "What the person's key signs" });
      const partyId = within(screen.getByRole('group', { name: 'Party id' })).getByText(
        /^fay::1220[0-9a-f]{64}$/,
      ).textContent;
      expect(screen.getByText(/The console keeps nothing/)).toBeVisible();
      expect(
        screen.getByRole('radio', { name: 'Sign with the key made in this browser' }),
      ).toBeChecked();

      await user.click(screen.getByRole('button', { name: 'Review the plan' }));
      expect(
        await screen.findByText(
          /Download the private key first: without it, nobody can act as the party/,
        ),
      ).toBeVisible();

      await user.click(
        screen.getByRole('button', { name: 'Download private key (fay.ed25519.pem)' }),
      );
      expect(downloads.names).toEqual(['fay.ed25519.pem']);
      const pem = (await downloads.saved[0]?.text()) ?? '';
      expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);

      await user.click(screen.getByRole('button', { name: 'Review the plan' }));
      await screen.findByRole('list', { name: 'Planned calls' });
      expect(planItems()[1]).toContain(`Allocate external party ${partyId} on`);

      await user.click(screen.getByRole('button', { name: 'Run the plan' }));
      expect(await screen.findByText('fay is onboarded')).toBeVisible();
      expect(writes).toContain('POST /v2/parties/external/allocate');
      expect(sandbox.state.parties.signingKeys(partyId)).toBeDefined();
      expect(sandbox.state.users.rights('fay')).toEqual([{ kind: 'CanActAs', party: partyId }]);
      const pemBody = pem.replace(/-----[A-Z ]+-----|\s/g, '');
      for (const body of bodies) {
        expect(body).not.toContain('PRIVATE');
        expect(body).not.toContain(pemBody.slice(-44));
      }
    },
    JOURNEY_TIMEOUT,
  );
});
