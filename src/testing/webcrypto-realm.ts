/**
 * jsdom's globals (`ArrayBuffer`, `Uint8Array`) are not Node's, while `crypto.subtle` is Node's
 * WebCrypto, which refuses buffers of another realm ("2nd argument is not instance of
 * ArrayBuffer"). A browser has one realm; so that code under test signs and imports keys as it
 * would there, the byte arguments are copied into Node's realm on the way in. Nothing else
 * changes: the real WebCrypto does the work.
 */
export function bridgeWebCryptoRealm(): void {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (!subtle) return;
  const toNodeBytes = (value: unknown): unknown => {
    const tag = Object.prototype.toString.call(value);
    if (tag === '[object ArrayBuffer]') return Buffer.from(new Uint8Array(value as ArrayBuffer));
    if (
      ArrayBuffer.isView(value) ||
      /^\[object (?:Uint|Int|Float|BigInt|BigUint)\w*Array\]$/.test(tag)
    ) {
      const view = value as ArrayBufferView;
      return Buffer.from(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
    }
    return value;
  };
  for (const method of ['importKey', 'sign', 'verify', 'digest', 'encrypt', 'decrypt'] as const) {
    const original = subtle[method].bind(subtle) as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(subtle, method, {
      configurable: true,
      value: (...args: unknown[]) => original(...args.map(toNodeBytes)),
    });
  }
}
