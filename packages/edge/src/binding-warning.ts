/** What a listener beyond loopback would hand to anyone who can reach its port. */
export type ExposedApi =
  /** An API that checks no tokens: everyone is participant admin. */
  | { kind: 'no-auth' }
  /** The sandbox's /__sandbox/tokens, which signs tokens for any user, admins included. */
  | { kind: 'token-minting' }
  /** The console relaying to a participant whose own auth it cannot know. */
  | { kind: 'proxied-ledger'; url: string };

/** Loopback addresses as `--host` takes them; only these keep the port on this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * The warning to print when binding `host` exposes `api`, one line each; none on loopback. Loud on
 * purpose: `--host 0.0.0.0` is one flag away from giving a network admin rights on a participant.
 */
export function bindingWarning(host: string, api: ExposedApi): string[] {
  if (isLoopbackHost(host)) return [];
  const banner = '!'.repeat(78);
  const what = {
    'no-auth': [
      `WARNING: --host ${host} makes the JSON Ledger API reachable from the network WITHOUT`,
      'authentication: anyone who reaches this port acts as participant admin. Use --auth jwt,',
      'or bind 127.0.0.1 and put a TLS-terminating, authenticating proxy in front.',
    ],
    'token-minting': [
      `WARNING: --host ${host} exposes the sandbox's token minting (/__sandbox/tokens) to the`,
      'network: anyone who reaches this port can sign in as any user, admins included.',
    ],
    'proxied-ledger': [
      `WARNING: --host ${host} relays the participant at ${api.kind === 'proxied-ledger' ? api.url : ''}`,
      'to the network: unless that participant requires tokens, anyone who reaches this port',
      'acts as participant admin.',
    ],
  }[api.kind];
  return [banner, ...what, banner];
}
