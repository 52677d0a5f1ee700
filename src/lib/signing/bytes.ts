/**
 * Byte encodings for keys, hashes and signatures. Strict on input: a key or signature with a
 * stray character is refused rather than silently decoded into other bytes.
 */

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** The bytes of `hex` (an optional `0x` prefix allowed), or null when it is not hex. */
export function fromHex(hex: string): Uint8Array | null {
  const digits = hex.startsWith('0x') || hex.startsWith('0X') ? hex.slice(2) : hex;
  if (!HEX.test(digits)) return null;
  const out = new Uint8Array(digits.length / 2);
  for (let i = 0; i < out.length; i += 1)
    out[i] = Number.parseInt(digits.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The bytes of standard or URL-safe base64 (padding optional), or null when it is not base64.
 */
export function fromBase64(text: string): Uint8Array | null {
  let normal = text.replace(/-/g, '+').replace(/_/g, '/');
  if (normal.length % 4 === 1) return null;
  while (normal.length % 4 !== 0) normal += '=';
  if (!BASE64.test(normal)) return null;
  const binary = atob(normal);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
  return out;
}

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** An `ArrayBuffer` copy of exactly these bytes, as WebCrypto's strict typings want. */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new ArrayBuffer(bytes.length);
  new Uint8Array(copy).set(bytes);
  return copy;
}
