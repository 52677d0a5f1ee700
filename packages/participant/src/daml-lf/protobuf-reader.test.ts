import { describe, expect, it } from 'vitest';
import { ProtobufError, ProtobufReader, WireType } from './protobuf-reader';
import { ProtobufWriter } from './protobuf-writer';

/** Reads every field of `bytes` with `read` and returns [field, value] pairs. */
function readAll<T>(bytes: Uint8Array, read: (reader: ProtobufReader) => T): [number, T][] {
  const reader = new ProtobufReader(bytes);
  const out: [number, T][] = [];
  while (reader.next()) out.push([reader.field, read(reader)]);
  return out;
}

describe('ProtobufReader', () => {
  it('reads the canonical example from the encoding guide (field 1 = 150)', () => {
    const reader = new ProtobufReader(Uint8Array.from([0x08, 0x96, 0x01]));
    expect(reader.next()).toBe(true);
    expect([reader.field, reader.wireType]).toEqual([1, WireType.VARINT]);
    expect(reader.int32()).toBe(150);
    expect(reader.next()).toBe(false);
  });

  it('reads 32-bit varints at the edges, including negative int32 as 10 bytes', () => {
    const values = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31 - 1, -1, -(2 ** 31)];
    const writer = new ProtobufWriter();
    for (const value of values) writer.varint(1, value);
    expect(readAll(writer.finish(), (r) => r.int32()).map(([, v]) => v)).toEqual(values);
    // -1 really is 10 bytes on the wire (tag + 10).
    expect(new ProtobufWriter().varint(1, -1).finish()).toHaveLength(11);
  });

  it('reads uint32 above 2^31 without going negative', () => {
    const bytes = new ProtobufWriter().varint(1, 0xffff_ffff).finish();
    expect(readAll(bytes, (r) => r.uint32())).toEqual([[1, 0xffff_ffff]]);
  });

  it('reads 64-bit varints as bigints across the 32-bit boundary', () => {
    const values = [0n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 35n + 5n, 2n ** 53n + 1n, 2n ** 64n - 1n];
    const writer = new ProtobufWriter();
    for (const value of values) writer.varint(2, value);
    expect(readAll(writer.finish(), (r) => r.uint64()).map(([, v]) => v)).toEqual(values);
  });

  it('reads int64 as two’s complement and sint64/sint32 as zigzag', () => {
    const signed = [0n, -1n, 1n, -(2n ** 63n), 2n ** 63n - 1n];
    const int64 = new ProtobufWriter();
    const sint64 = new ProtobufWriter();
    for (const value of signed) {
      int64.varint(1, value);
      sint64.zigzag(1, value);
    }
    expect(readAll(int64.finish(), (r) => r.int64()).map(([, v]) => v)).toEqual(signed);
    expect(readAll(sint64.finish(), (r) => r.sint64()).map(([, v]) => v)).toEqual(signed);

    const small = [0, -1, 1, -64, 63, 2 ** 31 - 1, -(2 ** 31)];
    const sint32 = new ProtobufWriter();
    for (const value of small) sint32.zigzag(1, value);
    expect(readAll(sint32.finish(), (r) => r.sint32()).map(([, v]) => v)).toEqual(small);
    // Zigzag keeps small negatives short: -1 is a single byte.
    expect(new ProtobufWriter().zigzag(1, -1).finish()).toEqual(Uint8Array.from([0x08, 0x01]));
  });

  it('reads fixed-width fields little-endian', () => {
    const bytes = new ProtobufWriter()
      .fixed32(1, 0xdead_beef)
      .fixed64(2, 0x0102_0304_0506_0708n)
      .fixed64(3, -2n)
      .finish();
    const reader = new ProtobufReader(bytes);
    reader.next();
    expect(reader.fixed32()).toBe(0xdead_beef);
    reader.next();
    expect(reader.fixed64()).toBe(0x0102_0304_0506_0708n);
    reader.next();
    expect(reader.sfixed64()).toBe(-2n);
  });

  it('reads float, double, sfixed32 and bool', () => {
    const f = new Uint8Array(4);
    new DataView(f.buffer).setFloat32(0, 1.5, true);
    const d = new Uint8Array(8);
    new DataView(d.buffer).setFloat64(0, -0.1, true);
    const bytes = new ProtobufWriter()
      .tag(1, WireType.I32)
      .raw(f)
      .tag(2, WireType.I64)
      .raw(d)
      .fixed32(3, -7)
      .bool(4, true)
      .bool(5, false)
      .finish();
    const reader = new ProtobufReader(bytes);
    reader.next();
    expect(reader.float()).toBe(1.5);
    reader.next();
    expect(reader.double()).toBe(-0.1);
    reader.next();
    expect(reader.sfixed32()).toBe(-7);
    reader.next();
    expect(reader.bool()).toBe(true);
    reader.next();
    expect(reader.bool()).toBe(false);
  });

  it('reads strings (ASCII and multi-byte UTF-8) and bytes without copying', () => {
    const long = 'x'.repeat(200);
    const bytes = new ProtobufWriter()
      .string(1, 'Ping')
      .string(2, 'Grüße, 世界 🎉')
      .string(3, long)
      .string(4, '')
      .bytes(5, Uint8Array.from([1, 2, 3]))
      .finish();
    const reader = new ProtobufReader(bytes);
    const seen: unknown[] = [];
    while (reader.next()) seen.push(reader.field === 5 ? reader.bytes() : reader.string());
    expect(seen).toEqual(['Ping', 'Grüße, 世界 🎉', long, '', Uint8Array.from([1, 2, 3])]);
    // `bytes()` is a view over the original buffer.
    const view = seen[4] as Uint8Array;
    expect(view.buffer).toBe(bytes.buffer);
  });

  it('reads nested messages through sub-readers bounded to the field', () => {
    const bytes = new ProtobufWriter()
      .message(1, (inner) => inner.string(1, 'inner').varint(2, 7))
      .varint(2, 99)
      .finish();
    const reader = new ProtobufReader(bytes);
    reader.next();
    const inner = reader.message();
    inner.next();
    expect(inner.string()).toBe('inner');
    inner.next();
    expect(inner.int32()).toBe(7);
    expect(inner.next()).toBe(false);
    reader.next();
    expect([reader.field, reader.int32()]).toEqual([2, 99]);
  });

  it('reads repeated int32 both packed and unpacked', () => {
    const bytes = new ProtobufWriter().packed(2, [1, 300, -1]).varint(2, 4).packed(2, []).finish();
    const values: number[] = [];
    const reader = new ProtobufReader(bytes);
    while (reader.next()) reader.repeatedInt32(values);
    expect(values).toEqual([1, 300, -1, 4]);
  });

  it('skips unknown fields of every wire type, groups included', () => {
    const bytes = new ProtobufWriter()
      .varint(10, 2n ** 60n)
      .fixed64(11, 1n)
      .string(12, 'skip me')
      .fixed32(13, 1)
      // group 14 { field 1 = 5; group 15 { field 2 = "x" } }
      .tag(14, WireType.SGROUP)
      .varint(1, 5)
      .tag(15, WireType.SGROUP)
      .string(2, 'x')
      .tag(15, WireType.EGROUP)
      .tag(14, WireType.EGROUP)
      .varint(1, 42)
      .finish();
    const reader = new ProtobufReader(bytes);
    let found: number | undefined;
    while (reader.next()) {
      if (reader.field === 1) found = reader.int32();
      else reader.skip();
    }
    expect(found).toBe(42);
  });

  it('reads a field number at the top of the range', () => {
    const max = 2 ** 29 - 1;
    const reader = new ProtobufReader(new ProtobufWriter().varint(max, 1).finish());
    reader.next();
    expect(reader.field).toBe(max);
  });

  it('honours a start..end window into a larger buffer', () => {
    const inner = new ProtobufWriter().varint(1, 5).finish();
    const padded = Uint8Array.from([0xff, ...inner, 0xff]);
    const reader = new ProtobufReader(padded, 1, 1 + inner.length);
    reader.next();
    expect(reader.int32()).toBe(5);
    expect(reader.next()).toBe(false);
    expect(() => new ProtobufReader(padded, 2, 99)).toThrow(RangeError);
  });

  describe('rejects malformed input with a ProtobufError', () => {
    const cases: [string, number[], (r: ProtobufReader) => unknown][] = [
      ['a truncated varint', [0x08, 0x96], (r) => r.int32()],
      [
        'a varint longer than 10 bytes',
        [0x08, ...Array<number>(10).fill(0xff), 0x01],
        (r) => r.int32(),
      ],
      ['a length past the end', [0x0a, 0x05, 0x61], (r) => r.string()],
      ['a huge length', [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f], (r) => r.bytes()],
      ['a truncated fixed64', [0x09, 1, 2, 3], (r) => r.fixed64()],
      [
        'a truncated fixed32',
        [0x0d, 1],
        (r) => {
          r.skip();
        },
      ],
      ['invalid UTF-8', [0x0a, 0x02, 0xc3, 0x28], (r) => r.string()],
      ['a wire-type mismatch (varint read as string)', [0x08, 0x01], (r) => r.string()],
      ['a wire-type mismatch (string read as int32)', [0x0a, 0x00], (r) => r.int32()],
      [
        'an unterminated group',
        [0x0b, 0x08, 0x01],
        (r) => {
          r.skip();
        },
      ],
      [
        'a mismatched end-group',
        [0x0b, 0x14],
        (r) => {
          r.skip();
        },
      ],
      [
        'a packed varint running past its field',
        [0x12, 0x01, 0x80, 0x01],
        (r) => {
          r.repeatedInt32([]);
        },
      ],
    ];
    it.each(cases)('%s', (_name, bytes, read) => {
      const reader = new ProtobufReader(Uint8Array.from(bytes));
      expect(() => {
        reader.next();
        read(reader);
      }).toThrow(ProtobufError);
    });

    it.each([
      ['field number 0', [0x00, 0x01]],
      ['wire type 6', [0x0e]],
      ['wire type 7', [0x0f]],
      ['a stray end-group tag', [0x0c]],
    ])('%s', (_name, bytes) => {
      expect(() => new ProtobufReader(Uint8Array.from(bytes)).next()).toThrow(ProtobufError);
    });

    it('reports where the problem is', () => {
      const reader = new ProtobufReader(Uint8Array.from([0x08, 0x01, 0x0a, 0x09]));
      reader.next();
      reader.int32();
      reader.next();
      expect(() => reader.bytes()).toThrow(/overruns the message \(at byte 3\)/);
    });
  });
});
