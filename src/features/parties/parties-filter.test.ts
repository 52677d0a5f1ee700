import { describe, expect, it } from 'vitest';
import type { PartyDetails } from '@/api/parties';
import {
  annotationsSummary,
  filterParties,
  partyIdentityProviderLabel,
  partyLocalityLabel,
} from './parties-filter';

const local = (
  party: string,
  annotations: Record<string, string> = {},
  idp = '',
): PartyDetails => ({
  party,
  isLocal: true,
  identityProviderId: idp,
  localMetadata: { resourceVersion: '0', annotations },
});
const remote = (party: string): PartyDetails => ({
  party,
  isLocal: false,
  identityProviderId: '',
  localMetadata: { resourceVersion: '', annotations: {} },
});

const parties = [
  local('alice::1220aa', { team: 'Night-Shift' }),
  local('bob::1220aa', {}, 'acme'),
  remote('carol::1220cc'),
];

describe('parties filter', () => {
  it('names locality and IdP, with no IdP for a party that is not local', () => {
    expect(parties.map((party) => partyLocalityLabel(party))).toEqual([
      'Local',
      'Local',
      'Not local',
    ]);
    expect(parties.map((party) => partyIdentityProviderLabel(party))).toEqual([
      'default',
      'acme',
      '—',
    ]);
  });

  it('names the other identity provider of a party blinded to not local in this view', () => {
    const blinded = remote('dora::1220aa');
    expect(partyLocalityLabel(blinded, 'acme')).toBe('Other identity provider');
    expect(partyIdentityProviderLabel(blinded, 'acme')).toBe('acme');
    expect(partyLocalityLabel(blinded, '')).toBe('Other identity provider');
    expect(partyIdentityProviderLabel(blinded, '')).toBe('default');
  });

  it('summarises annotations in key order', () => {
    expect(annotationsSummary(local('x', { b: '2', a: '1' }))).toBe('a=1, b=2');
    expect(annotationsSummary(remote('y'))).toBe('');
  });

  it('matches id, IdP and annotations, ignoring case', () => {
    const ids = (text: string, isLocalOnly = false) =>
      filterParties(parties, { text, isLocalOnly }).map((party) => party.party);
    expect(ids('')).toEqual(['alice::1220aa', 'bob::1220aa', 'carol::1220cc']);
    expect(ids('NIGHT')).toEqual(['alice::1220aa']);
    expect(ids('acme')).toEqual(['bob::1220aa']);
    expect(ids('1220cc')).toEqual(['carol::1220cc']);
    expect(ids('not local')).toEqual(['carol::1220cc']);
  });

  it('keeps only local parties when asked', () => {
    expect(
      filterParties(parties, { text: '', isLocalOnly: true }).map((party) => party.party),
    ).toEqual(['alice::1220aa', 'bob::1220aa']);
  });
});
