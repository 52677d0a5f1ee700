import { describe, expect, it } from 'vitest';
import { isApplePlatform, isSearchShortcut } from './search-shortcut';

type Pressed = Parameters<typeof isSearchShortcut>[0];
const key = (pressed: Partial<Pressed>): Pressed => ({
  key: '',
  code: '',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...pressed,
});

describe('the search shortcut', () => {
  it('is Ctrl+K elsewhere and Cmd+K on Apple devices, with no other modifier', () => {
    expect(isSearchShortcut(key({ key: 'k', code: 'KeyK', ctrlKey: true }), false)).toBe(true);
    expect(isSearchShortcut(key({ key: 'K', code: 'KeyK', ctrlKey: true }), false)).toBe(true);
    expect(isSearchShortcut(key({ key: 'k', code: 'KeyK', metaKey: true }), false)).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', code: 'KeyK', metaKey: true }), true)).toBe(true);
    expect(isSearchShortcut(key({ key: 'k', code: 'KeyK', ctrlKey: true }), true)).toBe(false);
    for (const extra of [{ altKey: true }, { shiftKey: true }, { metaKey: true }]) {
      expect(
        isSearchShortcut(key({ key: 'k', code: 'KeyK', ctrlKey: true, ...extra }), false),
      ).toBe(false);
    }
    expect(isSearchShortcut(key({ key: 'j', code: 'KeyJ', ctrlKey: true }), false)).toBe(false);
    expect(isSearchShortcut(key({ key: 'k', code: 'KeyK' }), false)).toBe(false);
  });

  it('takes K by its place when the layout types another character there', () => {
    expect(isSearchShortcut(key({ key: 'л', code: 'KeyK', ctrlKey: true }), false)).toBe(true);
  });

  it('knows Apple devices by their user agent', () => {
    expect(isApplePlatform('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)')).toBe(true);
    expect(isApplePlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe(true);
    expect(isApplePlatform('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36')).toBe(false);
    expect(isApplePlatform('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe(false);
  });
});
