import { describe, expect, it } from 'vitest';
import { cameFromOf, recordLocation } from './came-from';

describe('recordLocation', () => {
  it('remembers where each pushed entry came from; a replace keeps it, a pop adds nothing', () => {
    recordLocation('k1', '/live', 'POP');
    recordLocation('k2', '/contracts/00ab', 'PUSH');
    recordLocation('k3', '/contracts/00ab?x=1', 'REPLACE');
    recordLocation('k1', '/live', 'POP');
    recordLocation('k4', '/transactions', 'PUSH');
    expect(cameFromOf('k2')).toBe('/live');
    expect(cameFromOf('k3')).toBe('/live');
    expect(cameFromOf('k4')).toBe('/live');
    expect(cameFromOf('k1')).toBeUndefined();
  });
});
