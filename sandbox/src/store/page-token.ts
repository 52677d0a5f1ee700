/**
 * Page tokens as the real participant makes them: URL-safe Base64 (with padding) of a protobuf
 * message whose field 1 is the last id of the previous page, e.g. `alice` → `CgVhbGljZQ==`
 * (ListUsersPageTokenPayload / ListPartiesPageTokenPayload, ledger-api-behaviour.md §2.6, §5.2).
 */
export function encodePageToken(lastId: string): string {
  const bytes = Buffer.from(lastId, 'utf8');
  return (
    Buffer.concat([Buffer.from([0x0a]), encodeVarint(bytes.length), bytes]).toString('base64url') +
    padding(bytes.length)
  );
}

function padding(length: number) {
  const total = 1 + encodeVarint(length).length + length;
  return '='.repeat((3 - (total % 3)) % 3);
}

function encodeVarint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    out.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  out.push(rest);
  return Buffer.from(out);
}

/** The id inside a page token, or undefined when the token is not one of ours. */
export function decodePageToken(token: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(token)) return undefined;
  const bytes = Buffer.from(token.replace(/=+$/, ''), 'base64url');
  if (bytes[0] !== 0x0a) return undefined;
  let length = 0;
  let shift = 0;
  let index = 1;
  for (;;) {
    const byte = bytes[index++];
    if (byte === undefined || shift > 28) return undefined;
    length |= (byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
    shift += 7;
  }
  if (index + length !== bytes.length) return undefined;
  const text = bytes.subarray(index).toString('utf8');
  return Buffer.byteLength(text, 'utf8') === length ? text : undefined;
}
