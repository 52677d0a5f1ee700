import { deflateRawSync, constants } from 'node:zlib';

/** One entry of a hand-built zip: its bytes as stored, and the size its headers declare. */
export type RawZipEntry = {
  name: string;
  /** The stored bytes: deflated when `method` is 8. */
  data: Uint8Array;
  method: 0 | 8;
  /** The uncompressed size the headers declare, true or not. */
  declaredSize: number;
};

/**
 * A raw deflate stream of `mebibytes` MiB of zeros, about 1 KiB per MiB: one MiB deflated with a
 * sync flush (so it ends byte-aligned and not final) repeated, then a final empty block. Built
 * without ever holding the inflated bytes.
 */
export function deflatedZeros(mebibytes: number): Uint8Array {
  const chunk = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_SYNC_FLUSH });
  const out = new Uint8Array(chunk.length * mebibytes + 2);
  for (let i = 0; i < mebibytes; i++) out.set(chunk, i * chunk.length);
  // BFINAL=1, fixed Huffman, end-of-block: the stream's last block, empty.
  out.set([0x03, 0x00], chunk.length * mebibytes);
  return out;
}

/**
 * A zip written field by field, so tests can make it lie (declared sizes) or be huge in entry
 * count (a zip64 end record when there are more than 65,535). CRCs are left 0: DAR readers do
 * not check them.
 */
export function rawZip(entries: readonly RawZipEntry[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x800, true);
    local.setUint16(8, entry.method, true);
    local.setUint32(18, entry.data.length, true);
    local.setUint32(22, Math.min(entry.declaredSize, 0xffffffff), true);
    local.setUint16(26, name.length, true);
    parts.push(new Uint8Array(local.buffer), name, entry.data);
    const header = new DataView(new ArrayBuffer(46));
    header.setUint32(0, 0x02014b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(6, 20, true);
    header.setUint16(8, 0x800, true);
    header.setUint16(10, entry.method, true);
    header.setUint32(20, entry.data.length, true);
    header.setUint32(24, Math.min(entry.declaredSize, 0xffffffff), true);
    header.setUint16(28, name.length, true);
    header.setUint32(42, offset, true);
    central.push(new Uint8Array(header.buffer), name);
    offset += 30 + name.length + entry.data.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const tail: Uint8Array[] = [];
  const zip64 = entries.length > 0xffff;
  if (zip64) {
    const record = new DataView(new ArrayBuffer(56 + 20));
    record.setUint32(0, 0x06064b50, true);
    record.setBigUint64(4, 44n, true);
    record.setUint16(12, 45, true);
    record.setUint16(14, 45, true);
    record.setBigUint64(24, BigInt(entries.length), true);
    record.setBigUint64(32, BigInt(entries.length), true);
    record.setBigUint64(40, BigInt(centralSize), true);
    record.setBigUint64(48, BigInt(offset), true);
    // The locator, pointing at the record just written.
    record.setUint32(56, 0x07064b50, true);
    record.setBigUint64(56 + 8, BigInt(offset + centralSize), true);
    record.setUint32(56 + 16, 1, true);
    tail.push(new Uint8Array(record.buffer));
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, zip64 ? 0xffff : entries.length, true);
  end.setUint16(10, zip64 ? 0xffff : entries.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  tail.push(new Uint8Array(end.buffer));
  const all = [...parts, ...central, ...tail];
  const out = new Uint8Array(all.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of all) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
