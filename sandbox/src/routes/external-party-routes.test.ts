import { createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  Enums_ParticipantPermission,
  Enums_TopologyChangeOp,
  NamespaceDelegation,
  SigningKeyUsage,
  SigningPublicKey,
  TopologyMapping,
  TopologyTransaction,
  VettedPackages,
} from '@canton-network/core-ledger-proto';
import { createKeyPair, signTransactionHash } from '@canton-network/core-signing-lib';
import {
  computeMultiHashForTopology,
  computeSha256CantonHash,
  decodeTopologyTransaction,
} from '@canton-network/core-tx-visualizer';
import { SDK } from '@canton-network/wallet-sdk';
import { BinaryReader, UnknownFieldHandler } from '@protobuf-ts/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cantonHash, readSigningKey } from '../ledger/external/keys';
import {
  encodePartyToParticipantTransaction,
  unwrapVersioned,
  wrapVersioned,
  type HostingParticipant,
} from '../ledger/external/topology';
import { connectedSynchronizers } from '../synchronizers';
import { JS_CANTON_ERROR_KEYS } from '../testing/raw-http';
import {
  canActAs,
  createTestSandbox,
  expectDecodeFailure,
  expectError,
  plainRight,
  type CallResult,
  type TestSandbox,
} from '../testing/test-client';
import { hs256Token, TEST_SECRET } from '../testing/tokens';

const GENERATE = '/v2/parties/external/generate-topology';
const ALLOCATE = '/v2/parties/external/allocate';

let t: TestSandbox;
beforeEach(() => {
  t = createTestSandbox();
});
afterEach(() => {
  t.close();
});

const synchronizer = () => t.state.synchronizerId;

/** An Ed25519 key's raw 32 bytes, as wallets send them. */
const rawEd25519 = (publicKey: KeyObject) =>
  Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');

const rawKey = (publicKey: KeyObject) => ({
  format: 'CRYPTO_KEY_FORMAT_RAW',
  keyData: rawEd25519(publicKey).toString('base64'),
  keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
});

const derKey = (publicKey: KeyObject, keySpec = 'SIGNING_KEY_SPEC_EC_CURVE25519') => ({
  format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
  keyData: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  keySpec,
});

/** The fingerprint Canton and the wallet SDK compute: `1220` ‖ SHA-256(int32be(12) ‖ raw key). */
const fingerprintOfRaw = (raw: Buffer) => cantonHash(12, raw).toString('hex');

type Generated = {
  partyId: string;
  publicKeyFingerprint: string;
  topologyTransactions: string[];
  multiHash: string;
};

const generate = async (body: Record<string, unknown>, token?: string): Promise<Generated> => {
  const result = await t.post(GENERATE, body, token === undefined ? {} : { token });
  expect(result.status, result.text).toBe(200);
  return result.json as Generated;
};

const ed25519Signature = (privateKey: KeyObject, bytes: Uint8Array, signedBy: string) => ({
  format: 'SIGNATURE_FORMAT_CONCAT',
  signature: sign(null, bytes, privateKey).toString('base64'),
  signedBy,
  signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
});

const allocate = (body: Record<string, unknown>, token?: string) =>
  t.post(ALLOCATE, { synchronizer: synchronizer(), ...body }, token === undefined ? {} : { token });

/** A fresh Ed25519 party's generated topology, signed over the multi-hash. */
async function signedTopology(hint: string, extra: Record<string, unknown> = {}) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const generated = await generate({
    synchronizer: synchronizer(),
    partyHint: hint,
    publicKey: rawKey(publicKey),
    ...extra,
  });
  const multiHashSignatures = [
    ed25519Signature(
      privateKey,
      Buffer.from(generated.multiHash, 'base64'),
      generated.publicKeyFingerprint,
    ),
  ];
  return {
    generated,
    privateKey,
    publicKey,
    body: {
      onboardingTransactions: generated.topologyTransactions.map((transaction) => ({
        transaction,
      })),
      multiHashSignatures,
    },
  };
}

const listedParties = async () =>
  ((await t.get('/v2/parties')).json.partyDetails as { party: string }[]).map(({ party }) => party);

/** Asserts nothing was allocated: no party, no update, no hosting. */
async function expectNothingAllocated(partyId: string, ledgerEnd = 0) {
  expect(await listedParties()).not.toContain(partyId);
  expect(t.state.history.ledgerEnd()).toBe(ledgerEnd);
  expect(t.state.parties.signingKeys(partyId)).toBeUndefined();
  expect(t.state.hostingSynchronizers(partyId)).toEqual([]);
}

/** The body a participant answers for a topology error the sync service passed on bare. */
function expectBareStatus(result: CallResult, description: string) {
  expect(result.status, result.text).toBe(400);
  expect(Object.keys(result.json)).toEqual(JS_CANTON_ERROR_KEYS);
  expect(result.json).toEqual({
    code: description,
    cause: `INVALID_ARGUMENT: ${description}`,
    correlationId: null,
    traceId: null,
    context: {},
    resources: [],
    errorCategory: -1,
    grpcCodeValue: 3,
    retryInfo: null,
    definiteAnswer: null,
  });
}

const topologyEvents = async (party: string) => {
  const updates = await t.post('/v2/updates?stream_idle_timeout_ms=50', {
    beginExclusive: 0,
    updateFormat: {
      includeTopologyEvents: { includeParticipantAuthorizationEvents: { parties: [party] } },
    },
  });
  return (updates.json as any[]).map((element) => element.update.TopologyTransaction.value);
};

/** Re-encodes a generated transaction after `change` (field 4 survives as an unknown field). */
function rewrite(transaction: string, change: (decoded: TopologyTransaction) => void) {
  const { data } = unwrapVersioned(Buffer.from(transaction, 'base64'));
  const decoded = TopologyTransaction.fromBinary(data ?? new Uint8Array());
  change(decoded);
  return Buffer.from(wrapVersioned(TopologyTransaction.toBinary(decoded))).toString('base64');
}

describe('POST /v2/parties/external/generate-topology', () => {
  it("answers Canton 3.5's PartyToParticipant for an Ed25519 key, as the reference decodes and hashes it", async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const raw = rawEd25519(publicKey);
    const generated = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Alice',
      publicKey: rawKey(publicKey),
    });
    const fingerprint = fingerprintOfRaw(raw);
    expect(generated.publicKeyFingerprint).toBe(fingerprint);
    // The wallet SDK's own fingerprint of the same key.
    const sdk = SDK.createOffline();
    expect(await sdk.keys.fingerprint(raw.toString('base64'))).toBe(fingerprint);
    expect(generated.partyId).toBe(`Alice::${fingerprint}`);
    expect(generated.topologyTransactions).toHaveLength(1);
    const wrapper = Buffer.from(generated.topologyTransactions[0] ?? '', 'base64');
    const { data, version } = unwrapVersioned(wrapper);
    expect(version).toBe(30);
    const transaction = decodeTopologyTransaction(Buffer.from(data ?? []).toString('base64'));
    expect(transaction.operation).toBe(Enums_TopologyChangeOp.ADD_REPLACE);
    expect(transaction.serial).toBe(1);
    const mapping = transaction.mapping?.mapping;
    if (mapping?.oneofKind !== 'partyToParticipant') throw new Error('not a PartyToParticipant');
    expect(mapping.partyToParticipant).toMatchObject({
      party: generated.partyId,
      threshold: 1,
      participants: [{ participantUid: t.state.participantId, permission: 2 }],
    });
    // party_signing_keys = 4: the party's key as X.509 SPKI, threshold 1.
    const [field] = UnknownFieldHandler.list(mapping.partyToParticipant, 4);
    const reader = new BinaryReader(new BinaryReader(field?.data ?? new Uint8Array()).bytes());
    expect(reader.tag()[0]).toBe(1);
    const key = SigningPublicKey.fromBinary(reader.bytes());
    expect(Buffer.from(key.publicKey)).toEqual(publicKey.export({ format: 'der', type: 'spki' }));
    expect(key.usage).toEqual([
      SigningKeyUsage.NAMESPACE,
      SigningKeyUsage.PROOF_OF_OWNERSHIP,
      SigningKeyUsage.PROTOCOL,
    ]);
    expect(reader.tag()[0]).toBe(2);
    expect(reader.uint32()).toBe(1);
    // multiHash = the reference's hash of the multi-hash over the transaction's hash.
    const expected = await computeSha256CantonHash(
      55,
      await computeMultiHashForTopology([await computeSha256CantonHash(11, wrapper)]),
    );
    expect(Buffer.from(generated.multiHash, 'base64')).toEqual(Buffer.from(expected));
  });

  it('gives a DER Ed25519 key the same fingerprint as its raw bytes, and fingerprints P-256 over the DER', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const fromRaw = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Same',
      publicKey: rawKey(publicKey),
    });
    const fromDer = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Same',
      publicKey: derKey(publicKey),
    });
    expect(fromDer.partyId).toBe(fromRaw.partyId);
    expect(fromDer.topologyTransactions).toEqual(fromRaw.topologyTransactions);
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
    const der = p256.export({ format: 'der', type: 'spki' });
    const generated = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Pat',
      publicKey: derKey(p256, 'SIGNING_KEY_SPEC_EC_P256'),
    });
    expect(generated.publicKeyFingerprint).toBe(cantonHash(12, der).toString('hex'));
    expect(generated.partyId).toBe(`Pat::${generated.publicKeyFingerprint}`);
  });

  it('lists the other participants, and defaults the threshold to every confirmer', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const [confirmer, observer] = [`p2::1220${'a'.repeat(64)}`, `p3::1220${'b'.repeat(64)}`];
    const generated = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Multi',
      publicKey: rawKey(publicKey),
      otherConfirmingParticipantUids: [confirmer],
      observingParticipantUids: [observer],
    });
    const { data } = unwrapVersioned(
      Buffer.from(generated.topologyTransactions[0] ?? '', 'base64'),
    );
    const mapping = decodeTopologyTransaction(Buffer.from(data ?? []).toString('base64')).mapping
      ?.mapping;
    if (mapping?.oneofKind !== 'partyToParticipant') throw new Error('not a PartyToParticipant');
    expect(mapping.partyToParticipant.threshold).toBe(2);
    expect(mapping.partyToParticipant.participants).toEqual([
      { participantUid: t.state.participantId, permission: 2 },
      { participantUid: confirmer, permission: 2 },
      { participantUid: observer, permission: 3 },
    ]);
    const observing = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Watch',
      publicKey: rawKey(publicKey),
      localParticipantObservationOnly: true,
      otherConfirmingParticipantUids: [confirmer],
      confirmationThreshold: 1,
    });
    const watched = unwrapVersioned(
      Buffer.from(observing.topologyTransactions[0] ?? '', 'base64'),
    ).data;
    const watchedMapping = decodeTopologyTransaction(Buffer.from(watched ?? []).toString('base64'))
      .mapping?.mapping;
    if (watchedMapping?.oneofKind !== 'partyToParticipant') throw new Error('not a P2P');
    expect(watchedMapping.partyToParticipant.participants[0]?.permission).toBe(3);
  });

  it('refuses what the participant refuses, with its messages', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    const valid = { synchronizer: synchronizer(), partyHint: 'Bad', publicKey: rawKey(publicKey) };
    const refused = async (
      change: Record<string, unknown>,
      status = 400,
      code = 'INVALID_ARGUMENT',
    ) =>
      expectError(await t.post(GENERATE, { ...valid, ...change }), status, code).cause.replace(
        'The submitted request has invalid arguments: ',
        '',
      );
    const namespace = t.state.participantId.split('::')[1] ?? '';
    expect(await refused({ partyHint: '' })).toBe('Party hint is empty');
    expect(await refused({ partyHint: 'bad!' })).toMatch(/^party_hint: .*0x21/);
    expect(await refused({ partyHint: 'a::b' })).toBe(
      'party_hint: String contains reserved delimiter `::`.',
    );
    expect(await refused({ partyHint: 'x'.repeat(186) })).toContain(
      'has a maximum length of 185 but a string of length 186',
    );
    expect(await refused({ publicKey: null })).toBe('Field `public_key` is not set');
    expect(
      await refused({
        publicKey: { ...rawKey(publicKey), keyData: Buffer.alloc(31).toString('base64') },
      }),
    ).toBe('An Ed25519 public key has 32 bytes');
    expect(
      await refused({ publicKey: { ...rawKey(publicKey), keySpec: 'SIGNING_KEY_SPEC_EC_P384' } }),
    ).toContain('Unsupported signing key spec SIGNING_KEY_SPEC_EC_P384');
    expect(await refused({ publicKey: derKey(publicKey, 'SIGNING_KEY_SPEC_EC_P256') })).toBe(
      'The key is not an EC P-256 key',
    );
    expect(await refused({ synchronizer: '' })).toBe(
      'Empty string is not a valid unique identifier.',
    );
    expect(await refused({ synchronizer: 'nowhere' })).toBe(
      'Invalid unique identifier `nowhere` with missing namespace.',
    );
    expect(await refused({ synchronizer: `nowhere::${namespace}` })).toBe(
      `Unknown or not connected synchronizer nowhere::${namespace.slice(0, 12)}...`,
    );
    expect(await refused({ otherConfirmingParticipantUids: ['::1220ab'] })).toBe(
      'Invalid unique identifier `::1220ab` with empty identifier.',
    );
    expect(await refused({ observingParticipantUids: ['p!::1220ab'] })).toMatch(
      /^Identifier decoding of `p!::1220ab` failed with: /,
    );
    expect(await refused({ otherConfirmingParticipantUids: [t.state.participantId] })).toBe(
      `This participant node (PAR::sandbox::${namespace.slice(0, 12)}...) is also listed in 'otherConfirmingParticipantUids'. By sending the request to this node, it is de facto a hosting node and must not be listed in 'otherConfirmingParticipantUids'.`,
    );
    expect(
      await refused({
        otherConfirmingParticipantUids: ['p2::1220ab'],
        observingParticipantUids: ['p2::1220ab'],
      }),
    ).toContain(
      'The following participant IDs are referenced multiple times in the request: p2::1220ab.',
    );
    expect(await refused({ confirmationThreshold: -1 })).toBe(
      'Negative confirmation threshold observed',
    );
    expect(await refused({ confirmationThreshold: 2 })).toBe(
      'Confirmation threshold exceeds number of confirming participants',
    );
    // Observing only, with no other confirmer: the participant fails building a threshold of 0.
    expect(await refused({ localParticipantObservationOnly: true }, 500, 'NA')).toBe(
      'A security-sensitive error has been received',
    );
    expectDecodeFailure(
      await t.post(GENERATE, {
        ...valid,
        publicKey: { ...rawKey(publicKey), keyData: 'not base64!' },
      }),
      "Invalid value for: body (Illegal base64 character at 'publicKey.keyData')",
    );
    // Served now, so another method on the path is tapir's 405 rather than the sandbox's 501.
    expect((await t.get(GENERATE)).status).toBe(405);
    expect((await t.get(ALLOCATE)).status).toBe(405);
    expect(t.state.history.ledgerEnd()).toBe(0);
  });
});

describe('POST /v2/parties/external/allocate', () => {
  it('hosts a party whose multi-hash signature verifies: listed, hosted with CONFIRMATION, in the update stream, with its user', async () => {
    await t.post('/v2/users', { user: { id: 'wallet' } });
    const { generated, body, publicKey } = await signedTopology('Alice');
    const allocated = await allocate({ ...body, userId: 'wallet' });
    expect(allocated.status, allocated.text).toBe(200);
    expect(allocated.json).toEqual({ partyId: generated.partyId });
    const party = generated.partyId;
    expect((await t.get(`/v2/parties/${encodeURIComponent(party)}`)).json.partyDetails).toEqual([
      {
        party,
        isLocal: true,
        localMetadata: { resourceVersion: '0', annotations: {} },
        identityProviderId: '',
      },
    ]);
    expect(await listedParties()).toContain(party);
    expect((await t.get('/v2/users/wallet/rights')).json.rights).toEqual([canActAs(party)]);
    const connected = await t.get(
      `/v2/state/connected-synchronizers?party=${encodeURIComponent(party)}`,
    );
    expect(connected.json.connectedSynchronizers).toEqual([
      {
        synchronizerAlias: 'local',
        synchronizerId: synchronizer(),
        permission: 'PARTICIPANT_PERMISSION_CONFIRMATION',
      },
    ]);
    const [event, ...rest] = await topologyEvents(party);
    expect(rest).toEqual([]);
    expect(event).toMatchObject({
      offset: 1,
      synchronizerId: synchronizer(),
      events: [
        {
          event: {
            ParticipantAuthorizationAdded: {
              value: {
                partyId: party,
                participantId: t.state.participantId,
                participantPermission: 'PARTICIPANT_PERMISSION_CONFIRMATION',
              },
            },
          },
        },
      ],
    });
    // The key the party signs with from now on.
    expect(t.state.parties.signingKeys(party)).toEqual({
      keys: [
        readSigningKey({
          format: 'CRYPTO_KEY_FORMAT_DER_X509_SUBJECT_PUBLIC_KEY_INFO',
          keyData: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
          keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
        }),
      ],
      threshold: 1,
    });
    // Allocating it again is the participant's EXTERNAL_PARTY_ALREADY_EXISTS, rewritten.
    const again = expectError(await allocate(body), 400, 'INVALID_ARGUMENT');
    expect(again.cause).toBe(
      `The submitted request has invalid arguments: Party ${party.slice(0, party.indexOf('::') + 14)}... already exists on synchronizer ${synchronizer().slice(0, synchronizer().indexOf('::') + 14)}...`,
    );
    expect(t.state.history.ledgerEnd()).toBe(1);
    // The same hint with another key is another party.
    const other = await signedTopology('Alice');
    expect(other.generated.partyId).not.toBe(party);
    expect((await allocate(other.body)).json).toEqual({ partyId: other.generated.partyId });
  });

  it('does not let the participant submit for an external party, which only it may sign for', async () => {
    const { generated, body } = await signedTopology('Signer');
    await allocate(body);
    const local = (await t.post('/v2/parties', { partyIdHint: 'Bank' })).json.partyDetails.party;
    const create = (actAs: string) =>
      t.post('/v2/commands/submit-and-wait', {
        commands: [
          {
            CreateCommand: {
              templateId: '#sandbox-demo:Demo.Iou:Iou',
              createArguments: {
                issuer: actAs,
                owner: actAs,
                currency: 'EUR',
                amount: '1',
                observers: [local === actAs ? generated.partyId : local],
              },
            },
          },
        ],
        commandId: `c-${actAs}`,
        actAs: [actAs],
        userId: 'participant_admin',
      });
    const refused = expectError(
      await create(generated.partyId),
      404,
      'NO_SYNCHRONIZER_ON_WHICH_ALL_SUBMITTERS_CAN_SUBMIT',
    );
    expect(refused.cause).toContain(generated.partyId);
    // As an informee it is hosted like any party.
    expect((await create(local)).status).toBe(200);
  });

  it('accepts a signature of the transaction itself instead of the multi-hash', async () => {
    const { generated, privateKey } = await signedTopology('Bob');
    const [transaction = ''] = generated.topologyTransactions;
    const hash = cantonHash(11, Buffer.from(transaction, 'base64'));
    const result = await allocate({
      onboardingTransactions: [
        {
          transaction,
          signatures: [ed25519Signature(privateKey, hash, generated.publicKeyFingerprint)],
        },
      ],
      waitForAllocation: false,
    });
    expect(result.json).toEqual({ partyId: generated.partyId });
    expect(await listedParties()).toContain(generated.partyId);
  });

  it('onboards a P-256 party signing with ECDSA', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const generated = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Pat',
      publicKey: derKey(publicKey, 'SIGNING_KEY_SPEC_EC_P256'),
    });
    const result = await allocate({
      onboardingTransactions: generated.topologyTransactions.map((transaction) => ({
        transaction,
      })),
      multiHashSignatures: [
        {
          format: 'SIGNATURE_FORMAT_DER',
          signature: sign(
            'sha256',
            Buffer.from(generated.multiHash, 'base64'),
            privateKey,
          ).toString('base64'),
          signedBy: generated.publicKeyFingerprint,
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_EC_DSA_SHA_256',
        },
      ],
    });
    expect(result.json).toEqual({ partyId: generated.partyId });
    expect(t.state.parties.signingKeys(generated.partyId)?.keys[0]?.spec).toBe(
      'SIGNING_KEY_SPEC_EC_P256',
    );
  });

  it('onboards a key made and signed by the Canton team’s signing library', async () => {
    const { publicKey, privateKey } = createKeyPair();
    const generated = await generate({
      synchronizer: synchronizer(),
      partyHint: 'Lib',
      publicKey: {
        format: 'CRYPTO_KEY_FORMAT_RAW',
        keyData: publicKey,
        keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
      },
    });
    expect(generated.publicKeyFingerprint).toBe(
      await SDK.createOffline().keys.fingerprint(publicKey),
    );
    const result = await allocate({
      onboardingTransactions: generated.topologyTransactions.map((transaction) => ({
        transaction,
      })),
      multiHashSignatures: [
        {
          format: 'SIGNATURE_FORMAT_CONCAT',
          signature: signTransactionHash(generated.multiHash, privateKey),
          signedBy: generated.publicKeyFingerprint,
          signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
        },
      ],
    });
    expect(result.json).toEqual({ partyId: generated.partyId });
  });

  it('hosts a party with other confirming participants here, with an event for each of them', async () => {
    const other = `p2::1220${'a'.repeat(64)}`;
    const { generated, body } = await signedTopology('Shared', {
      otherConfirmingParticipantUids: [other],
      confirmationThreshold: 1,
    });
    expect((await allocate(body)).json).toEqual({ partyId: generated.partyId });
    const [event] = await topologyEvents(generated.partyId);
    expect(
      event.events.map((e: any) => [
        e.event.ParticipantAuthorizationAdded.value.participantId,
        e.event.ParticipantAuthorizationAdded.value.participantPermission,
      ]),
    ).toEqual([
      [t.state.participantId, 'PARTICIPANT_PERMISSION_CONFIRMATION'],
      [other, 'PARTICIPANT_PERMISSION_CONFIRMATION'],
    ]);
  });

  it('refuses a wrong signature, a signature over a tampered transaction and a missing co-signer; nothing is allocated', async () => {
    const { generated, body } = await signedTopology('Mallory');
    const intruder = generateKeyPairSync('ed25519').privateKey;
    const multiHash = Buffer.from(generated.multiHash, 'base64');
    // Signed by another key but claiming to be the party's.
    expectBareStatus(
      await allocate({
        ...body,
        multiHashSignatures: [
          ed25519Signature(intruder, multiHash, generated.publicKeyFingerprint),
        ],
      }),
      'Transaction signature verification failed',
    );
    // The party's signature, over the transaction before a participant was added to it.
    const [transaction = ''] = generated.topologyTransactions;
    const tampered = rewrite(transaction, (decoded) => {
      const mapping = decoded.mapping?.mapping;
      if (mapping?.oneofKind === 'partyToParticipant') {
        mapping.partyToParticipant.participants.push({
          participantUid: `evil::1220${'e'.repeat(64)}`,
          permission: Enums_ParticipantPermission.CONFIRMATION,
        });
      }
    });
    expectBareStatus(
      await allocate({ ...body, onboardingTransactions: [{ transaction: tampered }] }),
      'Transaction signature verification failed',
    );
    // A signature in the wrong format for Ed25519.
    expectBareStatus(
      await allocate({
        ...body,
        multiHashSignatures: [{ ...body.multiHashSignatures[0], format: 'SIGNATURE_FORMAT_DER' }],
      }),
      'Transaction signature verification failed',
    );
    await expectNothingAllocated(generated.partyId);
  });

  it('keeps an onboarding the party did not sign as a proposal: answered, not hosted', async () => {
    await t.post('/v2/users', { user: { id: 'early' } });
    const { generated, body } = await signedTopology('Unsigned');
    const intruder = generateKeyPairSync('ed25519');
    const intruderFingerprint = fingerprintOfRaw(rawEd25519(intruder.publicKey));
    const multiHash = Buffer.from(generated.multiHash, 'base64');
    for (const multiHashSignatures of [
      [],
      [ed25519Signature(intruder.privateKey, multiHash, intruderFingerprint)],
    ]) {
      const result = await allocate({ ...body, multiHashSignatures, userId: 'early' });
      expect(result.json).toEqual({ partyId: generated.partyId });
      await expectNothingAllocated(generated.partyId);
    }
    // As on a participant, the user already holds its right to the party-to-be.
    expect((await t.get('/v2/users/early/rights')).json.rights).toEqual([
      canActAs(generated.partyId),
    ]);
    // Signed by the party, the same onboarding then hosts it.
    expect((await allocate(body)).json).toEqual({ partyId: generated.partyId });
    expect(await listedParties()).toContain(generated.partyId);
  });

  it('refuses a party key that signs while another of its keys does not', async () => {
    const first = generateKeyPairSync('ed25519');
    const second = generateKeyPairSync('ed25519');
    const key = (publicKey: KeyObject) =>
      readSigningKey({
        format: 'CRYPTO_KEY_FORMAT_RAW',
        keyData: rawEd25519(publicKey).toString('base64'),
        keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
      });
    const [one, two] = [key(first.publicKey), key(second.publicKey)];
    const party = `Duo::${one.fingerprint}`;
    const wrapped = encodePartyToParticipantTransaction({
      party,
      threshold: 1,
      participants: [{ participantUid: t.state.participantId, permission: 'CONFIRMATION' }],
      partySigningKeys: { keys: [one, two], threshold: 1 },
    });
    const hash = cantonHash(11, wrapped);
    const transaction = Buffer.from(wrapped).toString('base64');
    expectBareStatus(
      await allocate({
        onboardingTransactions: [
          { transaction, signatures: [ed25519Signature(first.privateKey, hash, one.fingerprint)] },
        ],
      }),
      `Topology transaction is missing authorizations by namespaces=Set() and keys=Set(${two.fingerprint.slice(0, 12)}...)`,
    );
    await expectNothingAllocated(party);
    const both = await allocate({
      onboardingTransactions: [
        {
          transaction,
          signatures: [
            ed25519Signature(first.privateKey, hash, one.fingerprint),
            ed25519Signature(second.privateKey, hash, two.fingerprint),
          ],
        },
      ],
    });
    expect(both.json).toEqual({ partyId: party });
    expect(t.state.parties.signingKeys(party)?.keys).toHaveLength(2);
  });

  it('refuses transactions that do not host the party here as the participant does', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const key = readSigningKey(rawKey(publicKey));
    const party = `Elsewhere::${key.fingerprint}`;
    const other = `p2::1220${'a'.repeat(64)}`;
    const onboard = (participants: HostingParticipant[], partySigningKeys = true) => {
      const wrapped = encodePartyToParticipantTransaction({
        party,
        threshold: 1,
        participants,
        partySigningKeys: { keys: [key], threshold: 1 },
      });
      const transaction = partySigningKeys
        ? Buffer.from(wrapped).toString('base64')
        : rewrite(Buffer.from(wrapped).toString('base64'), (decoded) => {
            const mapping = decoded.mapping?.mapping;
            if (mapping?.oneofKind === 'partyToParticipant') {
              Reflect.deleteProperty(mapping.partyToParticipant, UnknownFieldHandler.symbol);
            }
          });
      const hash = cantonHash(11, Buffer.from(transaction, 'base64'));
      return allocate({
        onboardingTransactions: [
          { transaction, signatures: [ed25519Signature(privateKey, hash, key.fingerprint)] },
        ],
      });
    };
    const cause = async (result: Promise<CallResult>) =>
      expectError(await result, 400, 'INVALID_ARGUMENT').cause.replace(
        'The submitted request has invalid arguments: ',
        '',
      );
    const self = `PAR::sandbox::${t.state.namespace.slice(0, 12)}...`;
    expect(await cause(onboard([{ participantUid: other, permission: 'CONFIRMATION' }]))).toBe(
      `The party is to be hosted on a single participant (PAR::p2::1220aaaaaaaa...) that is not this participant (${self}). Submit the allocation request on PAR::p2::1220aaaaaaaa... instead.`,
    );
    expect(
      await cause(onboard([{ participantUid: t.state.participantId, permission: 'SUBMISSION' }])),
    ).toBe(
      `The PartyToParticipant transaction must not contain any node with Submission permission. Nodes with submission permission: ${self}`,
    );
    expect(
      await cause(
        onboard([
          { participantUid: other, permission: 'CONFIRMATION' },
          { participantUid: `p3::1220${'b'.repeat(64)}`, permission: 'OBSERVATION' },
        ]),
      ),
    ).toBe(
      'This node is not hosting the party either with Confirmation or Observation permission.',
    );
    expect(
      await cause(
        onboard([
          { participantUid: t.state.participantId, permission: 'OBSERVATION' },
          { participantUid: other, permission: 'OBSERVATION' },
        ]),
      ),
    ).toBe(
      'The PartyToParticipant transaction must contain at least one node with Confirmation permission',
    );
    expect(
      await cause(
        onboard([{ participantUid: t.state.participantId, permission: 'CONFIRMATION' }], false),
      ),
    ).toBe(
      'Party signing keys must be supplied either in the PartyToParticipant or in a PartyToKeyMapping transaction. Not in both.',
    );
    await expectNothingAllocated(party);
    // Observing here while another participant confirms is allowed.
    const observed = await onboard([
      { participantUid: t.state.participantId, permission: 'OBSERVATION' },
      { participantUid: other, permission: 'CONFIRMATION' },
    ]);
    expect(observed.json).toEqual({ partyId: party });
    const connected = await t.get(
      `/v2/state/connected-synchronizers?party=${encodeURIComponent(party)}`,
    );
    expect(connected.json.connectedSynchronizers[0].permission).toBe(
      'PARTICIPANT_PERMISSION_OBSERVATION',
    );
  });

  it('validates the request and its transactions before anything else', async () => {
    const { generated, body } = await signedTopology('Strict');
    const [transaction = ''] = generated.topologyTransactions;
    const field = (result: CallResult, name: string) => {
      const error = expectError(result, 400, 'INVALID_FIELD');
      expect(error.context.field_name).toBe(name);
      return error.context.message;
    };
    expectError(await allocate({ ...body, synchronizer: '' }), 400, 'MISSING_FIELD');
    expect(field(await allocate({ ...body, synchronizer: 'nowhere' }), 'synchronizer')).toBe(
      'Invalid unique identifier `nowhere` with missing namespace.',
    );
    expect(
      expectError(
        await allocate({ ...body, synchronizer: `nowhere::${t.state.namespace}` }),
        400,
        'INVALID_ARGUMENT',
      ).cause,
    ).toBe(
      `The submitted request has invalid arguments: This node is not connected to the requested synchronizer nowhere::${t.state.namespace.slice(0, 12)}....`,
    );
    // A physical synchronizer id names the logical one it belongs to.
    const physical = await allocate({ ...body, synchronizer: `${synchronizer()}::35-0` });
    expect(physical.json).toEqual({ partyId: generated.partyId });
    const fresh = await signedTopology('Strict2');
    expect(
      field(
        await allocate({ ...fresh.body, onboardingTransactions: [] }),
        'onboarding_transactions.transactions',
      ),
    ).toBe('Transactions field is empty');
    expect(
      field(
        await allocate({
          ...fresh.body,
          onboardingTransactions: [{ transaction: Buffer.from('garbage').toString('base64') }],
        }),
        'onboarding_transactions.transaction',
      ),
    ).toMatch(/^Invalid transaction: /);
    const removal = rewrite(transaction, (decoded) => {
      decoded.operation = Enums_TopologyChangeOp.REMOVE;
    });
    expect(
      field(
        await allocate({ ...fresh.body, onboardingTransactions: [{ transaction: removal }] }),
        'onboarding_transactions.transaction',
      ),
    ).toBe('Onboarding topology transactions must be Replace operations');
    const second = rewrite(transaction, (decoded) => {
      decoded.serial = 2;
    });
    expect(
      field(
        await allocate({ ...fresh.body, onboardingTransactions: [{ transaction: second }] }),
        'onboarding_transactions.transaction.serial',
      ),
    ).toBe('Onboarding transaction serial must be 1');
    expect(
      field(
        await allocate({
          ...fresh.body,
          onboardingTransactions: Array.from({ length: 65 }, () => ({ transaction })),
        }),
        'onboarding_transactions',
      ),
    ).toBe('At most 64 onboarding transactions are accepted, got 65');
    expect(
      field(
        await allocate({
          ...fresh.body,
          onboardingTransactions: [
            { transaction: Buffer.alloc(256 * 1024 + 1).toString('base64') },
          ],
        }),
        'onboarding_transactions.transaction',
      ),
    ).toContain('at most 262144 bytes');
    expect(
      field(
        await allocate({
          ...fresh.body,
          multiHashSignatures: [
            { ...fresh.body.multiHashSignatures[0], signingAlgorithmSpec: undefined },
          ],
        }),
        'multi_hash_signatures.signatures',
      ),
    ).toBe('Signing algorithm spec SIGNING_ALGORITHM_SPEC_UNSPECIFIED not supported');
    expect(
      field(
        await allocate({
          ...fresh.body,
          multiHashSignatures: [{ ...fresh.body.multiHashSignatures[0], format: undefined }],
        }),
        'format',
      ),
    ).toBe('Signature format must be specified');
    expect(
      field(
        await allocate({
          ...fresh.body,
          multiHashSignatures: Array.from({ length: 65 }, () => fresh.body.multiHashSignatures[0]),
        }),
        'multi_hash_signatures.signatures',
      ),
    ).toBe('At most 64 signatures are accepted, got 65');
    expectDecodeFailure(
      await allocate({ ...fresh.body, onboardingTransactions: [{ transaction: '%%%' }] }),
      "Invalid value for: body (Illegal base64 character at 'onboardingTransactions[0].transaction')",
    );
    // Two PartyToParticipant transactions, and mappings onboarding does not take.
    const twice = expectError(
      await allocate({
        ...fresh.body,
        onboardingTransactions: [
          { transaction: fresh.generated.topologyTransactions[0] },
          { transaction },
        ],
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(twice.cause).toContain(
      'Only one transaction of type com.digitalasset.canton.topology.transaction.PartyToParticipant can be provided, got 2',
    );
    const vetting = TopologyTransaction.create({
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: TopologyMapping.create({
        mapping: { oneofKind: 'vettedPackages', vettedPackages: VettedPackages.create() },
      }),
    });
    const unsupported = expectError(
      await allocate({
        ...fresh.body,
        onboardingTransactions: [
          ...fresh.body.onboardingTransactions,
          {
            transaction: Buffer.from(wrapVersioned(TopologyTransaction.toBinary(vetting))).toString(
              'base64',
            ),
          },
        ],
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(unsupported.cause).toContain(
      'Unsupported transactions found: VettedPackages. Supported transactions are: NamespaceDelegation, DecentralizedNamespaceDefinition, PartyToParticipant, PartyToKeyMapping',
    );
    // A namespace of its own is valid on a participant; the sandbox says it does not emulate it.
    const delegation = TopologyTransaction.create({
      operation: Enums_TopologyChangeOp.ADD_REPLACE,
      serial: 1,
      mapping: TopologyMapping.create({
        mapping: {
          oneofKind: 'namespaceDelegation',
          namespaceDelegation: NamespaceDelegation.create({
            namespace: fresh.generated.publicKeyFingerprint,
          }),
        },
      }),
    });
    const notEmulated = await allocate({
      ...fresh.body,
      onboardingTransactions: [
        ...fresh.body.onboardingTransactions,
        {
          transaction: Buffer.from(
            wrapVersioned(TopologyTransaction.toBinary(delegation)),
          ).toString('base64'),
        },
      ],
    });
    expect(expectError(notEmulated, 501, 'SANDBOX_UNSUPPORTED_TOPOLOGY').cause).toContain(
      'NamespaceDelegation',
    );
    await expectNothingAllocated(fresh.generated.partyId, 1);
  });

  it('checks the IdP and the user before allocating, and gives the party the IdP', async () => {
    const { generated, body } = await signedTopology('Idp');
    expectError(await allocate({ ...body, userId: 'ghost' }), 404, 'USER_NOT_FOUND');
    expect(
      expectError(await allocate({ ...body, identityProviderId: 'nope' }), 400, 'INVALID_ARGUMENT')
        .cause,
    ).toContain('Provided identity_provider_id Id(nope) has not been found.');
    await expectNothingAllocated(generated.partyId);
    await t.post('/v2/idps', {
      identityProviderConfig: {
        identityProviderId: 'bank',
        issuer: 'bank-issuer',
        jwksUrl: 'https://bank.example/jwks',
      },
    });
    await t.post('/v2/users', { user: { id: 'teller', identityProviderId: 'bank' } });
    const allocated = await allocate({ ...body, identityProviderId: 'bank', userId: 'teller' });
    expect(allocated.json).toEqual({ partyId: generated.partyId });
    const asBank = await t.get(
      `/v2/parties/${encodeURIComponent(generated.partyId)}?identity-provider-id=bank`,
    );
    expect(asBank.json.partyDetails[0]).toMatchObject({
      isLocal: true,
      identityProviderId: 'bank',
    });
    expect(t.state.users.rights('teller')).toEqual([
      { kind: 'CanActAs', party: generated.partyId },
    ]);
  });
});

describe('external parties on two synchronizers', () => {
  it('hosts the party on the synchronizer named, and reports it only there', async () => {
    t.close();
    t = createTestSandbox({ synchronizers: ['alpha', 'beta'] });
    const [, beta = ''] = connectedSynchronizers(['alpha', 'beta']).map((s) => s.id);
    const { generated, body } = await signedTopology('Travel', { synchronizer: beta });
    const result = await allocate({ ...body, synchronizer: beta });
    expect(result.json).toEqual({ partyId: generated.partyId });
    expect(t.state.hostingSynchronizers(generated.partyId)).toEqual([beta]);
    const connected = await t.get(
      `/v2/state/connected-synchronizers?party=${encodeURIComponent(generated.partyId)}`,
    );
    expect(connected.json.connectedSynchronizers).toEqual([
      {
        synchronizerAlias: 'beta',
        synchronizerId: beta,
        permission: 'PARTICIPANT_PERMISSION_CONFIRMATION',
      },
    ]);
  });
});

describe('external parties in jwt mode', () => {
  let jwt: TestSandbox;
  beforeEach(() => {
    jwt = createTestSandbox({ auth: 'jwt', jwtSecret: TEST_SECRET });
  });
  afterEach(() => {
    jwt.close();
  });

  it('lets any user generate, only admins (or IdP admins) allocate', async () => {
    const admin = await hs256Token('participant_admin');
    await jwt.post('/v2/users', { user: { id: 'plain' } }, { token: admin });
    await jwt.post(
      '/v2/users',
      { user: { id: 'idp-admin' }, rights: [plainRight('IdentityProviderAdmin')] },
      { token: admin },
    );
    const plain = await hs256Token('plain');
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const request = {
      synchronizer: jwt.state.synchronizerId,
      partyHint: 'Jwt',
      publicKey: rawKey(publicKey),
    };
    expectError(await jwt.post(GENERATE, request), 401, 'NA');
    const generated = (await jwt.post(GENERATE, request, { token: plain })).json as Generated;
    const body = {
      synchronizer: jwt.state.synchronizerId,
      onboardingTransactions: generated.topologyTransactions.map((transaction) => ({
        transaction,
      })),
      multiHashSignatures: [
        ed25519Signature(
          privateKey,
          Buffer.from(generated.multiHash, 'base64'),
          generated.publicKeyFingerprint,
        ),
      ],
    };
    expectError(await jwt.post(ALLOCATE, body), 401, 'NA');
    expectError(await jwt.post(ALLOCATE, body, { token: plain }), 403, 'NA');
    // A user allocating for itself is within its quota of 0 self-allocated parties.
    expectError(
      await jwt.post(ALLOCATE, { ...body, userId: 'plain' }, { token: plain }),
      403,
      'NA',
    );
    expect(jwt.state.history.ledgerEnd()).toBe(0);
    const byIdpAdmin = await jwt.post(ALLOCATE, body, { token: await hs256Token('idp-admin') });
    expect(byIdpAdmin.json).toEqual({ partyId: generated.partyId });
    expect(
      (await jwt.get('/v2/parties', { token: admin })).json.partyDetails.map(
        (details: { party: string }) => details.party,
      ),
    ).toContain(generated.partyId);
    // The party's key never leaves the namespace: the node's key is not the party's.
    expect(createPublicKey(privateKey).asymmetricKeyType).toBe('ed25519');
  });
});
