import { describe, expect, it } from 'vitest';
import { userTabOf, userTabsFor, withUserTab } from './user-tabs';

describe('userTabOf', () => {
  it('reads the tab from the URL, the profile for none or an unknown one', () => {
    expect(userTabOf('rights')).toBe('rights');
    expect(userTabOf('access')).toBe('access');
    expect(userTabOf('activity')).toBe('activity');
    expect(userTabOf('profile')).toBe('profile');
    expect(userTabOf(null)).toBe('profile');
    expect(userTabOf('<script>')).toBe('profile');
  });

  it('lands on the profile for a tab the caller may not open', () => {
    expect(userTabOf('offboard', userTabsFor(true))).toBe('offboard');
    expect(userTabOf('offboard', userTabsFor(false))).toBe('profile');
    expect(userTabsFor(false)).toEqual(['profile', 'rights', 'access', 'activity']);
  });
});

describe('withUserTab', () => {
  it('keeps the other parameters and leaves no tab for the profile', () => {
    const search = new URLSearchParams('idp=acme&tab=rights');
    expect(withUserTab(search, 'offboard').toString()).toBe('idp=acme&tab=offboard');
    expect(withUserTab(search, 'profile').toString()).toBe('idp=acme');
    // The input is not changed.
    expect(search.toString()).toBe('idp=acme&tab=rights');
  });
});
