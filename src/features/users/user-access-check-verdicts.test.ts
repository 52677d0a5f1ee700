import { describe, expect, it } from 'vitest';
import type { User } from '@/api/users';
import {
  accessVerdicts,
  MAX_CHECKED_PARTIES,
  partiesToCheck,
  summarizeRights,
  type AccessCheckInput,
} from './user-access-check-verdicts';

const user = (patch: Partial<User> = {}): User => ({
  id: 'dana',
  primaryParty: 'dana::1220ab',
  isDeactivated: false,
  identityProviderId: 'acme',
  metadata: { resourceVersion: '0', annotations: {} },
  ...patch,
});

const local = (party: string) => ({
  party,
  isLocal: true,
  identityProviderId: 'acme',
  localMetadata: { resourceVersion: '0', annotations: {} },
});

const input = (patch: Partial<AccessCheckInput>): AccessCheckInput => ({
  user: user(),
  rights: { ok: true, value: [{ kind: 'CanActAs', party: 'dana::1220ab' }] },
  parties: [],
  partiesNotChecked: 0,
  providers: { ok: true, value: [] },
  ...patch,
});

const byTitle = (verdicts: ReturnType<typeof accessVerdicts>, title: string) =>
  verdicts.find((verdict) => verdict.title === title);

describe('access check verdicts', () => {
  it('lists the primary party first, each party once with all its roles, and bounds the lookups', () => {
    const rights = [
      { kind: 'CanReadAs', party: 'b' },
      { kind: 'CanActAs', party: 'dana::1220ab' },
      { kind: 'CanExecuteAs', party: 'b' },
      ...Array.from({ length: MAX_CHECKED_PARTIES + 2 }, (_, i) => ({
        kind: 'CanReadAs' as const,
        party: `p${String(i)}`,
      })),
    ] as const;
    const { parties, notChecked } = partiesToCheck(user(), rights);
    expect(parties.slice(0, 2)).toEqual([
      { party: 'dana::1220ab', roles: ['primary', 'acts'] },
      { party: 'b', roles: ['reads', 'executes'] },
    ]);
    expect(parties).toHaveLength(MAX_CHECKED_PARTIES);
    expect(notChecked).toBe(4);
  });

  it('warns when a party it acts as is hosted without submission permission', () => {
    const verdicts = accessVerdicts(
      input({
        parties: [
          {
            party: 'dana::1220ab',
            roles: ['primary', 'acts'],
            details: { ok: true, value: local('dana::1220ab') },
            synchronizers: {
              ok: true,
              value: [
                {
                  synchronizerAlias: 'global',
                  synchronizerId: 'global::1220cd',
                  permission: 'PARTICIPANT_PERMISSION_OBSERVATION',
                },
              ],
            },
          },
        ],
      }),
    );
    const party = byTitle(verdicts, 'Party dana::1220ab');
    expect(party?.status).toBe('warning');
    expect(party?.finding).toBe(
      'Its primary party, acts as it. Hosted here on global (observation only), without submission permission: submitting as it fails.',
    );
  });

  it('calls a local party on no connected synchronizer a problem, and a failed lookup unknown', () => {
    const verdicts = accessVerdicts(
      input({
        parties: [
          {
            party: 'dana::1220ab',
            roles: ['primary'],
            details: { ok: true, value: local('dana::1220ab') },
            synchronizers: { ok: true, value: [] },
          },
          {
            party: 'other::1220ab',
            roles: ['reads'],
            details: { ok: false, reason: 'Could not check: fetch failed' },
            synchronizers: { ok: true, value: [] },
          },
        ],
      }),
    );
    expect(byTitle(verdicts, 'Party dana::1220ab')).toMatchObject({
      status: 'problem',
      fix: 'Reconnect the participant to the synchronizer the party was allocated on.',
    });
    expect(byTitle(verdicts, 'Party other::1220ab')).toMatchObject({
      status: 'unknown',
      finding: 'Reads as it. Could not check: fetch failed',
    });
  });

  it('needs no primary party for an administrator, and summarizes admin rights', () => {
    const rights = [{ kind: 'IdentityProviderAdmin' }, { kind: 'CanReadAsAnyParty' }] as const;
    const verdicts = accessVerdicts(
      input({ user: user({ primaryParty: '' }), rights: { ok: true, value: rights } }),
    );
    expect(byTitle(verdicts, 'Primary party')?.status).toBe('ok');
    expect(summarizeRights(rights)).toBe('Reads as any party, IdP admin.');
  });
});
