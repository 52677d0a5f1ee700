/**
 * A tiny protobuf wire-format writer, the mirror of `ProtobufReader`. The decoder never writes
 * protobuf: this exists so tests (and sandbox scenarios) can build archives and hand-crafted or
 * deliberately broken messages without a code generator.
 */

import { WireType } from './protobuf-reader';

const utf8 = new TextEncoder();

/**
 * What `rawVarint` writes for a value: a non-negative safe integer as it is (no BigInt needed),
 * anything else as its 64-bit two's complement.
 */
const varintOf = (value: number | bigint): number | bigint =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? value
    : BigInt.asUintN(64, BigInt(value));

export class ProtobufWriter {
  private readonly chunks: number[] = [];

  /** A varint field; negative numbers are written as 10-byte two's complement, like int32/int64. */
  varint(field: number, value: number | bigint): this {
    this.tag(field, WireType.VARINT);
    this.rawVarint(varintOf(value));
    return this;
  }

  /** A zigzag-encoded `sint32`/`sint64` field. */
  zigzag(field: number, value: number | bigint): this {
    const n = BigInt(value);
    this.tag(field, WireType.VARINT);
    this.rawVarint(BigInt.asUintN(64, (n << 1n) ^ (n >> 63n)));
    return this;
  }

  bool(field: number, value: boolean): this {
    return this.varint(field, value ? 1 : 0);
  }

  fixed32(field: number, value: number): this {
    this.tag(field, WireType.I32);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, value >>> 0, true);
    this.chunks.push(...bytes);
    return this;
  }

  fixed64(field: number, value: bigint): this {
    this.tag(field, WireType.I64);
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
    this.chunks.push(...bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WireType.LEN);
    this.rawVarint(value.length);
    for (const byte of value) this.chunks.push(byte);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  /** An embedded message built by `build`. */
  message(field: number, build: (writer: ProtobufWriter) => void): this {
    const inner = new ProtobufWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  /** A packed `repeated int32`. */
  packed(field: number, values: readonly number[]): this {
    const inner = new ProtobufWriter();
    for (const value of values) {
      inner.rawVarint(varintOf(value));
    }
    return this.bytes(field, inner.finish());
  }

  /** A tag with an arbitrary wire type, for malformed-input tests. */
  tag(field: number, wireType: number): this {
    // Arithmetic, not `field << 3`, which overflows int32 for field numbers above 2^28.
    this.rawVarint(varintOf(field * 8 + wireType));
    return this;
  }

  /** Bytes appended verbatim, for malformed-input tests. */
  raw(bytes: readonly number[] | Uint8Array): this {
    for (const byte of bytes) this.chunks.push(byte);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }

  private rawVarint(value: bigint | number): void {
    if (typeof value === 'number') {
      // Most values are small: plain arithmetic spares the BigInt operations per byte.
      let n = value;
      while (n >= 0x80) {
        this.chunks.push((n % 0x80) | 0x80);
        n = Math.floor(n / 0x80);
      }
      this.chunks.push(n);
      return;
    }
    let n = value;
    while (n >= 0x80n) {
      this.chunks.push(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.chunks.push(Number(n));
  }
}
