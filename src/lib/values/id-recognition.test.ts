import { describe, expect, it } from 'vitest';
import { MAX_PACKAGE_NAME_MATCHES, MAX_SEARCH_LENGTH, recognizeId } from './id-recognition';

const HEX64 = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);
const NAMESPACE = `1220${HEX64}`;
const PACKAGE_ID = `b${HEX64.slice(1)}`;
// As the sandbox issues them (sandbox/src/ledger/transaction.ts) and Canton prints V1 ids.
const CONTRACT_ID_V1 = `00${HEX64}ca111220${HEX64}`;

const kinds = (input: string, packageNames?: readonly string[]) =>
  recognizeId(input, packageNames ? { packageNames } : {}).candidates;

describe('recognizeId', () => {
  it('reads a party id: a hint and a 1220 namespace', () => {
    expect(kinds(`alice::${NAMESPACE}`)).toEqual([{ kind: 'party', party: `alice::${NAMESPACE}` }]);
    expect(kinds(`Bank-of_Eng:land::${NAMESPACE}`)).toEqual([
      { kind: 'party', party: `Bank-of_Eng:land::${NAMESPACE}` },
    ]);
  });

  it('does not take a party id with a cut namespace, an empty hint or a bad character', () => {
    expect(kinds(`alice::1220ab`).map((c) => c.kind)).toEqual(['user']);
    expect(kinds(`::${NAMESPACE}`).map((c) => c.kind)).toEqual(['user']);
    expect(kinds(`al/ice::${NAMESPACE}`)).toEqual([]);
    expect(kinds(`${'h'.repeat(186)}::${NAMESPACE}`).map((c) => c.kind)).not.toContain('party');
  });

  it('reads an update id, in either case, as lower case', () => {
    expect(kinds(NAMESPACE)).toEqual([{ kind: 'update', updateId: NAMESPACE }]);
    expect(kinds(NAMESPACE.toUpperCase())).toEqual([{ kind: 'update', updateId: NAMESPACE }]);
  });

  it('reads a package id: 64 hex digits', () => {
    expect(kinds(PACKAGE_ID)).toEqual([{ kind: 'package', packageId: PACKAGE_ID }]);
    expect(kinds(PACKAGE_ID.slice(1)).map((c) => c.kind)).toEqual(['user']);
  });

  it('reads V1 and V2 contract ids, whole bytes only', () => {
    expect(kinds(CONTRACT_ID_V1)).toEqual([{ kind: 'contract', contractId: CONTRACT_ID_V1 }]);
    expect(kinds(`00${HEX64}`)).toEqual([{ kind: 'contract', contractId: `00${HEX64}` }]);
    const v2 = `01${'c'.repeat(24)}ca101220${HEX64}`;
    expect(kinds(v2)).toEqual([{ kind: 'contract', contractId: v2 }]);
    // An odd number of digits is no byte string (and too long for a user id).
    expect(kinds(`${CONTRACT_ID_V1}a`)).toEqual([]);
    // Too short to hold a discriminator.
    expect(kinds(`00${HEX64.slice(2)}`).map((c) => c.kind)).toEqual(['package']);
  });

  it('reads template and interface ids by package id or by package name', () => {
    expect(kinds(`${PACKAGE_ID.toUpperCase()}:Iou.Main:Iou`)).toEqual([
      {
        kind: 'template',
        templateId: `${PACKAGE_ID}:Iou.Main:Iou`,
        package: { kind: 'id', packageId: PACKAGE_ID },
        qualifiedName: 'Iou.Main:Iou',
      },
    ]);
    expect(kinds('#my-app:Main:Asset.Holding')).toEqual([
      {
        kind: 'template',
        templateId: '#my-app:Main:Asset.Holding',
        package: { kind: 'name', name: 'my-app' },
        qualifiedName: 'Main:Asset.Holding',
      },
    ]);
  });

  it('does not take a template id with a bad package, module or entity', () => {
    // `#` and `:` are allowed in user ids, so that is what it may still be.
    expect(kinds('#:Main:Iou').map((c) => c.kind)).toEqual(['user']);
    expect(kinds('#a b:Main:Iou')).toEqual([]);
    expect(kinds(`${PACKAGE_ID.slice(2)}:Main:Iou`).map((c) => c.kind)).toEqual(['user']);
    expect(kinds(`${PACKAGE_ID}:Main:`).map((c) => c.kind)).toEqual(['user']);
    expect(kinds(`${PACKAGE_ID}:1Main:Iou`).map((c) => c.kind)).toEqual(['user']);
    expect(kinds(`${PACKAGE_ID}:Main:Iou:Extra`).map((c) => c.kind)).toEqual(['user']);
  });

  it('offers a positive number as an offset and as a user id', () => {
    expect(kinds('42')).toEqual([
      { kind: 'offset', offset: 42 },
      { kind: 'user', userId: '42' },
    ]);
    expect(kinds('0042')).toEqual([
      { kind: 'offset', offset: 42 },
      { kind: 'user', userId: '0042' },
    ]);
    // Zero and numbers beyond what an offset can be read as are user ids only.
    expect(kinds('0')).toEqual([{ kind: 'user', userId: '0' }]);
    expect(kinds('9'.repeat(20))).toEqual([{ kind: 'user', userId: '9'.repeat(20) }]);
  });

  it('reads anything else the user id rules allow as a user id', () => {
    expect(kinds('alice@example.com')).toEqual([{ kind: 'user', userId: 'alice@example.com' }]);
    expect(kinds('x'.repeat(128)).map((c) => c.kind)).toEqual(['user']);
    expect(kinds('x'.repeat(129))).toEqual([]);
  });

  it('offers known package names: the whole name first, then names containing it', () => {
    const names = ['finance-app', 'finance', 'daml-prim', 'Finance-Tools', 'finance'];
    expect(kinds('finance', names)).toEqual([
      { kind: 'package-name', name: 'finance' },
      { kind: 'package-name', name: 'finance-app' },
      { kind: 'package-name', name: 'Finance-Tools' },
      { kind: 'user', userId: 'finance' },
    ]);
    expect(kinds('prim', names)).toEqual([
      { kind: 'package-name', name: 'daml-prim' },
      { kind: 'user', userId: 'prim' },
    ]);
    // One character matches only a whole name.
    expect(kinds('f', ['f', 'finance']).map((c) => c.kind)).toEqual(['package-name', 'user']);
    const many = Array.from({ length: 20 }, (_, index) => `lib-${String(index)}`);
    expect(kinds('lib', many).filter((c) => c.kind === 'package-name')).toHaveLength(
      MAX_PACKAGE_NAME_MATCHES,
    );
  });

  it('reads past surrounding whitespace and one pair of quotes', () => {
    expect(kinds(`  \n${NAMESPACE}\t `)).toEqual([{ kind: 'update', updateId: NAMESPACE }]);
    expect(kinds(`"${CONTRACT_ID_V1}"`)).toEqual([
      { kind: 'contract', contractId: CONTRACT_ID_V1 },
    ]);
    expect(kinds(`' alice::${NAMESPACE} '`)).toEqual([
      { kind: 'party', party: `alice::${NAMESPACE}` },
    ]);
    expect(recognizeId('  `42`  ').text).toBe('42');
    // Mismatched quotes are part of the text (and no id has them).
    expect(kinds(`"${NAMESPACE}'`)).toEqual([]);
  });

  it('finds nothing in empty input or garbage', () => {
    expect(recognizeId('   ')).toEqual({ text: '', candidates: [], isTooLong: false });
    expect(kinds('hello world')).toEqual([]);
    expect(kinds('<script>alert(1)</script>')).toEqual([]);
    expect(kinds('../../etc/passwd')).toEqual([]);
    expect(kinds('ünïcödé')).toEqual([]);
  });

  it('does not read input longer than any id', () => {
    const long = recognizeId('1'.repeat(MAX_SEARCH_LENGTH + 1));
    expect(long).toEqual({ text: '', candidates: [], isTooLong: true });
    // Refused by its length before it is read: trimmed first, the id at its end would be found.
    expect(recognizeId(`${' '.repeat(5_000_000)}${NAMESPACE}`)).toEqual({
      text: '',
      candidates: [],
      isTooLong: true,
    });
    // Whitespace around an id does not count against it.
    const padded = `${' '.repeat(MAX_SEARCH_LENGTH)}${NAMESPACE}`;
    expect(recognizeId(padded).candidates).toEqual([{ kind: 'update', updateId: NAMESPACE }]);
  });
});
