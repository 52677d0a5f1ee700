import { describe, expect, it } from 'vitest';
import {
  checkedApiPath,
  isParticipantName,
  pageOnParticipant,
  participantApiBase,
  participantNameProblem,
  participantOfPagePath,
  participantPageBase,
} from './participant-path';

describe('participant names', () => {
  it.each(['participant1', 'p', '0', 'node-a_2', 'a'.repeat(63)])('accepts %s', (name) => {
    expect(isParticipantName(name)).toBe(true);
    expect(participantNameProblem(name)).toBeUndefined();
  });

  it.each(['', 'Participant1', '-a', '_a', 'a.b', 'a/b', '..', 'a'.repeat(64), 'ä'])(
    'refuses %j with a reason',
    (name) => {
      expect(isParticipantName(name)).toBe(false);
      expect(participantNameProblem(name)).toMatch(/is not a participant name/);
    },
  );
});

describe('participantOfPagePath', () => {
  it('reads the participant and the page within it', () => {
    expect(participantOfPagePath('/p/participant2/parties/alice')).toEqual({
      participant: 'participant2',
      path: '/parties/alice',
    });
    expect(participantOfPagePath('/p/participant2/')).toEqual({
      participant: 'participant2',
      path: '/',
    });
    expect(participantOfPagePath('/p/participant2')).toEqual({
      participant: 'participant2',
      path: '/',
    });
  });

  it('leaves unprefixed pages to the default participant', () => {
    for (const path of ['/', '/users', '/parties/p/x', '/participants/a', '/pp/a', '/p', '/p/']) {
      expect(participantOfPagePath(path)).toBeUndefined();
    }
  });

  it('does not take an invalid name for a participant', () => {
    expect(participantOfPagePath('/p/Upper/users')).toBeUndefined();
    expect(participantOfPagePath('/p/%2E%2E/users')).toBeUndefined();
  });
});

describe('paths of a participant', () => {
  it('puts pages under /p/NAME and the API under /participants/NAME', () => {
    expect(participantPageBase('participant1')).toBe('/p/participant1');
    expect(participantApiBase('participant1')).toBe('/participants/participant1');
  });

  it('keeps the page, its search and hash when switching participant', () => {
    expect(pageOnParticipant('participant2', '/users', '?idp=x#top')).toBe(
      '/p/participant2/users?idp=x#top',
    );
    expect(pageOnParticipant('participant2', '/')).toBe('/p/participant2/');
    expect(pageOnParticipant('participant2', 'users')).toBe('/p/participant2/users');
  });

  it('accepts only plain same-origin API paths from the server', () => {
    expect(checkedApiPath('/participants/participant1')).toBe('/participants/participant1');
    for (const bad of ['//evil.example', 'https://evil.example/x', '/a/../b', '/a b', '', 3, '/']) {
      expect(checkedApiPath(bad)).toBeUndefined();
    }
  });
});
