import { describe, expect, it } from 'vitest';
import { parseServerArgs } from './server-args';

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
    [['--auth', 'oauth'], '--auth must be none or jwt'],
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
      ['--ledger', 'http://host:7575', '--data-dir', 'x'],
      '--data-dir applies only to the embedded sandbox',
    ],
    [
      ['--ledger', 'http://host:7575', '--seed', 'none'],
      '--seed applies only to the embedded sandbox',
    ],
    [['--verbose'], "Unknown option '--verbose'"],
    [['extra'], 'extra'],
  ])('rejects %j', (argv, message) => {
    const parsed = parseServerArgs(argv);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' ? parsed.message : '').toContain(message);
  });

  it('asks for help', () => {
    expect(parseServerArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseServerArgs(['-h'])).toEqual({ kind: 'help' });
  });
});
