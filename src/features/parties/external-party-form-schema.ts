import { firstDisallowedChar, PARTY_STRING } from '@ledger-console/participant/identifiers';
import { partyHint, splitUniqueIdentifier } from '@ledger-console/participant/unique-identifier';
import type { Path } from 'react-hook-form';
import { z } from 'zod';
import {
  toWirePublicKey,
  type AllocateExternalPartyRequest,
  type GeneratedExternalPartyTopology,
  type GenerateExternalPartyTopologyRequest,
} from '@/api/external-parties';
import type { ApiError } from '@/lib/errors/api-error';
import {
  topologyRefusalSubject,
  type TopologyRefusalSubject,
} from '@/lib/signing/external-party-signing';
import {
  MAX_PUBLIC_KEY_CHARS,
  type PrivateSigningKey,
  type PublicSigningKey,
} from '@/lib/signing/keys';
import { MAX_SIGNATURE_CHARS, type WireSignature } from '@/lib/signing/signatures';
import { partyHintProblem } from './party-form-schema';

/** Other confirming participants the form takes; a party is rarely hosted on more. */
export const MAX_OTHER_PARTICIPANTS = 16;
/** A participant id is `name::1220…`: well under this. */
const MAX_PARTICIPANT_ID_LENGTH = 255;

export type KeySource = 'generate' | 'public' | 'file';

/** A key read from the user's file in step 1: held in component state only, until the allocation ends. */
export type FileKey = { key: PrivateSigningKey; fileName: string };

/** Longest party id / synchronizer id the page takes from its URL; real ones are far shorter. */
const MAX_PREFILL_ID_LENGTH = 512;

/**
 * What the party page's "Host on another synchronizer…" link fills in: an existing external
 * party (`party`: the key file must be its key), its hint and the synchronizer to host it on.
 */
export type ExternalPartyPrefill = { party: string; hint: string; synchronizerId?: string };

/**
 * The prefill from the page's query (`party`, `hint`, `synchronizer`), or undefined when it names
 * no external party. Bounded and checked: the URL is anyone's to write, and nothing of it is
 * trusted beyond filling fields the user sees and can change.
 */
export function parseExternalPartyPrefill(
  search: URLSearchParams,
): ExternalPartyPrefill | undefined {
  const party = search.get('party') ?? '';
  if (party.length > MAX_PREFILL_ID_LENGTH) return undefined;
  const parts = splitUniqueIdentifier(party);
  const hint = partyHint(party);
  if (hint === undefined || (parts?.namespace ?? '') === '') return undefined;
  // The hint is the party's: a `hint` param that says otherwise names no party this page can host.
  const hintParam = search.get('hint');
  if (hintParam !== null && hintParam !== hint) return undefined;
  if (partyHintProblem(hint) !== undefined) return undefined;
  const synchronizerId = search.get('synchronizer') ?? '';
  return {
    party,
    hint,
    ...(synchronizerId !== '' &&
    synchronizerId.length <= MAX_PREFILL_ID_LENGTH &&
    splitUniqueIdentifier(synchronizerId) !== undefined
      ? { synchronizerId }
      : {}),
  };
}

/** The query string of a prefill, for links to the page. */
export function externalPartyPrefillSearch({
  party,
  hint,
  synchronizerId,
}: ExternalPartyPrefill): string {
  const search = new URLSearchParams({ party, hint });
  if (synchronizerId !== undefined) search.set('synchronizer', synchronizerId);
  return search.toString();
}

/**
 * The party a key file must be the key of, or undefined when any key will do: with a prefill
 * whose hint is still the one typed, the allocation can only mean that party.
 */
export function requiredPartyOf(
  prefill: ExternalPartyPrefill | undefined,
  partyHintValue: string,
): { party: string; fingerprint: string } | undefined {
  if (prefill?.hint !== partyHintValue) return undefined;
  const fingerprint = splitUniqueIdentifier(prefill.party)?.namespace;
  return fingerprint === undefined ? undefined : { party: prefill.party, fingerprint };
}

/** The non-empty lines of a one-id-per-line text, trimmed. */
export function participantLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Why `id` is not a participant id (`name::namespace`), or undefined when it looks like one. */
export function participantIdProblem(id: string): string | undefined {
  if (id.length > MAX_PARTICIPANT_ID_LENGTH) {
    return `At most ${String(MAX_PARTICIPANT_ID_LENGTH)} characters`;
  }
  const parts = splitUniqueIdentifier(id);
  if (parts === undefined || parts.identifier === '' || parts.namespace === '') {
    return 'A participant id is name::namespace, e.g. participant2::1220…';
  }
  const char =
    firstDisallowedChar(PARTY_STRING, parts.identifier) ??
    firstDisallowedChar(PARTY_STRING, parts.namespace);
  if (char !== undefined) return `"${char}" is not allowed in a participant id`;
  return undefined;
}

/**
 * Step 1 of "Allocate external party": the hint, the synchronizer, other confirming participants
 * and the threshold, and where the key comes from. `ownParticipantId` (when known) may not be
 * listed: the participant the request goes to hosts the party anyway.
 */
export function externalPartySchema({ ownParticipantId }: { ownParticipantId?: string } = {}) {
  return z
    .object({
      partyHint: z.string().superRefine((hint, ctx) => {
        if (hint === '') {
          ctx.addIssue({
            code: 'custom',
            message: 'Required: the party id is this hint, "::" and the key fingerprint',
          });
          return;
        }
        const problem = partyHintProblem(hint);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
      synchronizerId: z.string().min(1, 'Choose a synchronizer'),
      otherConfirmingParticipants: z.string().superRefine((text, ctx) => {
        const ids = participantLines(text);
        if (ids.length > MAX_OTHER_PARTICIPANTS) {
          ctx.addIssue({
            code: 'custom',
            message: `At most ${String(MAX_OTHER_PARTICIPANTS)} participants (this has ${String(ids.length)})`,
          });
          return;
        }
        for (const [index, id] of ids.entries()) {
          const problem = participantIdProblem(id);
          if (problem) {
            ctx.addIssue({ code: 'custom', message: `Line ${String(index + 1)}: ${problem}` });
            return;
          }
          if (ids.indexOf(id) !== index) {
            ctx.addIssue({ code: 'custom', message: `${id} is listed twice` });
            return;
          }
          if (id === ownParticipantId) {
            ctx.addIssue({
              code: 'custom',
              message: `${id} is this participant, which hosts the party anyway: list only the others`,
            });
            return;
          }
        }
      }),
      confirmationThreshold: z
        .string()
        .trim()
        .refine((text) => text === '' || /^[1-9]\d{0,2}$/.test(text), 'A whole number from 1'),
      keySource: z.enum(['generate', 'public', 'file']),
      publicKey: z.string().max(MAX_PUBLIC_KEY_CHARS, 'This is too long to be a public key'),
    })
    .superRefine((values, ctx) => {
      const confirmers = 1 + participantLines(values.otherConfirmingParticipants).length;
      const threshold = Number(values.confirmationThreshold);
      if (values.confirmationThreshold !== '' && threshold > confirmers) {
        ctx.addIssue({
          code: 'custom',
          path: ['confirmationThreshold'],
          message: `At most the number of confirming participants (${String(confirmers)})`,
        });
      }
      if (values.keySource === 'public' && values.publicKey.trim() === '') {
        ctx.addIssue({ code: 'custom', path: ['publicKey'], message: 'Paste the public key' });
      }
    });
}

export type ExternalPartyValues = z.infer<ReturnType<typeof externalPartySchema>>;

export function emptyExternalPartyValues(
  synchronizerId = '',
  prefill?: ExternalPartyPrefill,
): ExternalPartyValues {
  return {
    partyHint: prefill?.hint ?? '',
    synchronizerId: prefill?.synchronizerId ?? synchronizerId,
    otherConfirmingParticipants: '',
    confirmationThreshold: '',
    // An existing party is hosted again with its own key, which only its key file holds.
    keySource: prefill === undefined ? 'generate' : 'file',
    publicKey: '',
  };
}

export function toGenerateTopologyRequest(
  values: ExternalPartyValues,
  publicKey: PublicSigningKey,
): GenerateExternalPartyTopologyRequest {
  const others = participantLines(values.otherConfirmingParticipants);
  return {
    synchronizer: values.synchronizerId,
    partyHint: values.partyHint,
    publicKey: toWirePublicKey(publicKey),
    ...(others.length > 0 ? { otherConfirmingParticipantUids: others } : {}),
    // 0 (or absent): every confirming participant must confirm.
    ...(values.confirmationThreshold === ''
      ? {}
      : { confirmationThreshold: Number(values.confirmationThreshold) }),
  };
}

/** The allocation of a generated topology, signed over its multi-hash. */
export function toAllocateExternalPartyRequest(
  generated: GeneratedExternalPartyTopology,
  {
    synchronizerId,
    signature,
    identityProviderId,
  }: { synchronizerId: string; signature: WireSignature; identityProviderId: string },
): AllocateExternalPartyRequest {
  return {
    synchronizer: synchronizerId,
    onboardingTransactions: generated.topologyTransactions.map((transaction) => ({
      transaction,
    })),
    multiHashSignatures: [signature],
    identityProviderId,
  };
}

const FIELD_OF_SUBJECT: Record<TopologyRefusalSubject, Path<ExternalPartyValues>> = {
  synchronizer: 'synchronizerId',
  partyHint: 'partyHint',
  threshold: 'confirmationThreshold',
  participants: 'otherConfirmingParticipants',
  publicKey: 'publicKey',
};

/** The step-1 field a `generate-topology` refusal concerns. */
export function generateTopologyErrorField(error: ApiError): Path<ExternalPartyValues> | undefined {
  const subject = topologyRefusalSubject(error.body.cause);
  return subject === undefined ? undefined : FIELD_OF_SUBJECT[subject];
}

// ── step 2: signing ─────────────────────────────────────────────────────────────

/** `step1File`: the key file read in step 1, signing without asking for it again. */
export type SignMethod = 'browser' | 'step1File' | 'file' | 'signature';

export const signTopologySchema = z.object({
  method: z.enum(['browser', 'step1File', 'file', 'signature']),
  signature: z.string().max(MAX_SIGNATURE_CHARS, 'This is too long to be a signature'),
});

export type SignTopologyValues = z.infer<typeof signTopologySchema>;
