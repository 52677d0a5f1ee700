import { describe, expect, it } from 'vitest';
import { isWebUrl } from './is-web-url';

describe('isWebUrl', () => {
  it('takes absolute http and https URLs', () => {
    expect(isWebUrl('https://idp.example/realms/acme')).toBe(true);
    expect(isWebUrl('http://localhost:8080/callback')).toBe(true);
  });

  it('refuses other schemes, relative or broken URLs and non-strings', () => {
    for (const value of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'ftp://files.example',
      '/relative/path',
      'idp.example',
      'https://',
      '',
      undefined,
      42,
    ]) {
      expect(isWebUrl(value)).toBe(false);
    }
  });
});
