import { describe, expect, it } from 'vitest';
import { bindingWarning, isLoopbackHost } from './binding-warning';

describe('bindingWarning', () => {
  it.each(['127.0.0.1', '127.8.9.10', 'localhost', '::1', '[::1]'])(
    'stays quiet on loopback (%s)',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
      expect(bindingWarning(host, { kind: 'no-auth' })).toEqual([]);
      expect(bindingWarning(host, { kind: 'token-minting' })).toEqual([]);
    },
  );

  it.each(['0.0.0.0', '::', '192.168.1.20', 'console.lan', '127.example.com'])(
    'warns beyond loopback (%s)',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
      expect(bindingWarning(host, { kind: 'no-auth' }).join('\n')).toContain(
        `--host ${host} makes the JSON Ledger API reachable from the network WITHOUT`,
      );
    },
  );

  it('names what is exposed: the API without auth, token minting, or the relayed participant', () => {
    expect(bindingWarning('0.0.0.0', { kind: 'no-auth' }).join(' ')).toMatch(
      /participant admin\. Use --auth jwt/,
    );
    expect(bindingWarning('0.0.0.0', { kind: 'token-minting' }).join(' ')).toContain(
      '/__sandbox/tokens',
    );
    expect(
      bindingWarning('0.0.0.0', { kind: 'proxied-ledger', url: 'http://p:7575' }).join(' '),
    ).toContain('relays the participant at http://p:7575');
  });
});
