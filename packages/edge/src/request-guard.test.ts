import { describe, expect, it } from 'vitest';
import {
  checkPath,
  checkRequest,
  hostName,
  parseHostList,
  parseOriginList,
  refusalBody,
  refusalResponseHead,
  type GuardedRequest,
  type RequestGuardPolicy,
} from './request-guard';

const policy: RequestGuardPolicy = { bindHost: '127.0.0.1', checkPath: true };

function request(
  method: string,
  headers: Record<string, string>,
  target = '/v2/users',
  upgrade = false,
): GuardedRequest {
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return { method, target, upgrade, header: (name) => lower[name] };
}

const post = (headers: Record<string, string>) =>
  request('POST', { Host: '127.0.0.1:4173', ...headers });

describe('the Host allow-list', () => {
  it.each([
    'localhost',
    'localhost:4173',
    'LOCALHOST:1',
    '127.0.0.1:4173',
    '127.1.2.3',
    '[::1]:4173',
    '192.168.1.20:4173',
  ])('accepts %s (loopback names and IP literals, which DNS rebinding cannot use)', (host) => {
    expect(checkRequest(request('GET', { host }), policy)).toBeUndefined();
  });

  it.each(['evil.example', 'evil.example:4173', 'localhost.evil.example', '127.0.0.1.nip.io'])(
    'refuses %s with a 403 naming the host and the option to add it',
    (host) => {
      const refusal = checkRequest(request('GET', { host }), policy);

      expect(refusal?.status).toBe(403);
      expect(refusal?.code).toBe('LEDGER_CONSOLE_HOST_NOT_ALLOWED');
      expect(refusal?.cause).toContain(`Host ${host} `);
      expect(refusal?.cause).toContain('--allowed-hosts');
      expect(refusal?.context).toEqual({ host });
    },
  );

  it('refuses a request without a Host header and a malformed one', () => {
    expect(checkRequest(request('GET', {}), policy)?.code).toBe('LEDGER_CONSOLE_HOST_NOT_ALLOWED');
    expect(checkRequest(request('GET', { host: 'localhost/x' }), policy)?.code).toBe(
      'LEDGER_CONSOLE_HOST_NOT_ALLOWED',
    );
  });

  it('accepts the bound host name, --allowed-hosts and the hosts of --public-origin', () => {
    const deployed: RequestGuardPolicy = {
      bindHost: 'console.lan',
      allowedHosts: ['console.example.com'],
      publicOrigins: ['https://public.example.com'],
    };
    for (const host of ['console.lan:4173', 'Console.Example.com', 'public.example.com:443']) {
      expect(checkRequest(request('GET', { host }), deployed), host).toBeUndefined();
    }
    expect(checkRequest(request('GET', { host: 'other.example.com' }), deployed)?.status).toBe(403);
  });
});

describe('the Origin check on writes and websocket handshakes', () => {
  it('accepts a same-origin browser POST (Chromium sends Origin and Sec-Fetch-Site)', () => {
    expect(
      checkRequest(
        post({
          Origin: 'http://127.0.0.1:4173',
          'Sec-Fetch-Site': 'same-origin',
          'Content-Type': 'application/json',
        }),
        policy,
      ),
    ).toBeUndefined();
  });

  it('accepts a client without Origin or Sec-Fetch-Site (curl; Node fetch sends Sec-Fetch-Mode alone)', () => {
    expect(checkRequest(post({}), policy)).toBeUndefined();
    expect(checkRequest(post({ 'Sec-Fetch-Mode': 'cors' }), policy)).toBeUndefined();
  });

  it.each([
    [{ Origin: 'https://evil.example' }],
    [{ Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }],
    [{ Origin: 'null' }],
    // The same host on another port is another origin.
    [{ Origin: 'http://127.0.0.1:9999' }],
    [{ Origin: 'https://127.0.0.1:4173' }],
    [{ 'Sec-Fetch-Site': 'cross-site' }],
    [{ 'Sec-Fetch-Site': 'same-site' }],
    // A page cannot forge Sec-Fetch-Site, so it outweighs a matching Origin.
    [{ Origin: 'http://127.0.0.1:4173', 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a POST with %j', (headers) => {
    const refusal = checkRequest(post(headers), policy);

    expect(refusal?.status).toBe(403);
    expect(refusal?.code).toBe('LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST');
  });

  it('checks every method but GET, HEAD and OPTIONS', () => {
    const foreign = { host: 'localhost:4173', origin: 'https://evil.example' };
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(checkRequest(request(method, foreign), policy)?.status, method).toBe(403);
    }
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(checkRequest(request(method, foreign), policy), method).toBeUndefined();
    }
  });

  it('checks websocket handshakes although they are GETs', () => {
    const handshake = (origin: string) =>
      checkRequest(request('GET', { host: 'localhost:4173', origin }, '/v2/updates', true), policy);

    expect(handshake('https://evil.example')?.cause).toContain('websocket handshake');
    expect(handshake('http://localhost:4173')).toBeUndefined();
  });

  it('compares origins normalised: case and default ports do not matter', () => {
    expect(
      checkRequest(request('POST', { host: 'LocalHost:80', origin: 'http://localhost' }), policy),
    ).toBeUndefined();
  });

  it('accepts --public-origin behind a TLS proxy that rewrites Host, and nothing else', () => {
    const proxied: RequestGuardPolicy = {
      bindHost: '127.0.0.1',
      publicOrigins: ['https://console.example.com'],
    };
    const behindProxy = (origin: string) =>
      checkRequest(request('POST', { host: '127.0.0.1:4173', origin }), proxied);

    expect(behindProxy('https://console.example.com')).toBeUndefined();
    expect(behindProxy('http://console.example.com')?.status).toBe(403);
    expect(behindProxy('https://evil.example')?.status).toBe(403);
  });
});

describe('the Content-Type check', () => {
  it.each([
    'text/plain',
    'text/plain;charset=UTF-8',
    'TEXT/PLAIN',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----x',
  ])('refuses %s on a write with a 415', (contentType) => {
    const refusal = checkRequest(post({ 'Content-Type': contentType }), policy);

    expect(refusal?.status).toBe(415);
    expect(refusal?.code).toBe('LEDGER_CONSOLE_UNSUPPORTED_CONTENT_TYPE');
  });

  it('accepts JSON, DAR uploads and no Content-Type at all', () => {
    for (const contentType of ['application/json', 'application/octet-stream']) {
      expect(checkRequest(post({ 'Content-Type': contentType }), policy)).toBeUndefined();
    }
    expect(checkRequest(post({}), policy)).toBeUndefined();
  });
});

describe('the path check', () => {
  it.each([
    '/v2/../__sandbox/tokens',
    '/v2/./users',
    '/v2/%2e%2e/__sandbox/tokens',
    '/v2/%2E%2E/x',
    '/v2/.%2e/x',
    '/v2/%2e./x',
    '/v2/%2e/x',
    '/v2/users/..',
    '/v2/users/%2E%2E',
    '/v2/x%2F..%2F..%2F__sandbox/tokens',
    '/v2/..%2f__sandbox/tokens',
    '/v2/%252e%252e/__sandbox/tokens',
    '/v2/%5c..%5c__sandbox',
    '/v2/users/%zz',
    '/v2\\..\\__sandbox',
    '/v2/..#',
    'http://127.0.0.1:7575/__sandbox/tokens',
    '*',
  ])('refuses %s with a 400', (target) => {
    const refusal = checkPath(target);

    expect(refusal?.status).toBe(400);
    expect(refusal?.code).toBe('LEDGER_CONSOLE_INVALID_PATH');
    expect(refusal?.context).toEqual({ path: target });
  });

  it.each([
    '/v2/users/alice.smith',
    '/v2/users/...',
    '/v2/users/..a',
    '/v2/users/%2E%2E%2E',
    '/v2/users?pageToken=a%2Fb&x=..',
    '/v2/idps/a%2Fb',
    '/v2/idps/idp-id-%23%3A-_%20a%2Fb%5Cc',
    '/v2/users/100%2525',
    '/v2/parties/alice%3A%3A1220ab',
    '/assets/index-abc.js',
    '/',
  ])('accepts %s', (target) => {
    expect(checkPath(target)).toBeUndefined();
  });

  it('applies only when the policy asks for it (the sandbox resolves paths before routing)', () => {
    const get = request('GET', { host: 'localhost' }, '/v2/../x');

    expect(checkRequest(get, policy)?.status).toBe(400);
    expect(checkRequest(get, { bindHost: '127.0.0.1' })).toBeUndefined();
  });
});

describe('refusals in the API error shape', () => {
  it('renders a JsCantonError body with the ten keys', () => {
    const refusal = checkRequest(request('GET', { host: 'evil.example' }), policy);
    if (!refusal) throw new Error('expected a refusal');

    expect(refusalBody(refusal, 'abc')).toEqual({
      code: 'LEDGER_CONSOLE_HOST_NOT_ALLOWED',
      cause: refusal.cause,
      correlationId: 'abc',
      traceId: 'abc',
      context: { host: 'evil.example' },
      resources: [],
      errorCategory: 7,
      grpcCodeValue: 7,
      retryInfo: null,
      definiteAnswer: null,
    });
  });

  it('writes a raw HTTP response for a refused handshake', () => {
    const refusal = checkPath('/v2/../x');
    if (!refusal) throw new Error('expected a refusal');
    const head = refusalResponseHead(refusal, null);
    const [status, ...rest] = head.split('\r\n');
    const body = head.slice(head.indexOf('\r\n\r\n') + 4);

    expect(status).toBe('HTTP/1.1 400 Bad Request');
    expect(rest).toContain(`Content-Length: ${String(Buffer.byteLength(body))}`);
    expect(JSON.parse(body)).toMatchObject({
      code: 'LEDGER_CONSOLE_INVALID_PATH',
      errorCategory: 8,
    });
  });
});

describe('option parsing', () => {
  it('reads host names, lower-case, and refuses ports, schemes and empty entries', () => {
    expect(parseHostList('A.example.com,b.example.com', '--allowed-hosts')).toEqual([
      'a.example.com',
      'b.example.com',
    ]);
    for (const bad of ['a.example.com:80', 'https://a.example.com', 'a,,b', '']) {
      expect(() => parseHostList(bad, '--allowed-hosts'), bad).toThrow(/--allowed-hosts/);
    }
  });

  it('reads origins, normalised, and refuses anything with a path', () => {
    expect(
      parseOriginList('https://Console.example.com/,http://x:8080', '--public-origin'),
    ).toEqual(['https://console.example.com', 'http://x:8080']);
    for (const bad of ['console.example.com', 'https://c.example.com/app', 'ws://c.example.com']) {
      expect(() => parseOriginList(bad, '--public-origin'), bad).toThrow(/--public-origin/);
    }
  });

  it('takes a host name out of a Host header', () => {
    expect(hostName('Example.COM.:443')).toBe('example.com');
    expect(hostName('[::1]:80')).toBe('[::1]');
    expect(hostName('a b')).toBeUndefined();
  });
});

describe('reads under a guarded prefix', () => {
  const guarded: RequestGuardPolicy = { ...policy, guardedReadPrefixes: ['/__console'] };
  const get = (target: string, headers: Record<string, string>) =>
    checkRequest(request('GET', { Host: '127.0.0.1:4173', ...headers }, target), guarded);

  it('holds a GET or HEAD there to the Origin rule of writes', () => {
    const crossSite = { 'Sec-Fetch-Site': 'cross-site' };
    expect(get('/__console/oidc-discovery?issuer=x', crossSite)?.code).toBe(
      'LEDGER_CONSOLE_CROSS_ORIGIN_REQUEST',
    );
    expect(get('/__console', { Origin: 'https://evil.example' })?.status).toBe(403);
    const head = request('HEAD', { Host: '127.0.0.1:4173', ...crossSite }, '/__console/x');
    expect(checkRequest(head, guarded)?.status).toBe(403);
  });

  it('matches whole segments and leaves other reads alone', () => {
    const crossSite = { 'Sec-Fetch-Site': 'cross-site' };
    expect(get('/__consoles', crossSite)).toBeUndefined();
    expect(get('/v2/users', crossSite)).toBeUndefined();
    expect(get('/__console/x', { 'Sec-Fetch-Site': 'same-origin' })).toBeUndefined();
    expect(get('/__console/x', {})).toBeUndefined();
  });
});
