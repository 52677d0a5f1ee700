import { describe, expect, it } from 'vitest';
import { placeOf } from './back-link-place';

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
