import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cantonConsoleCall, scalaString, shellQuote, toCurl } from './copy-as';

describe('toCurl', () => {
  it('writes a JSON request with a token placeholder, never a token', () => {
    const curl = toCurl(
      { method: 'POST', path: '/v2/users', body: { user: { id: "o'brien" } } },
      'http://127.0.0.1:4173',
    );
    expect(curl).toContain(`curl -sS -X POST 'http://127.0.0.1:4173/v2/users'`);
    expect(curl).toContain('Authorization: Bearer $TOKEN');
    expect(curl).toContain("-H 'Content-Type: application/json'");
  });

  it('quotes bodies so that the shell passes them through byte for byte', () => {
    const body = { text: `it's $HOME \`id\` "quoted" \\ \n end` };
    const quoted = shellQuote(JSON.stringify(body));
    // The shell itself is the judge: echo the quoted word back.
    const echoed = execFileSync('sh', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' });
    expect(JSON.parse(echoed)).toEqual(body);
  });

  it('sends a file body as --data-binary from the named file', () => {
    const curl = toCurl(
      {
        method: 'POST',
        path: '/v2/packages',
        file: { name: 'model.dar', contentType: 'application/octet-stream' },
      },
      'http://localhost:4173',
    );
    expect(curl).toContain(`--data-binary '@model.dar'`);
    expect(curl).not.toContain('-d ');
  });
});

describe('Canton console text', () => {
  it('escapes quotes, backslashes and control characters in Scala strings', () => {
    expect(scalaString('a"b\\c\nd\u0001')).toBe('"a\\"b\\\\c\\nd\\u0001"');
  });

  it('names only the arguments given', () => {
    expect(
      cantonConsoleCall('ledger_api.users.delete', [
        ['id', scalaString('alice')],
        ['identityProviderId', undefined],
      ]),
    ).toBe('participant.ledger_api.users.delete(id = "alice")');
  });
});
