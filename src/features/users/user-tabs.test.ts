import { describe, expect, it } from 'vitest';
import { userTabOf } from './user-tabs';

describe('userTabOf', () => {
  it('reads the tab from the URL, the profile for none or an unknown one', () => {
    expect(userTabOf('rights')).toBe('rights');
    expect(userTabOf('profile')).toBe('profile');
    expect(userTabOf(null)).toBe('profile');
    expect(userTabOf('<script>')).toBe('profile');
  });
});
