import { isAscii, isUtf8 } from 'node:buffer';
import { Transform, type TransformCallback } from 'node:stream';
import { STREAM_BATCH_PROTOCOL } from '@ledger-console/edge/console-api';

/**
 * The console server's side of stream batching (ADR 034): between a participant's websocket and a
 * page that offered {@link STREAM_BATCH_PROTOCOL}, the participant's frames are read and its text
 * messages re-sent to the page gathered into batches, each message untouched. Only this direction
 * is touched: what the page sends goes to the participant byte for byte (its frames are masked, as
 * the participant expects), and so do the page's answers to pings.
 */

/** A batch goes out once this many bytes are gathered, or when the bytes read so far are used up. */
export const STREAM_BATCH_BYTES = 256 * 1024;
/**
 * The largest message the console reassembles from the participant. A message is held whole
 * before it is sent on (a batch carries whole messages); a participant's stream element is the
 * JSON of one contract or update, far smaller. Larger fails the connection, as a client's
 * `maxPayload` would.
 */
export const MAX_STREAM_MESSAGE_BYTES = 64 * 1024 * 1024;

const OPCODE_CONTINUATION = 0x0;
const OPCODE_TEXT = 0x1;
const OPCODE_BINARY = 0x2;

/** The websocket protocol's own failures of the participant's frames (RFC 6455 §5). */
export class StreamFrameError extends Error {}

/**
 * What a page offered in `Sec-WebSocket-Protocol`: whether it asked for batches, and the header
 * the participant gets (the same offers without the console's own; undefined when none is left).
 */
export function streamBatchOffer(header: string | undefined): {
  isBatched: boolean;
  forwarded: string | undefined;
} {
  if (header === undefined) return { isBatched: false, forwarded: undefined };
  const offers = header.split(',');
  const others = offers.filter((offer) => offer.trim() !== STREAM_BATCH_PROTOCOL);
  if (others.length === offers.length) return { isBatched: false, forwarded: header };
  // Joined without spaces: the participant reads a `jwt.token.` offer untrimmed (§4.1).
  const forwarded = others.map((offer) => offer.trim()).join(',');
  return { isBatched: true, forwarded: forwarded === '' ? undefined : forwarded };
}

/** The participant's 101 answer as the page gets it: its subprotocol replaced by the console's. */
export function batchedUpgradeHeaders(rawHeaders: readonly string[]): string[] {
  const result: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? '';
    if (name.toLowerCase() !== 'sec-websocket-protocol') result.push(name, rawHeaders[i + 1] ?? '');
  }
  result.push('Sec-WebSocket-Protocol', STREAM_BATCH_PROTOCOL);
  return result;
}

/** A whole, unmasked server-to-client frame. */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const extra = length < 126 ? 0 : length < 65_536 ? 2 : 8;
  const head = Buffer.allocUnsafe(2 + extra);
  head[0] = 0x80 | opcode;
  if (extra === 0) {
    head[1] = length;
  } else if (extra === 2) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, payload]);
}

/** How many UTF-16 code units the (valid) UTF-8 `bytes` decode to. */
export function utf16Length(bytes: Buffer): number {
  if (isAscii(bytes)) return bytes.length;
  let units = 0;
  for (const byte of bytes) {
    // Each character starts with one non-continuation byte; four-byte ones are surrogate pairs.
    if ((byte & 0xc0) !== 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

/**
 * Reads the participant's frames and writes the page's: text messages batched, everything else
 * (binary messages, close, ping, pong) as a frame of its own after the batch gathered before it.
 * A batch goes out when {@link STREAM_BATCH_BYTES} are gathered or, via `setImmediate`, once the
 * bytes already read are used up, so a message waits for no timer. A frame that breaks the
 * protocol (masked, reserved bits, a control frame fragmented or over 125 bytes, an unexpected
 * continuation, a message over {@link MAX_STREAM_MESSAGE_BYTES}) fails the stream with a
 * {@link StreamFrameError}. Text that is not UTF-8 is sent on alone, for the page to refuse as it
 * would the participant's frame.
 */
export class StreamBatcher extends Transform {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The opcode and parts of a fragmented message being reassembled. */
  private fragmentsOf: number | undefined;
  private fragments: Buffer[] = [];
  private fragmentBytes = 0;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private flushScheduled: NodeJS.Immediate | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    try {
      this.readFrames();
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.sendBatch();
    done();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    if (this.flushScheduled !== undefined) clearImmediate(this.flushScheduled);
    done(error);
  }

  private readFrames(): void {
    for (;;) {
      if (this.buffered < 2) return;
      const head = this.peekHead(Math.min(this.buffered, 10));
      const first = head[0] ?? 0;
      const second = head[1] ?? 0;
      if (second & 0x80) throw new StreamFrameError('The participant sent a masked frame');
      if (first & 0x70) throw new StreamFrameError('The participant set reserved frame bits');
      const fin = (first & 0x80) !== 0;
      const opcode = first & 0x0f;
      let length = second & 0x7f;
      let headLength = 2;
      if (length === 126) {
        if (head.length < 4) return;
        length = head.readUInt16BE(2);
        headLength = 4;
      } else if (length === 127) {
        if (head.length < 10) return;
        const long = head.readBigUInt64BE(2);
        if (long > BigInt(MAX_STREAM_MESSAGE_BYTES)) this.tooLarge();
        length = Number(long);
        headLength = 10;
      }
      if (this.buffered < headLength + length) return;
      const frame = this.consume(headLength + length);
      this.onFrame(fin, opcode, frame, frame.subarray(headLength));
    }
  }

  private onFrame(fin: boolean, opcode: number, frame: Buffer, payload: Buffer): void {
    if (opcode >= 0x8) {
      if (!fin || payload.length > 125) {
        throw new StreamFrameError('The participant sent a fragmented or long control frame');
      }
      // Close, ping and pong keep their place after the messages before them.
      this.sendBatch();
      this.push(frame);
      return;
    }
    if (opcode === OPCODE_CONTINUATION) {
      if (this.fragmentsOf === undefined) {
        throw new StreamFrameError('The participant continued a message it had not begun');
      }
    } else if (opcode === OPCODE_TEXT || opcode === OPCODE_BINARY) {
      if (this.fragmentsOf !== undefined) {
        throw new StreamFrameError('The participant began a message inside another');
      }
      if (fin) {
        this.onMessage(opcode, payload);
        return;
      }
      this.fragmentsOf = opcode;
    } else {
      throw new StreamFrameError(`The participant sent an unknown opcode ${String(opcode)}`);
    }
    this.fragmentBytes += payload.length;
    if (this.fragmentBytes > MAX_STREAM_MESSAGE_BYTES) this.tooLarge();
    this.fragments.push(payload);
    if (!fin) return;
    const whole = Buffer.concat(this.fragments, this.fragmentBytes);
    const wholeOpcode = this.fragmentsOf;
    this.fragmentsOf = undefined;
    this.fragments = [];
    this.fragmentBytes = 0;
    this.onMessage(wholeOpcode, whole);
  }

  private onMessage(opcode: number, payload: Buffer): void {
    if (opcode !== OPCODE_TEXT || !isUtf8(payload)) {
      this.sendBatch();
      this.push(encodeFrame(opcode, payload));
      return;
    }
    const prefix = Buffer.from(`${String(utf16Length(payload))}:`, 'latin1');
    this.batch.push(prefix, payload);
    this.batchBytes += prefix.length + payload.length;
    if (this.batchBytes >= STREAM_BATCH_BYTES) {
      this.sendBatch();
      return;
    }
    this.flushScheduled ??= setImmediate(() => {
      this.flushScheduled = undefined;
      this.sendBatch();
    });
  }

  private sendBatch(): void {
    if (this.flushScheduled !== undefined) {
      clearImmediate(this.flushScheduled);
      this.flushScheduled = undefined;
    }
    if (this.batchBytes === 0 || this.destroyed) return;
    const payload = Buffer.concat(this.batch, this.batchBytes);
    this.batch = [];
    this.batchBytes = 0;
    this.push(encodeFrame(OPCODE_TEXT, payload));
  }

  private tooLarge(): never {
    throw new StreamFrameError(
      `The participant sent a message over ${String(MAX_STREAM_MESSAGE_BYTES)} bytes`,
    );
  }

  /** The first `length` buffered bytes (at most what is buffered), without consuming them. */
  private peekHead(length: number): Buffer {
    const first = this.chunks[0] ?? Buffer.alloc(0);
    if (first.length >= length) return first.subarray(0, length);
    // Only as many chunks as the head needs: a large message may sit in many of them.
    const parts: Buffer[] = [];
    let gathered = 0;
    for (const chunk of this.chunks) {
      if (gathered >= length) break;
      parts.push(chunk);
      gathered += chunk.length;
    }
    return Buffer.concat(parts, gathered).subarray(0, length);
  }

  /** Consumes the first `length` buffered bytes; copies only when they span chunks. */
  private consume(length: number): Buffer {
    this.buffered -= length;
    const first = this.chunks[0];
    if (first !== undefined && first.length >= length) {
      if (first.length === length) this.chunks.shift();
      else this.chunks[0] = first.subarray(length);
      return first.subarray(0, length);
    }
    const parts: Buffer[] = [];
    let needed = length;
    for (let chunk = this.chunks[0]; chunk !== undefined && needed > 0; chunk = this.chunks[0]) {
      if (chunk.length <= needed) {
        parts.push(chunk);
        this.chunks.shift();
        needed -= chunk.length;
      } else {
        parts.push(chunk.subarray(0, needed));
        this.chunks[0] = chunk.subarray(needed);
        needed = 0;
      }
    }
    return Buffer.concat(parts, length);
  }
}
