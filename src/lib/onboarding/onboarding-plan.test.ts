import { annotationKeyProblem } from '@ledger-console/participant/annotations';
import { describe, expect, it } from 'vitest';
import { accessOf, type UserRight } from '@/lib/access/access-rights';
import { handOffMessage } from './hand-off';
import {
  DISPLAY_NAME_ANNOTATION,
  namespaceOfParticipantId,
  partyHintProblem,
  partyIdFor,
  RIGHTS_PRESETS,
  subjectProblem,
  type ExternalPartySigned,
  type OnboardingInput,
} from './onboarding-input';
import { planOnboarding, unsignedExternalStep, withExternalSignature } from './onboarding-plan';
import { type OnboardingPlan, type PlanStep } from './plan-steps';
import { reconcile } from './reconcile';
import { undoPlan } from './undo-plan';

const NAMESPACE = `1220${'ab'.repeat(32)}`;
const IDP = 'acme-idp';
const idpAdmin = accessOf({
  kind: 'user',
  userId: 'acme-admin',
  identityProviderId: IDP,
  rights: [{ kind: 'IdentityProviderAdmin' }],
});
const participantAdmin = accessOf({
  kind: 'user',
  userId: 'participant_admin',
  identityProviderId: '',
  rights: [{ kind: 'ParticipantAdmin' }],
});
const DANA = partyIdFor('dana', NAMESPACE);

function input(overrides: Partial<OnboardingInput> = {}): OnboardingInput {
  return {
    subject: 'dana@acme',
    displayName: 'Dana Doe',
    identityProviderId: IDP,
    party: { kind: 'new', hint: 'dana' },
    rights: { kind: 'preset', preset: 'acts-as-own' },
    access: idpAdmin,
    participantNamespace: NAMESPACE,
    ...overrides,
  };
}

function plan(overrides: Partial<OnboardingInput> = {}): OnboardingPlan {
  const result = planOnboarding(input(overrides));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.plan;
}

function problems(overrides: Partial<OnboardingInput>) {
  const result = planOnboarding(input(overrides));
  return result.ok ? [] : result.problems;
}

describe('identifiers', () => {
  it('predicts the party id from hint and the participant namespace', () => {
    expect(namespaceOfParticipantId(`participant1::${NAMESPACE}`)).toBe(NAMESPACE);
    expect(namespaceOfParticipantId('participant1')).toBeUndefined();
    expect(namespaceOfParticipantId('participant1::')).toBeUndefined();
    expect(partyIdFor('dana', NAMESPACE)).toBe(`dana::${NAMESPACE}`);
  });

  it('keeps the display name under a key the participant accepts', () => {
    expect(annotationKeyProblem(DISPLAY_NAME_ANNOTATION)).toBeUndefined();
  });

  it('words subject problems', () => {
    expect(subjectProblem('dana@acme')).toBeUndefined();
    expect(subjectProblem('')).toMatch(/Required/);
    expect(subjectProblem('dana doe')).toMatch(/A space is not allowed/);
    expect(subjectProblem('dana%')).toMatch(/"%" is not allowed/);
    expect(subjectProblem('d'.repeat(129))).toMatch(/at most 128 characters \(this has 129\)/);
  });

  it('words party hint problems', () => {
    expect(partyHintProblem('dana-1_x:y')).toBeUndefined();
    expect(partyHintProblem('')).toMatch(/Required/);
    expect(partyHintProblem('a::b')).toMatch(/"::"/);
    expect(partyHintProblem('dana doe')).toMatch(/A space is not allowed/);
    expect(partyHintProblem('dana!')).toMatch(/"!" is not allowed/);
    expect(partyHintProblem('d'.repeat(185))).toBeUndefined();
    expect(partyHintProblem('d'.repeat(186))).toMatch(/at most 185/);
  });
});

describe('planOnboarding', () => {
  it('plans user, then party for it, then primary party, in that order', () => {
    const result = plan();
    expect(result.party).toBe(DANA);
    expect(result.steps.map((step) => [step.kind, step.method, step.path])).toEqual([
      ['create-user', 'POST', '/v2/users'],
      ['allocate-party', 'POST', '/v2/parties'],
      ['set-primary-party', 'PATCH', '/v2/users/dana%40acme'],
    ]);
    const [create, allocate] = result.steps;
    expect(create).toMatchObject({
      userId: 'dana@acme',
      identityProviderId: IDP,
      annotations: { [DISPLAY_NAME_ANNOTATION]: 'Dana Doe' },
    });
    // CanActAs comes with the allocation for the user, so no grant step is left.
    expect(allocate).toMatchObject({
      partyIdHint: 'dana',
      userId: 'dana@acme',
      expectedParty: DANA,
    });
    expect(allocate?.summary).toMatch(/also grants it Act as/);
    expect(result.rights).toEqual([{ kind: 'CanActAs', party: DANA }]);
  });

  it('allocates without the user when the preset leaves CanActAs out (least privilege)', () => {
    const result = plan({ rights: { kind: 'preset', preset: 'reads-own' } });
    const allocate = result.steps.find((step) => step.kind === 'allocate-party');
    expect(allocate).toMatchObject({ userId: undefined });
    expect(result.steps.at(-1)).toMatchObject({
      kind: 'grant-rights',
      path: '/v2/users/dana%40acme/rights',
      rights: [{ kind: 'CanReadAs', party: DANA }],
    });
  });

  it('grants the external signer execute and read, not act', () => {
    const result = plan({ rights: { kind: 'preset', preset: 'external-signer' } });
    expect(result.rights).toEqual([
      { kind: 'CanExecuteAs', party: DANA },
      { kind: 'CanReadAs', party: DANA },
    ]);
    expect(result.rights.some((right) => right.kind === 'CanActAs')).toBe(false);
  });

  it('grants the IdP co-admin what allocation does not', () => {
    const result = plan({ rights: { kind: 'preset', preset: 'idp-co-admin' } });
    expect(result.steps.at(-1)).toMatchObject({
      kind: 'grant-rights',
      rights: [{ kind: 'IdentityProviderAdmin' }],
    });
  });

  it('uses an existing party without allocating', () => {
    const existing = `trader::${NAMESPACE}`;
    const result = plan({ party: { kind: 'existing', party: existing } });
    expect(result.allocatesParty).toBe(false);
    expect(result.steps.map((step) => step.kind)).toEqual([
      'create-user',
      'set-primary-party',
      'grant-rights',
    ]);
    expect(result.steps.at(-1)).toMatchObject({ rights: [{ kind: 'CanActAs', party: existing }] });
  });

  it('leaves the annotation out without a display name', () => {
    expect(plan({ displayName: '  ' }).steps[0]).toMatchObject({ annotations: {} });
  });

  it('refuses rights an IdP admin may not grant, by field', () => {
    const rights: UserRight[] = [{ kind: 'ParticipantAdmin' }, { kind: 'CanReadAsAnyParty' }];
    const found = problems({ rights: { kind: 'custom', rights } });
    expect(found).toHaveLength(2);
    expect(found.every((problem) => problem.field === 'rights')).toBe(true);
    expect(found[0]?.message).toMatch(/may not grant Participant admin/);
  });

  it('lets a participant admin grant admin rights in the default IdP', () => {
    const result = planOnboarding(
      input({
        access: participantAdmin,
        identityProviderId: '',
        rights: { kind: 'custom', rights: [{ kind: 'CanReadAsAnyParty' }] },
      }),
    );
    expect(result.ok).toBe(true);
  });

  it('refuses an IdP admin rights on a foreign party, accepts its IdP parties', () => {
    const foreign = `bank::${NAMESPACE}`;
    const rights: UserRight[] = [
      { kind: 'CanActAs', party: DANA },
      { kind: 'CanReadAs', party: foreign },
    ];
    const found = problems({ rights: { kind: 'custom', rights } });
    expect(found.map((problem) => problem.field)).toEqual(['rights']);
    expect(found[0]?.message).toMatch(/only on parties of its own identity provider/);
    expect(
      planOnboarding(
        input({
          rights: { kind: 'custom', rights },
          partiesOfIdentityProvider: new Set([foreign]),
        }),
      ).ok,
    ).toBe(true);
  });

  it('keeps an IdP admin to its own IdP, a participant admin to the default one', () => {
    const found = problems({ identityProviderId: 'other-idp' });
    expect(found.map((problem) => problem.field)).toEqual(['identityProviderId']);
    expect(found[0]?.message).toMatch(/your own identity provider \(acme-idp\)/);
    expect(problems({ access: participantAdmin, identityProviderId: IDP })[0]?.field).toBe(
      'identityProviderId',
    );
  });

  it('refuses a caller who cannot manage users', () => {
    const nobody = accessOf({ kind: 'user', userId: 'x', identityProviderId: IDP, rights: [] });
    expect(problems({ access: nobody }).map((problem) => problem.field)).toContain(
      'identityProviderId',
    );
  });

  it('reports every field problem at once', () => {
    const found = problems({
      subject: 'dana doe',
      displayName: 'x'.repeat(201),
      party: { kind: 'new', hint: 'a::b' },
    });
    expect(found.map((problem) => problem.field)).toEqual(['subject', 'displayName', 'party']);
  });

  it('refuses control characters in the display name, empty and oversized custom rights', () => {
    expect(problems({ displayName: 'Dana\u202eeoD' })[0]?.field).toBe('displayName');
    expect(problems({ rights: { kind: 'custom', rights: [] } })[0]?.message).toMatch(
      /at least one/,
    );
    const many: UserRight[] = Array.from({ length: 51 }, () => ({ kind: 'CanActAs', party: DANA }));
    expect(problems({ rights: { kind: 'custom', rights: many } })[0]?.message).toMatch(
      /At most 50/,
    );
  });

  it('collapses duplicate custom rights', () => {
    const rights: UserRight[] = [
      { kind: 'CanReadAs', party: DANA },
      { kind: 'CanReadAs', party: DANA },
    ];
    expect(plan({ rights: { kind: 'custom', rights } }).rights).toHaveLength(1);
  });

  it('needs a known namespace to predict a new party id', () => {
    expect(problems({ participantNamespace: '' })[0]?.field).toBe('party');
  });

  it('offers presets with one description each', () => {
    expect(RIGHTS_PRESETS.map((preset) => preset.id)).toEqual([
      'acts-as-own',
      'reads-own',
      'external-signer',
      'idp-co-admin',
    ]);
    expect(RIGHTS_PRESETS.find((preset) => preset.id === 'external-signer')?.description).toMatch(
      /cannot submit ordinary commands/,
    );
  });
});

describe('reconcile', () => {
  it('changes nothing when nothing exists', () => {
    const planned = plan();
    expect(reconcile(planned, {})).toEqual(planned);
  });

  it('is a no-op for a person onboarded already', () => {
    const again = reconcile(plan({ rights: { kind: 'preset', preset: 'idp-co-admin' } }), {
      user: { primaryParty: DANA, displayName: 'Dana Doe' },
      userRights: [{ kind: 'CanActAs', party: DANA }, { kind: 'IdentityProviderAdmin' }],
      party: { isLocal: true, identityProviderId: IDP },
    });
    expect(again.steps).toEqual([]);
    expect(again.blockers).toEqual([]);
    expect(again.reused.join(' ')).toMatch(/exists already.*reused/);
  });

  it('reuses an existing party and grants CanActAs itself, since no allocation does', () => {
    const again = reconcile(plan(), { party: { isLocal: true, identityProviderId: IDP } });
    expect(again.steps.map((step) => step.kind)).toEqual([
      'create-user',
      'set-primary-party',
      'grant-rights',
    ]);
    expect(again.steps.at(-1)).toMatchObject({ rights: [{ kind: 'CanActAs', party: DANA }] });
  });

  it('offers only the missing rights of an existing user', () => {
    const again = reconcile(plan({ rights: { kind: 'preset', preset: 'external-signer' } }), {
      user: { primaryParty: '' },
      userRights: [{ kind: 'CanReadAs', party: DANA }],
      party: { isLocal: true, identityProviderId: IDP },
    });
    expect(again.steps.map((step) => step.kind)).toEqual(['set-primary-party', 'grant-rights']);
    expect(again.steps.at(-1)).toMatchObject({ rights: [{ kind: 'CanExecuteAs', party: DANA }] });
  });

  it('never overrides another primary party or display name', () => {
    const other = `other::${NAMESPACE}`;
    const again = reconcile(plan(), {
      user: { primaryParty: other, displayName: 'Somebody' },
      userRights: [{ kind: 'CanActAs', party: DANA }],
      party: { isLocal: true, identityProviderId: IDP },
    });
    expect(again.steps).toEqual([]);
    expect(again.conflicts).toHaveLength(2);
    expect(again.conflicts.join(' ')).toContain(other);
  });

  it('blocks a hint taken by a party outside this IdP', () => {
    const again = reconcile(plan(), { party: { isLocal: false, identityProviderId: '' } });
    expect(again.blockers[0]).toMatch(/choose another hint/);
    expect(again.steps.some((step) => step.kind === 'allocate-party')).toBe(false);
  });

  it('blocks a user id taken in another identity provider', () => {
    const again = reconcile(plan(), { userInOtherIdentityProvider: true });
    expect(again.blockers[0]).toMatch(/the id is taken in another identity provider/);
  });

  it('blocks an existing party the participant does not know', () => {
    const again = reconcile(
      plan({ party: { kind: 'existing', party: `ghost::${NAMESPACE}` } }),
      {},
    );
    expect(again.blockers[0]).toMatch(/not known/);
  });
});

describe('undoPlan', () => {
  const steps = plan({ rights: { kind: 'preset', preset: 'reads-own' } }).steps;
  const [create, allocate, primary] = steps as [PlanStep, PlanStep, PlanStep];

  it('deletes the created user when the allocation failed; no party remains', () => {
    const undo = undoPlan([create]);
    expect(undo.steps).toEqual([
      expect.objectContaining({
        kind: 'delete-user',
        method: 'DELETE',
        path: '/v2/users/dana%40acme',
      }),
    ]);
    expect(undo.remains).toEqual([
      'No party was created by this run.',
      'Once user dana@acme is deleted, nothing of this run remains.',
    ]);
  });

  it('says the allocated party remains when a later step failed', () => {
    const undo = undoPlan([create, allocate, primary]);
    expect(undo.steps.map((step) => step.kind)).toEqual(['delete-user']);
    expect(undo.remains).toEqual([
      expect.stringMatching(
        new RegExp(`Party ${DANA} was allocated and remains: parties cannot be deleted`),
      ),
    ]);
  });

  it('never deletes a user that existed before the run', () => {
    const undo = undoPlan([primary]);
    expect(undo.steps).toEqual([]);
    expect(undo.remains.join(' ')).toMatch(/existed before this run and is kept/);
  });

  it('has nothing to undo when nothing ran', () => {
    expect(undoPlan([])).toEqual({ steps: [], remains: ['No party was created by this run.'] });
  });
});

describe('external parties', () => {
  const FINGERPRINT = `1220${'cd'.repeat(32)}`;
  const PARTY = `dana::${FINGERPRINT}`;
  const SIGNED: ExternalPartySigned = {
    synchronizerId: `local::${NAMESPACE}`,
    topologyTransactions: ['dHgx'],
    multiHashSignatures: [
      {
        format: 'SIGNATURE_FORMAT_CONCAT',
        signature: 'c2ln',
        signedBy: FINGERPRINT,
        signingAlgorithmSpec: 'SIGNING_ALGORITHM_SPEC_ED25519',
      },
    ],
  };
  const external = (signed?: ExternalPartySigned): OnboardingInput['party'] => ({
    kind: 'external',
    hint: 'dana',
    fingerprint: FINGERPRINT,
    ...(signed ? { signed } : {}),
  });

  it('allocates the party <hint>::<fingerprint> for the user, signed, on its synchronizer', () => {
    const planned = plan({ party: external(SIGNED) });
    expect(planned.party).toBe(PARTY);
    expect(planned.allocatesParty).toBe(true);
    expect(planned.steps.map((step) => step.kind)).toEqual([
      'create-user',
      'allocate-external-party',
      'set-primary-party',
    ]);
    const step = planned.steps[1];
    expect(step).toMatchObject({
      method: 'POST',
      path: '/v2/parties/external/allocate',
      userId: 'dana@acme',
      expectedParty: PARTY,
      signed: SIGNED,
    });
    expect(step?.summary).toBe(
      `Allocate external party ${PARTY} on local::${NAMESPACE} in identity provider ${IDP} for user dana@acme, signed by the person's key, which also grants it Act as ${PARTY}`,
    );
    expect(unsignedExternalStep(planned)).toBeUndefined();
  });

  it('allocates without the user when the rights leave Act as out, and grants the rest', () => {
    const planned = plan({
      party: external(SIGNED),
      rights: { kind: 'preset', preset: 'external-signer' },
    });
    expect(planned.steps[1]).toMatchObject({ kind: 'allocate-external-party', userId: undefined });
    expect(planned.steps[1]?.summary).toContain('not for the user');
    expect(planned.steps[3]).toMatchObject({
      kind: 'grant-rights',
      rights: [
        { kind: 'CanExecuteAs', party: PARTY },
        { kind: 'CanReadAs', party: PARTY },
      ],
    });
  });

  it('plans an unsigned allocation that waits, and signs it later', () => {
    const unsigned = plan({ party: external() });
    const waiting = unsignedExternalStep(unsigned);
    expect(waiting?.summary).toContain('once the person has signed its topology');
    const signed = withExternalSignature(unsigned, SIGNED);
    expect(unsignedExternalStep(signed)).toBeUndefined();
    expect(signed.steps[1]).toMatchObject({ signed: SIGNED });
    expect(signed.steps[1]?.summary).toContain(`on local::${NAMESPACE}`);
    // Plans without an external party are left as they are.
    const local = plan();
    expect(withExternalSignature(local, SIGNED)).toEqual(local);
  });

  it('refuses a bad hint or fingerprint on the party field', () => {
    expect(
      problems({ party: { kind: 'external', hint: 'a::b', fingerprint: FINGERPRINT } }),
    ).toEqual([{ field: 'party', message: 'A hint must not contain "::"' }]);
    expect(problems({ party: { kind: 'external', hint: 'dana', fingerprint: 'abc' } })).toEqual([
      {
        field: 'party',
        message: 'The key’s fingerprint is not a SHA-256 fingerprint (1220 and 64 hex digits).',
      },
    ]);
  });

  it('reuses an external party that exists in this IdP instead of allocating it again', () => {
    const reconciled = reconcile(plan({ party: external(SIGNED) }), {
      party: { isLocal: true, identityProviderId: IDP },
    });
    expect(reconciled.steps.map((step) => step.kind)).toEqual([
      'create-user',
      'set-primary-party',
      'grant-rights',
    ]);
    expect(reconciled.reused).toContain(
      `Party ${PARTY} exists already in this identity provider: it is reused.`,
    );
  });

  it('says on undo that an allocated external party remains, and its key with the person', () => {
    const planned = plan({ party: external(SIGNED) });
    const undo = undoPlan(planned.steps.slice(0, 2));
    expect(undo.steps.map((step) => step.kind)).toEqual(['delete-user']);
    expect(undo.remains).toEqual([
      `External party ${PARTY} was allocated and remains: parties cannot be deleted in Canton. Its key stays with the person; onboarding again with the same hint and key reuses the party.`,
    ]);
  });
});

describe('handOffMessage', () => {
  const planned = plan({ rights: { kind: 'preset', preset: 'idp-co-admin' } });

  it('names participant, IdP, user, party, provider and what the person can do', () => {
    const message = handOffMessage({
      participantId: `participant1::${NAMESPACE}`,
      signInUrl: 'https://console.example/sign-in',
      providerName: 'Acme',
      plan: planned,
    });
    expect(message).toContain(`Participant: participant1::${NAMESPACE}`);
    expect(message).toContain('Identity provider: acme-idp');
    expect(message).toContain('User id: dana@acme');
    expect(message).toContain(`Party: ${DANA}`);
    expect(message).toContain(
      'Sign in at https://console.example/sign-in: choose "Acme" and sign in as dana@acme (login hint: dana@acme).',
    );
    expect(message).toContain('- administer the users and parties of identity provider acme-idp');
    expect(message).toContain(
      `- submit commands as ${DANA} and read its contracts and transactions`,
    );
  });

  it('says how to sign in when the console has no provider for the IdP', () => {
    const message = handOffMessage({
      participantId: 'p::1',
      signInUrl: 'https://console.example/sign-in',
      providerName: undefined,
      plan: planned,
    });
    expect(message).toContain('with a token of identity provider acme-idp for the user dana@acme');
  });
});
