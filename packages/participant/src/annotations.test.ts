import { describe, expect, it } from 'vitest';
import { annotationKeyProblem, annotationsByteSize } from './annotations';

describe('annotation keys', () => {
  it('accepts a name with an optional DNS prefix', () => {
    expect(annotationKeyProblem('team')).toBeUndefined();
    expect(annotationKeyProblem('example.com/team-a_b.c')).toBeUndefined();
  });

  it('names the part that is wrong, in the order the participant checks', () => {
    expect(annotationKeyProblem('a/b/c')).toEqual({ kind: 'many-slashes' });
    const longPrefix = `${'a'.repeat(60)}.`.repeat(5);
    expect(annotationKeyProblem(`${longPrefix}/-`)).toEqual({
      kind: 'prefix-too-long',
      prefix: longPrefix,
    });
    expect(annotationKeyProblem('ex_ample.com/-')).toEqual({
      kind: 'prefix-syntax',
      prefix: 'ex_ample.com',
    });
    expect(annotationKeyProblem('n'.repeat(64))).toEqual({
      kind: 'name-too-long',
      name: 'n'.repeat(64),
    });
    expect(annotationKeyProblem('-team')).toEqual({ kind: 'name-syntax', name: '-team' });
    expect(annotationKeyProblem('')).toEqual({ kind: 'name-syntax', name: '' });
  });
});

describe('annotations size', () => {
  it('counts UTF-8 bytes of keys and values, skipping empty values', () => {
    expect(
      annotationsByteSize([
        ['k', 'é'],
        ['gone', ''],
        ['ab', '€'],
      ]),
    ).toBe(1 + 2 + 2 + 3);
  });
});
