/**
 * A minimal reader for the protobuf binary wire format
 * (https://protobuf.dev/programming-guides/encoding/).
 *
 * We decode Daml-LF by hand instead of generating code from the .proto files: the decoder has to
 * run in a browser Web Worker as well as in the sandbox, we need a small fraction of the schema,
 * and a hand-written reader lets us skip whole sub-trees (expressions are most of a package)
 * without allocating anything for them. Pure TypeScript: no Node APIs, no dependencies.
 *
 * Usage: call `next()` to read each tag, switch on `field`, then call the reader that matches the
 * field's declared type, or `skip()` for fields you don't need. Every value reader checks the wire
 * type first, so a corrupt or mismatched message fails with a `ProtobufError` instead of yielding
 * nonsense.
 */

/** The six wire types of the encoding; 3 and 4 are the deprecated groups. */
export const WireType = {
  VARINT: 0,
  I64: 1,
  LEN: 2,
  SGROUP: 3,
  EGROUP: 4,
  I32: 5,
} as const;
export type WireType = (typeof WireType)[keyof typeof WireType];

const WIRE_TYPE_NAMES = ['VARINT', 'I64', 'LEN', 'SGROUP', 'EGROUP', 'I32'] as const;

/** Bytes that are not a well-formed protobuf message (or not the one we expected). */
export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
  constructor(
    message: string,
    /** Byte offset in the reader's buffer where the problem was found. */
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset})`);
  }
}

// `fatal`: proto3 `string` fields must be valid UTF-8; anything else means the bytes are corrupt.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Strings up to this length are decoded by hand when they are pure ASCII (most identifiers). */
const ASCII_FAST_PATH_MAX = 64;

export class ProtobufReader {
  /** Field number of the tag read by the last successful `next()`. */
  field = 0;
  /** Wire type of the tag read by the last successful `next()`. */
  wireType: WireType = WireType.VARINT;

  private pos: number;
  private view: DataView | undefined;

  constructor(
    readonly buffer: Uint8Array,
    start = 0,
    readonly end = buffer.length,
  ) {
    if (start < 0 || end > buffer.length || start > end) {
      throw new RangeError(`Invalid range ${start}..${end} of a ${buffer.length}-byte buffer`);
    }
    this.pos = start;
  }

  /** Current read position in `buffer`. */
  get offset(): number {
    return this.pos;
  }

  /**
   * Reads the next tag into `field` and `wireType`. Returns false once the message is exhausted.
   * End-group tags are rejected here: `skip()` consumes a group, including its end tag.
   */
  next(): boolean {
    if (this.pos >= this.end) return false;
    const at = this.pos;
    const tag = this.readVarint32();
    const field = tag >>> 3;
    const wireType = tag & 7;
    if (field === 0) throw new ProtobufError('Invalid field number 0', at);
    if (wireType > 5) throw new ProtobufError(`Invalid wire type ${wireType}`, at);
    if (wireType === WireType.EGROUP) throw new ProtobufError('Unexpected end-group tag', at);
    this.field = field;
    this.wireType = wireType as WireType;
    return true;
  }

  // ── varint scalars ─────────────────────────────────────────────────────────────────────────

  /** `uint32` (and enum values read as unsigned). */
  uint32(): number {
    this.expect(WireType.VARINT);
    return this.readVarint32();
  }

  /** `int32` and enums: negative values arrive as 10-byte varints; the low 32 bits carry them. */
  int32(): number {
    this.expect(WireType.VARINT);
    return this.readVarint32() | 0;
  }

  /** `sint32`: zigzag-encoded. */
  sint32(): number {
    this.expect(WireType.VARINT);
    const n = this.readVarint32();
    return (n >>> 1) ^ -(n & 1);
  }

  /** `uint64` as a bigint, because JS numbers lose precision above 2^53. */
  uint64(): bigint {
    this.expect(WireType.VARINT);
    return this.readVarint64();
  }

  /** `int64` as a bigint (two's complement). */
  int64(): bigint {
    this.expect(WireType.VARINT);
    return BigInt.asIntN(64, this.readVarint64());
  }

  /** `sint64`: zigzag-encoded, as a bigint. */
  sint64(): bigint {
    this.expect(WireType.VARINT);
    const n = this.readVarint64();
    return (n >> 1n) ^ -(n & 1n);
  }

  bool(): boolean {
    this.expect(WireType.VARINT);
    return this.readVarint32() !== 0;
  }

  // ── fixed-width scalars (little-endian) ────────────────────────────────────────────────────

  fixed32(): number {
    this.expect(WireType.I32);
    return this.dataView().getUint32(this.take(4), true);
  }

  sfixed32(): number {
    this.expect(WireType.I32);
    return this.dataView().getInt32(this.take(4), true);
  }

  float(): number {
    this.expect(WireType.I32);
    return this.dataView().getFloat32(this.take(4), true);
  }

  fixed64(): bigint {
    this.expect(WireType.I64);
    return this.dataView().getBigUint64(this.take(8), true);
  }

  sfixed64(): bigint {
    this.expect(WireType.I64);
    return this.dataView().getBigInt64(this.take(8), true);
  }

  double(): number {
    this.expect(WireType.I64);
    return this.dataView().getFloat64(this.take(8), true);
  }

  // ── length-delimited ───────────────────────────────────────────────────────────────────────

  /** `bytes`: a view into the same buffer (no copy), valid as long as the buffer is. */
  bytes(): Uint8Array {
    const [start, end] = this.lengthDelimited();
    return this.buffer.subarray(start, end);
  }

  string(): string {
    const [start, end] = this.lengthDelimited();
    return decodeUtf8(this.buffer, start, end);
  }

  /** An embedded message: a reader over its bytes, sharing this reader's buffer. */
  message(): ProtobufReader {
    const [start, end] = this.lengthDelimited();
    return new ProtobufReader(this.buffer, start, end);
  }

  /**
   * One occurrence of a `repeated int32` field, appended to `into`. proto3 writes these packed
   * (one LEN record of varints), but parsers must also accept the unpacked form, one varint per
   * tag, so both are handled.
   */
  repeatedInt32(into: number[]): void {
    if (this.wireType === WireType.VARINT) {
      into.push(this.readVarint32() | 0);
      return;
    }
    const [start, end] = this.lengthDelimited();
    const saved = this.pos;
    this.pos = start;
    while (this.pos < end) into.push(this.readVarint32() | 0);
    if (this.pos !== end) throw new ProtobufError('Packed varint overruns its field', end);
    this.pos = saved;
  }

  /** Skips the value of the current field, whatever its wire type (groups included). */
  skip(): void {
    this.skipValue(this.wireType, this.field);
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  private expect(wireType: WireType): void {
    if (this.wireType !== wireType) {
      throw new ProtobufError(
        `Field ${this.field} has wire type ${WIRE_TYPE_NAMES[this.wireType]}, expected ${WIRE_TYPE_NAMES[wireType]}`,
        this.pos,
      );
    }
  }

  /** Reads a length prefix and returns the [start, end) of the payload, moving past it. */
  private lengthDelimited(): [number, number] {
    this.expect(WireType.LEN);
    return this.readLength();
  }

  /** `lengthDelimited` without the wire-type check, for skipping fields inside groups. */
  private readLength(): [number, number] {
    const at = this.pos;
    const length = this.readVarint32();
    // A length with the top bit set would be negative as int32; treat it like any overrun.
    if (length > this.end - this.pos) {
      throw new ProtobufError(`Length ${length} overruns the message`, at);
    }
    const start = this.pos;
    this.pos += length;
    return [start, this.pos];
  }

  /** Reserves `count` bytes and returns their start offset. */
  private take(count: number): number {
    if (this.end - this.pos < count)
      throw new ProtobufError('Truncated fixed-width value', this.pos);
    const at = this.pos;
    this.pos += count;
    return at;
  }

  private dataView(): DataView {
    this.view ??= new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.byteLength);
    return this.view;
  }

  /**
   * Reads a varint of up to 10 bytes and returns its low 32 bits, unsigned. Higher bits are
   * dropped, which is exactly protobuf's rule for reading a 64-bit varint into a 32-bit field.
   */
  private readVarint32(): number {
    const buffer = this.buffer;
    let result = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('Truncated varint', this.pos);
      const byte = buffer[this.pos++] ?? 0;
      // Bytes 0..4 carry bits 0..34; JS shifts are mod 32, so later bytes must not be shifted in.
      if (i < 5) result |= (byte & 0x7f) << (7 * i);
      if (byte < 0x80) return result >>> 0;
    }
    throw new ProtobufError('Varint longer than 10 bytes', this.pos);
  }

  /** Reads a full 64-bit varint as an unsigned bigint, in two 32-bit halves to stay fast. */
  private readVarint64(): bigint {
    const buffer = this.buffer;
    let low = 0;
    let high = 0;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('Truncated varint', this.pos);
      const byte = buffer[this.pos++] ?? 0;
      const bits = byte & 0x7f;
      if (i < 4) {
        low |= bits << (7 * i);
      } else if (i === 4) {
        // Byte 4 straddles the halves: its low 4 bits are bits 28..31, the rest bits 32..34.
        low |= bits << 28;
        high |= bits >>> 4;
      } else {
        high |= bits << (7 * i - 32);
      }
      if (byte < 0x80) return (BigInt(high >>> 0) << 32n) | BigInt(low >>> 0);
    }
    throw new ProtobufError('Varint longer than 10 bytes', this.pos);
  }

  private skipValue(wireType: WireType, field: number): void {
    switch (wireType) {
      case WireType.VARINT:
        this.readVarint32();
        return;
      case WireType.I64:
        this.take(8);
        return;
      case WireType.LEN:
        this.readLength();
        return;
      case WireType.I32:
        this.take(4);
        return;
      case WireType.SGROUP:
        this.skipGroup(field);
        return;
      case WireType.EGROUP:
        throw new ProtobufError('Unexpected end-group tag', this.pos);
    }
  }

  /** Skips tags up to and including the end-group tag of `field` (nested groups recurse). */
  private skipGroup(field: number): void {
    for (;;) {
      if (this.pos >= this.end) throw new ProtobufError(`Unterminated group ${field}`, this.pos);
      const at = this.pos;
      const tag = this.readVarint32();
      const innerField = tag >>> 3;
      const wireType = tag & 7;
      if (innerField === 0 || wireType > 5) throw new ProtobufError('Invalid tag in group', at);
      if (wireType === WireType.EGROUP) {
        if (innerField !== field) throw new ProtobufError('Mismatched end-group tag', at);
        return;
      }
      this.skipValue(wireType as WireType, innerField);
    }
  }
}

/** Decodes UTF-8, with a fast path for the short ASCII strings that dominate Daml-LF tables. */
function decodeUtf8(buffer: Uint8Array, start: number, end: number): string {
  if (end - start <= ASCII_FAST_PATH_MAX) {
    let result = '';
    let i = start;
    for (; i < end; i++) {
      const byte = buffer[i] ?? 0;
      if (byte >= 0x80) break;
      result += String.fromCharCode(byte);
    }
    if (i === end) return result;
  }
  try {
    return utf8.decode(buffer.subarray(start, end));
  } catch {
    throw new ProtobufError('Invalid UTF-8 in a string field', start);
  }
}
