import { describe, expect, it } from 'vitest';
import { cameFromOf, placeOf, recordLocation } from './came-from';

describe('placeOf', () => {
  it('names the pages of the navigation by their label, keeping the view', () => {
    expect(placeOf('/live')).toEqual({ to: '/live', label: 'Live' });
    expect(placeOf('/contracts?party=alice%3A%3A1220')).toEqual({
      to: '/contracts?party=alice%3A%3A1220',
      label: 'Active contracts',
    });
    expect(placeOf('/transactions')).toEqual({ to: '/transactions', label: 'Transactions' });
    expect(placeOf('/')).toEqual({ to: '/', label: 'Overview' });
  });

  it('names an open transaction and the pages of one thing', () => {
    expect(placeOf('/transactions?update=1220ab')?.label).toBe('the transaction');
    expect(placeOf('/parties/alice%3A%3A1220')?.label).toBe('the party');
    expect(placeOf('/contracts/00abcd')?.label).toBe('the previous contract');
  });

  it('is no place for forms, the sign-in page or another origin', () => {
    expect(placeOf('/parties/new')).toBeUndefined();
    expect(placeOf('/sign-in?from=%2F')).toBeUndefined();
    expect(placeOf('//evil.example/live')).toBeUndefined();
    expect(placeOf('https://evil.example/live')).toBeUndefined();
  });
});

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
