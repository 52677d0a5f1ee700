import { describe, expect, it } from 'vitest';
import { recognizeId } from '@/lib/values/id-recognition';
import {
  fleetSearchGroup,
  fleetSearchId,
  MAX_SEARCHED_PARTICIPANTS,
  type FleetLookupState,
  type FleetSearchParticipant,
} from './fleet-search';
import type { SearchLinks } from './search-results';

const UPDATE_ID = `1220${'ab'.repeat(32)}`;

const ids: SearchLinks = {
  party: (party) => `/parties/${party}`,
  user: (userId, identityProviderId) => `/users/${userId}@${identityProviderId}`,
  package: (packageId) => `/packages/${packageId}`,
  packages: () => '/packages',
  contract: (contractId) => `/contracts/${contractId}`,
  update: (updateId) => `/transactions?update=${updateId}`,
  offset: (offset) => `/transactions?offset=${String(offset)}`,
  activeContracts: () => '/contracts',
};
const links = { ids, signIn: (from: string) => `/sign-in?from=${encodeURIComponent(from)}` };

const fleet = (count: number): FleetSearchParticipant[] =>
  Array.from({ length: count }, (_, index) => ({
    name: `participant${String(index + 1)}`,
    pagePath: `/p/participant${String(index + 1)}`,
    isCurrent: index === 0,
  }));

const updateId = () => {
  const id = fleetSearchId(recognizeId(UPDATE_ID).candidates, undefined);
  if (!id) throw new Error('not recognized');
  return id;
};

describe('fleetSearchId', () => {
  it('looks up update, contract and party ids at once, a user id once typing settled', () => {
    expect(fleetSearchId(recognizeId(UPDATE_ID).candidates, undefined)).toEqual({
      kind: 'update',
      updateId: UPDATE_ID,
    });
    const word = recognizeId('alice').candidates;
    expect(fleetSearchId(word, undefined)).toBeUndefined();
    expect(fleetSearchId(word, 'alic')).toBeUndefined();
    expect(fleetSearchId(word, 'alice')).toEqual({ kind: 'user', userId: 'alice' });
    expect(fleetSearchId(recognizeId('a'.repeat(64)).candidates, undefined)).toBeUndefined();
  });
});

describe('fleetSearchGroup', () => {
  it('lists every participant with its answer, a failure and a refusal included', () => {
    const states: Record<string, FleetLookupState> = {
      participant1: { status: 'found', detail: 'Transaction at offset 4, 1 event visible' },
      participant2: { status: 'missing' },
      participant3: { status: 'signed-out' },
      participant4: { status: 'failed', title: 'No answer in time', message: 'Within 5 s.' },
      participant5: { status: 'checking' },
    };
    const group = fleetSearchGroup(
      updateId(),
      fleet(5),
      (name) => states[name] ?? { status: 'checking' },
      links,
    );
    expect(group?.label).toBe('On every participant');
    expect(
      group?.items.map(({ title, description, to, isDocumentLink }) => ({
        title,
        description,
        to,
        isDocumentLink,
      })),
    ).toEqual([
      {
        title: 'Found on participant1 (this participant)',
        description: 'Transaction at offset 4, 1 event visible',
        to: `/p/participant1/transactions?update=${UPDATE_ID}`,
        isDocumentLink: true,
      },
      {
        title: 'Not on participant2',
        description: 'No such update that you may see there',
        to: `/p/participant2/transactions?update=${UPDATE_ID}`,
        isDocumentLink: true,
      },
      {
        title: 'Not signed in on participant3',
        description: 'Sign in there to look the update up',
        to: `/p/participant3/sign-in?from=${encodeURIComponent(`/transactions?update=${UPDATE_ID}`)}`,
        isDocumentLink: true,
      },
      {
        title: 'participant4: No answer in time',
        description: 'Within 5 s.',
        to: `/p/participant4/transactions?update=${UPDATE_ID}`,
        isDocumentLink: true,
      },
      {
        title: 'Asking participant5…',
        description: undefined,
        to: `/p/participant5/transactions?update=${UPDATE_ID}`,
        isDocumentLink: true,
      },
    ]);
  });

  it('is left out for a lone participant, and bounded for a large fleet', () => {
    const checking = (): FleetLookupState => ({ status: 'checking' });
    expect(fleetSearchGroup(updateId(), fleet(1), checking, links)).toBeUndefined();
    const group = fleetSearchGroup(
      updateId(),
      fleet(MAX_SEARCHED_PARTICIPANTS + 2),
      checking,
      links,
    );
    expect(group?.items).toHaveLength(MAX_SEARCHED_PARTICIPANTS);
    expect(group?.label).toBe('On every participant (the first 8; 2 not asked)');
  });
});
