import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/errors/api-error';
import type { PublicSigningKey } from '@/lib/signing/keys';
import type { WireSignature } from '@/lib/signing/signatures';
import {
  emptyExternalPartyValues,
  externalPartyPrefillSearch,
  externalPartySchema,
  generateTopologyErrorField,
  MAX_OTHER_PARTICIPANTS,
  participantIdProblem,
  participantLines,
  parseExternalPartyPrefill,
  requiredPartyOf,
  toAllocateExternalPartyRequest,
  toGenerateTopologyRequest,
  type ExternalPartyValues,
} from './external-party-form-schema';

const NS = `1220${'ab'.repeat(32)}`;
const SELF = `participant1::${NS}`;
const OTHER = `participant2::${NS}`;
const values = (patch: Partial<ExternalPartyValues> = {}): ExternalPartyValues => ({
  ...emptyExternalPartyValues(`local::${NS}`),
  partyHint: 'wallet',
  ...patch,
});
const KEY: PublicSigningKey = {
  format: 'CRYPTO_KEY_FORMAT_RAW',
  keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
  keyData: 'AAAA',
  fingerprint: `1220${'cd'.repeat(32)}`,
};

/** The message zod gives `path`, or undefined when that field passes. */
function messageAt(input: ExternalPartyValues, path: string): string | undefined {
  const result = externalPartySchema({ ownParticipantId: SELF }).safeParse(input);
  return result.success
    ? undefined
    : result.error.issues.find((issue) => issue.path.join('.') === path)?.message;
}

describe('externalPartySchema', () => {
  it('takes a hint, a synchronizer and a browser key', () => {
    expect(externalPartySchema().safeParse(values()).success).toBe(true);
  });

  it('requires a valid hint and a synchronizer', () => {
    expect(messageAt(values({ partyHint: '' }), 'partyHint')).toMatch(/^Required/);
    expect(messageAt(values({ partyHint: 'a::b' }), 'partyHint')).toMatch(/must not contain "::"/);
    expect(messageAt(values({ partyHint: 'a!' }), 'partyHint')).toMatch(/"!" is not allowed/);
    expect(messageAt(values({ synchronizerId: '' }), 'synchronizerId')).toBe(
      'Choose a synchronizer',
    );
  });

  it('checks the other participants: form, duplicates, this participant, count', () => {
    const at = (text: string) =>
      messageAt(values({ otherConfirmingParticipants: text }), 'otherConfirmingParticipants');
    expect(at(`\n ${OTHER} \n\n`)).toBeUndefined();
    expect(at('participant2')).toMatch(/^Line 1: A participant id is name::namespace/);
    expect(at(`${OTHER}\n::x`)).toMatch(/^Line 2:/);
    expect(at(`${OTHER}\n${OTHER}`)).toMatch(/listed twice/);
    expect(at(SELF)).toMatch(/is this participant/);
    const many = Array.from(
      { length: MAX_OTHER_PARTICIPANTS + 1 },
      (_, i) => `p${String(i)}::${NS}`,
    );
    expect(at(many.join('\n'))).toBe('At most 16 participants (this has 17)');
  });

  it('bounds the threshold by the confirming participants, this one included', () => {
    const at = (threshold: string, others = '') =>
      messageAt(
        values({ confirmationThreshold: threshold, otherConfirmingParticipants: others }),
        'confirmationThreshold',
      );
    expect(at('')).toBeUndefined();
    expect(at('1')).toBeUndefined();
    expect(at('0')).toBe('A whole number from 1');
    expect(at('1.5')).toBe('A whole number from 1');
    expect(at('2')).toBe('At most the number of confirming participants (1)');
    expect(at('2', OTHER)).toBeUndefined();
  });

  it('needs a pasted key only when the user brings one, and bounds it', () => {
    expect(messageAt(values({ keySource: 'public' }), 'publicKey')).toBe('Paste the public key');
    expect(messageAt(values({ keySource: 'generate' }), 'publicKey')).toBeUndefined();
    expect(
      messageAt(values({ keySource: 'public', publicKey: 'a'.repeat(5000) }), 'publicKey'),
    ).toMatch(/too long/);
  });
});

describe('mappers', () => {
  it('sends the key without its fingerprint, the others and the threshold only when given', () => {
    expect(toGenerateTopologyRequest(values(), KEY)).toEqual({
      synchronizer: `local::${NS}`,
      partyHint: 'wallet',
      publicKey: {
        format: 'CRYPTO_KEY_FORMAT_RAW',
        keyData: 'AAAA',
        keySpec: 'SIGNING_KEY_SPEC_EC_CURVE25519',
      },
    });
    expect(
      toGenerateTopologyRequest(
        values({ otherConfirmingParticipants: ` ${OTHER}\n`, confirmationThreshold: '2' }),
        KEY,
      ),
    ).toMatchObject({ otherConfirmingParticipantUids: [OTHER], confirmationThreshold: 2 });
  });

  it('allocates every generated transaction with the one multi-hash signature', () => {
    const signature: WireSignature = {
      format: 'SIGNATURE_FORMAT_CONCAT',
      signature: 'c2ln',
      signedBy: KEY.fingerprint,
      signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
    };
    expect(
      toAllocateExternalPartyRequest(
        {
          partyId: `wallet::${KEY.fingerprint}`,
          publicKeyFingerprint: KEY.fingerprint,
          topologyTransactions: ['dHgx', 'dHgy'],
          multiHash: 'aGFzaA==',
        },
        { synchronizerId: `local::${NS}`, signature, identityProviderId: 'acme' },
      ),
    ).toEqual({
      synchronizer: `local::${NS}`,
      onboardingTransactions: [{ transaction: 'dHgx' }, { transaction: 'dHgy' }],
      multiHashSignatures: [signature],
      identityProviderId: 'acme',
    });
  });

  it('reads participant lines and ids', () => {
    expect(participantLines(' a \n\n b\n')).toEqual(['a', 'b']);
    expect(participantIdProblem(OTHER)).toBeUndefined();
    expect(participantIdProblem(`p 1::${NS}`)).toBeUndefined();
    expect(participantIdProblem(`p/1::${NS}`)).toMatch(/"\/" is not allowed/);
    expect(participantIdProblem('x'.repeat(300))).toMatch(/At most 255/);
  });
});

describe('generateTopologyErrorField', () => {
  const refusal = (cause: string) =>
    new ApiError(400, { code: 'INVALID_ARGUMENT', cause, errorCategory: 8 });
  it("puts the participant's refusals on their fields", () => {
    expect(
      generateTopologyErrorField(refusal('Unknown or not connected synchronizer x::1220ab...')),
    ).toBe('synchronizerId');
    expect(generateTopologyErrorField(refusal('party_hint: must not be empty'))).toBe('partyHint');
    expect(
      generateTopologyErrorField(
        refusal('Confirmation threshold exceeds number of confirming participants'),
      ),
    ).toBe('confirmationThreshold');
    expect(
      generateTopologyErrorField(
        refusal('This participant node (PAR::p1::1220ab...) is also listed'),
      ),
    ).toBe('otherConfirmingParticipants');
    expect(generateTopologyErrorField(refusal('Field `public_key` is not set'))).toBe('publicKey');
    expect(generateTopologyErrorField(refusal('Something else'))).toBeUndefined();
  });
});

describe('the "Host on another synchronizer…" prefill', () => {
  const party = `wallet::${NS}`;
  const synchronizerId = `global::${NS}`;
  const parse = (query: Record<string, string>) =>
    parseExternalPartyPrefill(new URLSearchParams(query));

  it('round-trips through its query string and fills the form with the key file choice', () => {
    const prefill = { party, hint: 'wallet', synchronizerId };
    expect(
      parseExternalPartyPrefill(new URLSearchParams(externalPartyPrefillSearch(prefill))),
    ).toEqual(prefill);
    expect(emptyExternalPartyValues('', prefill)).toMatchObject({
      partyHint: 'wallet',
      synchronizerId,
      keySource: 'file',
    });
    expect(emptyExternalPartyValues().keySource).toBe('generate');
  });

  it('takes nothing from a query that names no party, or bounds it', () => {
    expect(parse({})).toBeUndefined();
    expect(parse({ party: 'no-namespace' })).toBeUndefined();
    expect(parse({ party, hint: 'other' })).toBeUndefined();
    expect(parse({ party: `${'a'.repeat(600)}::${NS}` })).toBeUndefined();
    expect(parse({ party: `bad!hint::${NS}` })).toBeUndefined();
    expect(parse({ party, synchronizer: 'x'.repeat(600) })).toEqual({ party, hint: 'wallet' });
    expect(parse({ party, synchronizer: 'not-an-id' })).toEqual({ party, hint: 'wallet' });
  });

  it("requires the party's key only while the hint is still the party's", () => {
    const prefill = { party, hint: 'wallet' };
    expect(requiredPartyOf(prefill, 'wallet')).toEqual({ party, fingerprint: NS });
    expect(requiredPartyOf(prefill, 'wallet2')).toBeUndefined();
    expect(requiredPartyOf(undefined, 'wallet')).toBeUndefined();
  });
});
