import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FLEET_PARTICIPANTS as SANDBOX_FLEET_MAX } from '../../sandbox/src/index';
import {
  exposedApi,
  MAX_FLEET_PARTICIPANTS,
  parseServerArgs,
  participantNames,
  type ServerArgs,
} from './server-args';

describe('parseServerArgs', () => {
  it('defaults to loopback port 4173 with the embedded sandbox, seeded with demo data', () => {
    expect(parseServerArgs([])).toEqual({
      kind: 'run',
      args: { port: 4173, host: '127.0.0.1', seed: 'demo' },
    });
  });

  it('starts the embedded sandbox empty with --seed none', () => {
    expect(parseServerArgs(['--seed', 'none'])).toEqual({
      kind: 'run',
      args: { port: 4173, host: '127.0.0.1', seed: 'none' },
    });
  });

  it('asks the embedded sandbox for traffic cost with --traffic-cost, and only it', () => {
    expect(parseServerArgs(['--traffic-cost'])).toEqual({
      kind: 'run',
      args: { port: 4173, host: '127.0.0.1', seed: 'demo', trafficCost: true },
    });
    expect(parseServerArgs(['--ledger', 'http://host:7575', '--traffic-cost'])).toEqual({
      kind: 'error',
      message: '--traffic-cost applies only to the embedded sandbox, not to --ledger',
    });
  });

  it('passes the sandbox options through', () => {
    expect(
      parseServerArgs([
        '--port',
        '4174',
        '--auth',
        'jwt',
        '--jwt-secret',
        's3cret',
        '--data-dir',
        '/tmp/ledger',
        '--synchronizers',
        'alpha, beta',
        '--seed',
        'demo',
      ]),
    ).toEqual({
      kind: 'run',
      args: {
        port: 4174,
        host: '127.0.0.1',
        auth: 'jwt',
        jwtSecret: 's3cret',
        dataDir: '/tmp/ledger',
        synchronizers: ['alpha', 'beta'],
        seed: 'demo',
      },
    });
  });

  it('takes a participant URL and drops its trailing slash', () => {
    expect(parseServerArgs(['--ledger', 'https://participant.example.com/api/json/'])).toEqual({
      kind: 'run',
      args: { port: 4173, host: '127.0.0.1', ledger: 'https://participant.example.com/api/json' },
    });
  });

  it('accepts --opt=value and an explicit host', () => {
    expect(parseServerArgs(['--port=0', '--host=0.0.0.0'])).toEqual({
      kind: 'run',
      args: { port: 0, host: '0.0.0.0', seed: 'demo' },
    });
  });

  it.each([
    [['--port', 'eighty'], '--port must be an integer'],
    [['--port', '70000'], '--port must be an integer'],
    [['--auth', 'oauth'], '--auth must be none, jwt or oidc, got oauth'],
    [['--jwt-secret', 'x'], '--jwt-secret needs --auth jwt'],
    [['--seed', 'full'], '--seed must be demo or none'],
    [['--synchronizers', 'a,,b'], '--synchronizers must be a comma-separated list'],
    [
      ['--ledger', 'http://host:7575', '--synchronizers', 'a'],
      '--synchronizers applies only to the embedded sandbox',
    ],
    [['--ledger', 'localhost:7575'], '--ledger must be an http or https URL'],
    [['--ledger', 'not a url'], '--ledger must be an absolute URL'],
    [['--ledger', 'http://user:pw@host:7575'], '--ledger must not contain credentials'],
    [
      ['--ledger', 'http://host:7575', '--auth', 'jwt'],
      '--auth applies only to the embedded sandbox',
    ],
    [
      ['--ledger', 'http://host:7575', '--seed', 'none'],
      '--seed applies only to the embedded sandbox',
    ],
    [['--verbose'], "Unknown option '--verbose'"],
    [['extra'], 'extra'],
    [['--oidc-port', '4401'], '--oidc-port needs --auth oidc'],
    [
      ['--auth', 'jwt', '--oidc-access-token-ttl', '60'],
      '--oidc-access-token-ttl needs --auth oidc',
    ],
    [['--oidc-refresh-token-ttl', '600'], '--oidc-refresh-token-ttl needs --auth oidc'],
    [
      ['--ledger', 'http://host:7575', '--oidc-port', '4401'],
      '--oidc-port applies only to the embedded sandbox',
    ],
    [
      ['--auth', 'oidc', '--oidc-port', '70000'],
      '--oidc-port must be a whole number from 0 to 65535, got "70000"',
    ],
    [
      ['--auth', 'oidc', '--oidc-port', 'next'],
      '--oidc-port must be a whole number from 0 to 65535, got "next"',
    ],
    [
      ['--auth', 'oidc', '--oidc-access-token-ttl', '0'],
      '--oidc-access-token-ttl must be a whole number from 5 to 86400, got "0"',
    ],
    [
      ['--auth', 'oidc', '--oidc-access-token-ttl', '600s'],
      '--oidc-access-token-ttl must be a whole number from 5 to 86400, got "600s"',
    ],
    [
      ['--auth', 'oidc', '--oidc-refresh-token-ttl', '59'],
      '--oidc-refresh-token-ttl must be a whole number from 60 to 2592000, got "59"',
    ],
    [
      ['--auth', 'oidc', '--oidc-access-token-ttl', '900', '--oidc-refresh-token-ttl', '600'],
      '--oidc-refresh-token-ttl (600) must not be shorter than --oidc-access-token-ttl (900)',
    ],
  ])('rejects %j', (argv, message) => {
    const parsed = parseServerArgs(argv);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' ? parsed.message : '').toContain(message);
  });

  it('takes the public names and origins of a deployment, and --source-maps', () => {
    expect(
      parseServerArgs([
        '--allowed-hosts',
        'Console.Example.com, console.internal',
        '--public-origin',
        'https://console.example.com/',
        '--source-maps',
      ]),
    ).toEqual({
      kind: 'run',
      args: {
        port: 4173,
        host: '127.0.0.1',
        seed: 'demo',
        allowedHosts: ['console.example.com', 'console.internal'],
        publicOrigins: ['https://console.example.com'],
        sourceMaps: true,
      },
    });
  });

  it('reads allowed hosts and public origins from the environment when the options are absent', () => {
    const env = {
      LEDGER_CONSOLE_ALLOWED_HOSTS: 'from-env.example.com',
      LEDGER_CONSOLE_PUBLIC_ORIGIN: 'https://env.example.com',
    };
    const fromEnv = parseServerArgs([], env);
    const fromFlag = parseServerArgs(['--allowed-hosts', 'flag.example.com'], env);

    expect(fromEnv.kind === 'run' ? fromEnv.args.allowedHosts : []).toEqual([
      'from-env.example.com',
    ]);
    expect(fromEnv.kind === 'run' ? fromEnv.args.publicOrigins : []).toEqual([
      'https://env.example.com',
    ]);
    expect(fromFlag.kind === 'run' ? fromFlag.args.allowedHosts : []).toEqual(['flag.example.com']);
  });

  it.each([
    [['--allowed-hosts', 'a.example.com,'], '--allowed-hosts must be a comma-separated list'],
    [['--allowed-hosts', 'a.example.com:443'], '--allowed-hosts must be a comma-separated list'],
    [['--allowed-hosts', 'https://a.example.com'], '--allowed-hosts must be'],
    [['--public-origin', 'console.example.com'], '--public-origin must be origins'],
    [['--public-origin', 'https://console.example.com/app'], '--public-origin must be origins'],
    [['--public-origin', 'ftp://console.example.com'], '--public-origin must be origins'],
  ])('rejects %j', (argv, message) => {
    const parsed = parseServerArgs(argv);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' ? parsed.message : '').toContain(message);
  });

  it('takes --auth oidc with the embedded provider’s defaults, and its flags', () => {
    expect(parseServerArgs(['--auth', 'oidc'])).toEqual({
      kind: 'run',
      args: {
        port: 4173,
        host: '127.0.0.1',
        auth: 'oidc',
        oidcProvider: { port: 0, accessTokenTtl: 600, refreshTokenTtl: 28_800 },
        seed: 'demo',
      },
    });
    const parsed = parseServerArgs([
      '--auth=oidc',
      '--oidc-port=4401',
      '--oidc-access-token-ttl=30',
      '--oidc-refresh-token-ttl=120',
    ]);
    expect(parsed.kind === 'run' ? parsed.args.oidcProvider : undefined).toEqual({
      port: 4401,
      accessTokenTtl: 30,
      refreshTokenTtl: 120,
    });
  });

  it('asks for help', () => {
    expect(parseServerArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseServerArgs(['-h'])).toEqual({ kind: 'help' });
  });
});

describe('exposedApi', () => {
  const run = (argv: string[]): ServerArgs => {
    const parsed = parseServerArgs(argv);
    if (parsed.kind !== 'run') throw new Error('expected arguments to run with');
    return parsed.args;
  };

  it('is the sandbox without auth by default, its token minting with --auth jwt', () => {
    expect(exposedApi(run([]))).toEqual({ kind: 'no-auth' });
    expect(exposedApi(run(['--auth', 'none']))).toEqual({ kind: 'no-auth' });
    expect(exposedApi(run(['--auth', 'jwt']))).toEqual({ kind: 'token-minting' });
  });

  it('is nothing with --auth oidc: tokens are required, from a loopback-only provider', () => {
    expect(exposedApi(run(['--auth', 'oidc']))).toBeUndefined();
  });

  it('is the relayed participant with --ledger, whose own auth the console cannot know', () => {
    expect(exposedApi(run(['--ledger', 'http://participant:7575']))).toEqual({
      kind: 'proxied-ledger',
      url: 'http://participant:7575',
    });
  });
});

describe('body limits on the command line', () => {
  it('takes --max-request-bytes and --max-dar-bytes, with or without --ledger', () => {
    const parsed = parseServerArgs([
      '--ledger',
      'http://participant:7575',
      '--max-request-bytes',
      '1024',
      '--max-dar-bytes',
      '4096',
    ]);
    expect(parsed).toMatchObject({
      kind: 'run',
      args: { maxRequestBytes: 1024, maxDarBytes: 4096 },
    });
    expect(parseServerArgs(['--max-dar-bytes', 'lots'])).toEqual({
      kind: 'error',
      message: '--max-dar-bytes must be a positive number of bytes, got "lots"',
    });
  });
});

describe('the audit log on the command line', () => {
  it('keeps --data-dir with --ledger too: the audit log lives there', () => {
    expect(
      parseServerArgs(['--ledger', 'http://host:7575', '--data-dir', '/var/lib/console']),
    ).toEqual({
      kind: 'run',
      args: {
        port: 4173,
        host: '127.0.0.1',
        ledger: 'http://host:7575',
        dataDir: '/var/lib/console',
      },
    });
  });

  it('takes --audit-db and the retention limits, unlimited included', () => {
    const parsed = parseServerArgs([
      '--audit-db',
      'libsql://audit.example.com',
      '--audit-retention-days',
      '365',
      '--audit-max-entries',
      'unlimited',
    ]);
    expect(parsed.kind === 'run' ? parsed.args : undefined).toMatchObject({
      auditDb: 'libsql://audit.example.com',
      auditRetentionDays: 365,
      auditMaxEntries: null,
    });
  });

  it.each([
    [['--audit-db', 'libsql://h?authToken=secret'], 'LEDGER_CONSOLE_AUDIT_DB_TOKEN'],
    [['--audit-db', 'mysql://h/db'], '--audit-db must be a file path'],
    [['--audit-retention-days', '0'], '--audit-retention-days must be a positive whole number'],
    [['--audit-max-entries=-5'], '--audit-max-entries must be a positive whole number'],
    [['--audit-max-entries', '1e6'], '--audit-max-entries must be a positive whole number'],
  ])('rejects %j', (argv, message) => {
    const parsed = parseServerArgs(argv);
    expect(parsed.kind === 'error' ? parsed.message : '').toContain(message);
  });
});

describe('sign-in providers on the command line', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'server-args-sign-in-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const provider = {
    id: 'corp',
    name: 'Corporate SSO',
    issuer: 'https://login.corp.example',
    clientId: 'console',
    scopes: ['openid', 'daml_ledger_api'],
  };

  it('keeps the user’s providers with --auth oidc, refusing the embedded provider’s ids', async () => {
    const withFlags = parseServerArgs([
      '--auth',
      'oidc',
      '--oidc-issuer',
      'https://login.corp.example',
      '--oidc-client-id',
      'console',
    ]);
    expect(
      withFlags.kind === 'run' ? withFlags.args.signInProviders?.map((p) => p.id) : [],
    ).toEqual(['default']);
    const file = path.join(dir, 'taken.json');
    await writeFile(file, JSON.stringify({ providers: [{ ...provider, id: 'sandbox-acme' }] }));
    expect(parseServerArgs(['--sign-in-config', file])).toMatchObject({ kind: 'run' });
    expect(parseServerArgs(['--auth', 'oidc', '--sign-in-config', file])).toEqual({
      kind: 'error',
      message:
        "sign-in provider id sandbox-acme is the embedded provider's with --auth oidc; choose another",
    });
  });

  it('has none by default', () => {
    expect(parseServerArgs([])).toEqual({
      kind: 'run',
      args: { port: 4173, host: '127.0.0.1', seed: 'demo' },
    });
  });

  it('takes one provider from the --oidc-* flags', () => {
    expect(
      parseServerArgs([
        '--ledger',
        'http://participant:7575',
        '--oidc-issuer',
        'https://login.corp.example',
        '--oidc-client-id',
        'console',
        '--oidc-audience',
        'https://daml.com/jwt/aud/participant/p1',
        '--oidc-idp',
        'corp',
      ]),
    ).toMatchObject({
      kind: 'run',
      args: {
        signInProviders: [
          {
            id: 'default',
            issuer: 'https://login.corp.example',
            clientId: 'console',
            scopes: ['openid'],
            audience: 'https://daml.com/jwt/aud/participant/p1',
            identityProviderId: 'corp',
          },
        ],
      },
    });
  });

  it('takes several from --sign-in-config', async () => {
    const file = path.join(dir, 'sign-in.json');
    await writeFile(file, JSON.stringify({ providers: [provider, { ...provider, id: 'other' }] }));
    const parsed = parseServerArgs(['--sign-in-config', file]);
    expect(parsed.kind === 'run' && parsed.args.signInProviders?.map((p) => p.id)).toEqual([
      'corp',
      'other',
    ]);
  });

  it("fails with the file's message, naming the file, provider and field", async () => {
    const file = path.join(dir, 'bad.json');
    await writeFile(file, JSON.stringify({ providers: [{ ...provider, clientSecret: 'x' }] }));
    expect(parseServerArgs(['--sign-in-config', file])).toEqual({
      kind: 'error',
      message: `${file}: providers[0] ("corp"): clientSecret: not allowed: the console is a public client (Authorization Code + PKCE) and keeps no secret`,
    });
  });

  it("fails with the flags' message, naming the flag", () => {
    expect(parseServerArgs(['--oidc-client-id', 'console'])).toEqual({
      kind: 'error',
      message: '--oidc-issuer: is required',
    });
  });

  it('refuses the flags and a file together', async () => {
    const file = path.join(dir, 'both.json');
    await writeFile(file, JSON.stringify({ providers: [provider] }));
    expect(
      parseServerArgs(['--sign-in-config', file, '--oidc-issuer', 'https://login.example']),
    ).toEqual({
      kind: 'error',
      message:
        '--sign-in-config and the --oidc-* options exclude each other: list every provider in the file',
    });
  });

  it('offers a provider to the participants it names, refusing a name the console lacks', async () => {
    const file = path.join(dir, 'fleet.json');
    await writeFile(
      file,
      JSON.stringify({
        providers: [
          { ...provider, participants: ['participant1', 'participant2'] },
          { ...provider, id: 'second', participants: ['participant2'] },
        ],
      }),
    );
    const parsed = parseServerArgs(['--participants', '2', '--sign-in-config', file]);
    expect(
      parsed.kind === 'run' && parsed.args.signInProviders?.map((p) => p.participants),
    ).toEqual([['participant1', 'participant2'], ['participant2']]);
    expect(
      parseServerArgs(['--ledger', 'participant1=http://a:1', '--sign-in-config', file]),
    ).toEqual({
      kind: 'error',
      message:
        'sign-in provider corp names participant participant2, which this console does not have (it has participant1)',
    });
    const bad = path.join(dir, 'bad-participants.json');
    await writeFile(
      bad,
      JSON.stringify({ providers: [{ ...provider, participants: ['Participant1'] }] }),
    );
    expect(parseServerArgs(['--sign-in-config', bad])).toEqual({
      kind: 'error',
      message: `${bad}: providers[0] ("corp"): participants: "Participant1" is not a participant name`,
    });
  });
});

describe('several participants on the command line', () => {
  it('takes --participants N for an embedded fleet, with the sandbox options', () => {
    expect(
      parseServerArgs([
        '--participants',
        '3',
        '--auth',
        'jwt',
        '--seed',
        'none',
        '--data-dir',
        '/tmp/fleet',
        '--synchronizers',
        'local,global',
        '--traffic-cost',
      ]),
    ).toEqual({
      kind: 'run',
      args: {
        port: 4173,
        host: '127.0.0.1',
        participants: 3,
        auth: 'jwt',
        seed: 'none',
        dataDir: '/tmp/fleet',
        synchronizers: ['local', 'global'],
        trafficCost: true,
      },
    });
    expect(participantNames({ participants: 3 })).toEqual([
      'participant1',
      'participant2',
      'participant3',
    ]);
    // One is today's single embedded sandbox.
    expect(participantNames({ participants: 1 })).toEqual(['sandbox']);
    expect(participantNames({})).toEqual(['sandbox']);
  });

  it('refuses --participants outside 1 to 8, the sandbox fleet’s own bound', () => {
    expect(MAX_FLEET_PARTICIPANTS).toBe(SANDBOX_FLEET_MAX);
    for (const value of ['0', '9', '2.5', '-1', 'two', '']) {
      expect(parseServerArgs([`--participants=${value}`])).toEqual({
        kind: 'error',
        message: `--participants must be a whole number from 1 to 8, got ${value}`,
      });
    }
  });

  it('takes named participants in order, the first the default', () => {
    const parsed = parseServerArgs([
      '--ledger',
      'participant1=https://p1.example.com/api/',
      '--ledger',
      'bank_b-2=http://127.0.0.1:7575',
    ]);
    expect(parsed).toEqual({
      kind: 'run',
      args: {
        port: 4173,
        host: '127.0.0.1',
        ledgers: [
          { name: 'participant1', url: 'https://p1.example.com/api' },
          { name: 'bank_b-2', url: 'http://127.0.0.1:7575' },
        ],
      },
    });
    expect(parsed.kind === 'run' && participantNames(parsed.args)).toEqual([
      'participant1',
      'bank_b-2',
    ]);
    expect(parsed.kind === 'run' && exposedApi(parsed.args)).toEqual({
      kind: 'proxied-ledger',
      url: 'https://p1.example.com/api, http://127.0.0.1:7575',
    });
    // A bare URL with '=' in its path is still a bare URL: a name has no ':' or '/'.
    expect(parseServerArgs(['--ledger', 'http://host/a=b'])).toMatchObject({
      args: { ledger: 'http://host/a=b' },
    });
    expect(participantNames({ ledger: 'http://host' })).toEqual(['participant']);
  });

  it('refuses bad names, twins, mixtures and sandbox options with named participants', () => {
    const refusals: [string[], string][] = [
      [
        ['--ledger', 'Participant1=http://a:1'],
        '--ledger Participant1=…: a participant name is 1 to 63 lower case letters, digits, _ and -, starting with a letter or digit, e.g. participant1',
      ],
      [
        ['--ledger', '=http://a:1'],
        '--ledger =…: a participant name is 1 to 63 lower case letters, digits, _ and -, starting with a letter or digit, e.g. participant1',
      ],
      [
        ['--ledger', `${'a'.repeat(64)}=http://a:1`],
        `--ledger ${'a'.repeat(64)}=…: a participant name is 1 to 63 lower case letters, digits, _ and -, starting with a letter or digit, e.g. participant1`,
      ],
      [
        ['--ledger=-p=http://a:1'],
        '--ledger -p=…: a participant name is 1 to 63 lower case letters, digits, _ and -, starting with a letter or digit, e.g. participant1',
      ],
      [
        ['--ledger', 'p1=http://a:1', '--ledger', 'p1=http://b:1'],
        '--ledger p1=…: the name p1 is given twice',
      ],
      [
        ['--ledger', 'p1=http://a:1/', '--ledger', 'p2=http://a:1'],
        '--ledger p2=…: http://a:1 is already participant p1',
      ],
      [['--ledger', 'p1=ftp://a'], '--ledger p1=…: must be an http or https URL, got ftp://a'],
      [['--ledger', 'p1=http://u:pw@a:1'], '--ledger p1=…: must not contain credentials'],
      [
        ['--ledger', 'p1=http://a:1', '--ledger', 'http://b:1'],
        '--ledger: name every participant (--ledger NAME=URL) or give a single bare --ledger URL, not both; http://b:1 has no name',
      ],
      [
        ['--ledger', 'http://a:1', '--ledger', 'http://b:1'],
        '--ledger URL can be given once; for several participants name each: --ledger participant1=URL --ledger participant2=URL',
      ],
      [
        ['--participants', '2', '--ledger', 'p1=http://a:1'],
        '--participants starts an embedded sandbox fleet and --ledger addresses running participants: give one or the other',
      ],
      [
        ['--participants', '2', '--auth', 'oidc'],
        '--auth oidc serves one participant: with --participants above 1 use --auth none or --auth jwt (or --participants 1 for --auth oidc)',
      ],
      [
        ['--ledger', 'p1=http://a:1', '--seed', 'none'],
        '--seed applies only to the embedded sandbox, not to --ledger',
      ],
    ];
    for (const [argv, message] of refusals) {
      expect(parseServerArgs(argv), argv.join(' ')).toEqual({ kind: 'error', message });
    }
    const many = Array.from({ length: 33 }, (_unused, index) => [
      '--ledger',
      `p${String(index)}=http://h${String(index)}:1`,
    ]).flat();
    expect(parseServerArgs(many)).toEqual({
      kind: 'error',
      message: '--ledger: at most 32 participants, got 33',
    });
  });
});
