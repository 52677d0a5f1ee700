import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { STREAM_BATCH_PROTOCOL, splitStreamBatch } from '@ledger-console/edge/console-api';
import { createLedgerProxy } from './ledger-proxy';
import {
  MAX_STREAM_MESSAGE_BYTES,
  STREAM_BATCH_BYTES,
  StreamBatcher,
  StreamFrameError,
  encodeFrame,
  streamBatchOffer,
  utf16Length,
} from './stream-batching';

type Frame = { fin: boolean; opcode: number; payload: Buffer };

/** The frames in `bytes`, read as a client reads a server's (unmasked). */
function framesOf(bytes: Buffer): Frame[] {
  const frames: Frame[] = [];
  let at = 0;
  while (at < bytes.length) {
    const first = bytes[at] ?? 0;
    let length = (bytes[at + 1] ?? 0) & 0x7f;
    let head = 2;
    if (length === 126) {
      length = bytes.readUInt16BE(at + 2);
      head = 4;
    } else if (length === 127) {
      length = Number(bytes.readBigUInt64BE(at + 2));
      head = 10;
    }
    frames.push({
      fin: (first & 0x80) !== 0,
      opcode: first & 0x0f,
      payload: bytes.subarray(at + head, at + head + length),
    });
    at += head + length;
  }
  return frames;
}

/** A frame with FIN as given (encodeFrame always sets it). */
function fragment(fin: boolean, opcode: number, payload: string): Buffer {
  const frame = encodeFrame(opcode, Buffer.from(payload));
  frame[0] = (fin ? 0x80 : 0) | opcode;
  return frame;
}

/** Everything the batcher writes for `chunks`, written one by one, then the end. */
async function batched(chunks: readonly Buffer[]): Promise<Buffer> {
  const batcher = new StreamBatcher();
  const out: Buffer[] = [];
  batcher.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    batcher.on('end', resolve).on('error', reject);
  });
  for (const chunk of chunks) batcher.write(chunk);
  batcher.end();
  await ended;
  return Buffer.concat(out);
}

/** The messages of the text frames in order, each batch split; binary frames as `<binary N>`. */
function messagesOf(frames: readonly Frame[]): string[] {
  return frames.flatMap((frame) => {
    if (frame.opcode === 0x2) return [`<binary ${String(frame.payload.length)}>`];
    if (frame.opcode !== 0x1) return [];
    return splitStreamBatch(frame.payload.toString()) ?? ['<unsplittable>'];
  });
}

const text = (message: string) => encodeFrame(0x1, Buffer.from(message));

describe('streamBatchOffer', () => {
  it('finds the console’s offer and leaves the participant the others, untrimmed joins', () => {
    expect(streamBatchOffer(undefined)).toEqual({ isBatched: false, forwarded: undefined });
    expect(streamBatchOffer('jwt.token.abc, daml.ws.auth')).toEqual({
      isBatched: false,
      forwarded: 'jwt.token.abc, daml.ws.auth',
    });
    expect(streamBatchOffer(`jwt.token.abc, daml.ws.auth, ${STREAM_BATCH_PROTOCOL}`)).toEqual({
      isBatched: true,
      forwarded: 'jwt.token.abc,daml.ws.auth',
    });
    expect(streamBatchOffer(STREAM_BATCH_PROTOCOL)).toEqual({
      isBatched: true,
      forwarded: undefined,
    });
  });
});

describe('splitStreamBatch', () => {
  it('splits lengths counted in UTF-16 code units, separators and digits inside included', () => {
    expect(splitStreamBatch('')).toEqual([]);
    expect(splitStreamBatch('2:ab0:3:1:2')).toEqual(['ab', '', '1:2']);
    expect(splitStreamBatch('4:a😀b')).toEqual(['a😀b']);
  });

  it('refuses a frame that is not a batch', () => {
    for (const frame of ['{"a":1}', ':ab', '3:ab', '2ab', '2:ab3', '1234567890:x', '-1:a']) {
      expect(splitStreamBatch(frame), frame).toBeUndefined();
    }
  });
});

describe('utf16Length', () => {
  it('counts as a JavaScript string does', () => {
    for (const sample of ['', 'plain', 'été', '€', '😀', 'a😀é€z\u0000', 'ü'.repeat(1000)]) {
      expect(utf16Length(Buffer.from(sample)), sample).toBe(sample.length);
    }
  });
});

describe('StreamBatcher', () => {
  it('batches text messages whole and in order, however the bytes are cut', async () => {
    const messages = ['{"a":1}', '', 'é😀:9:', '{"b":"' + 'x'.repeat(70_000) + '"}', '{"c":3}'];
    const bytes = Buffer.concat(messages.map(text));
    // One chunk; a byte at a time through every head, the 64-bit length's included; and cuts.
    const bytewise = [...bytes.subarray(0, 400)].map((byte) => Buffer.from([byte]));
    const cuts: Buffer[][] = [[bytes], [...bytewise, bytes.subarray(400)]];
    for (let at = 1; at < 300; at += 7) cuts.push([bytes.subarray(0, at), bytes.subarray(at)]);
    for (const chunks of cuts) {
      const frames = framesOf(await batched(chunks));
      expect(messagesOf(frames)).toEqual(messages);
      expect(frames.every((frame) => frame.fin && frame.opcode === 0x1)).toBe(true);
    }
    const whole = framesOf(await batched([bytes]));
    expect(whole).toHaveLength(1);
  });

  it('sends a batch once it holds STREAM_BATCH_BYTES, and the rest after', async () => {
    const message = `{"x":"${'y'.repeat(10_000)}"}`;
    const count = Math.ceil((2.5 * STREAM_BATCH_BYTES) / message.length);
    const frames = framesOf(
      await batched([Buffer.concat(Array.from({ length: count }, () => text(message)))]),
    );
    expect(frames.length).toBe(3);
    expect(messagesOf(frames)).toHaveLength(count);
    for (const frame of frames.slice(0, -1)) {
      expect(frame.payload.length).toBeGreaterThanOrEqual(STREAM_BATCH_BYTES);
      expect(frame.payload.length).toBeLessThan(STREAM_BATCH_BYTES + message.length + 10);
    }
  });

  it('reassembles fragmented messages, with a ping between fragments kept after what came before', async () => {
    const frames = framesOf(
      await batched([
        text('{"first":1}'),
        fragment(false, 0x1, '{"sec'),
        encodeFrame(0x9, Buffer.from('ping')),
        fragment(false, 0x0, 'ond"'),
        fragment(true, 0x0, ':2}'),
        encodeFrame(0x8, Buffer.from([0x03, 0xe8])),
      ]),
    );
    expect(frames.map((frame) => frame.opcode)).toEqual([0x1, 0x9, 0x1, 0x8]);
    expect(messagesOf(frames)).toEqual(['{"first":1}', '{"second":2}']);
    expect(frames[1]?.payload.toString()).toBe('ping');
  });

  it('sends binary messages and text that is not UTF-8 alone, in their place', async () => {
    const invalid = Buffer.from([0x7b, 0xff, 0x7d]);
    const frames = framesOf(
      await batched([
        text('1'),
        encodeFrame(0x2, Buffer.from([1, 2, 3])),
        text('2'),
        encodeFrame(0x1, invalid),
        text('3'),
      ]),
    );
    expect(frames.map((frame) => frame.opcode)).toEqual([0x1, 0x2, 0x1, 0x1, 0x1]);
    expect(frames[3]?.payload).toEqual(invalid);
    expect(messagesOf([frames[0], frames[2], frames[4]] as Frame[])).toEqual(['1', '2', '3']);
  });

  it('fails frames that break the protocol', async () => {
    const masked = text('x');
    masked[1] = (masked[1] ?? 0) | 0x80;
    const reserved = text('x');
    reserved[0] = (reserved[0] ?? 0) | 0x40;
    const longPing = encodeFrame(0x9, Buffer.alloc(126));
    const fragmentedPing = fragment(false, 0x9, 'p');
    const huge = Buffer.from([0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0]);
    huge.writeBigUInt64BE(BigInt(MAX_STREAM_MESSAGE_BYTES + 1), 2);
    const cases: [string, Buffer[]][] = [
      ['masked', [masked]],
      ['reserved bits', [reserved]],
      ['long control frame', [longPing]],
      ['fragmented control frame', [fragmentedPing]],
      ['continuation without a start', [fragment(true, 0x0, 'x')]],
      ['message inside another', [fragment(false, 0x1, 'a'), text('b')]],
      ['unknown opcode', [encodeFrame(0x3, Buffer.from('x'))]],
      ['length over the bound', [huge]],
    ];
    for (const [name, chunks] of cases) {
      await expect(batched(chunks), name).rejects.toBeInstanceOf(StreamFrameError);
    }
  });
});

describe('the proxy’s batches (ADR 034)', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  /** A participant-like websocket server; each connection gets `serve`'s messages. */
  async function startProxied(serve: (socket: WebSocket, protocol: string) => void) {
    const offers: string[] = [];
    const upstream = http.createServer();
    const wss = new WebSocketServer({
      server: upstream,
      handleProtocols: (protocols) => (protocols.has('daml.ws.auth') ? 'daml.ws.auth' : false),
    });
    wss.on('connection', (socket, req) => {
      offers.push(req.headers['sec-websocket-protocol'] ?? '');
      serve(socket, socket.protocol);
    });
    closers.push(async () => {
      wss.close();
      await Promise.resolve();
    });
    return { url: await proxiedUrl(upstream), offers };
  }

  /** Starts `upstream` and the console's proxy in front of it; the proxy's stream URL. */
  async function proxiedUrl(upstream: http.Server): Promise<string> {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = createLedgerProxy(
      `http://127.0.0.1:${String((upstream.address() as AddressInfo).port)}`,
    );
    const front = http.createServer((req, res) => {
      proxy.handleRequest(req, res);
    });
    front.on('upgrade', (req: http.IncomingMessage, socket, head: Buffer) => {
      proxy.handleUpgrade(req, socket, head);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    closers.push(async () => {
      proxy.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
      await new Promise((resolve) => upstream.close(resolve));
    });
    return `ws://127.0.0.1:${String((front.address() as AddressInfo).port)}/v2/updates`;
  }

  /** Connects, collects every frame's data, and resolves with them and the close. */
  function listen(url: string, protocols: string[]) {
    const client = new WebSocket(url, protocols);
    const frames: string[] = [];
    const done = new Promise<{ code: number; reason: string; protocol: string }>((resolve) => {
      client.on('message', (data: Buffer) => frames.push(data.toString()));
      client.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString(), protocol: client.protocol });
      });
    });
    return { client, frames, done };
  }

  const elements = Array.from({ length: 500 }, (_, index) =>
    JSON.stringify({ update: { n: index, party: 'alice::1220ab', note: 'é' } }),
  );
  const sendAllThenClose = (socket: WebSocket) => {
    for (const element of elements) socket.send(element);
    socket.close(4000, 'done here');
  };

  it('gives a page that offers batches the participant’s messages in fewer frames, and its close', async () => {
    const { url, offers } = await startProxied(sendAllThenClose);
    const page = listen(url, ['jwt.token.abc', 'daml.ws.auth', STREAM_BATCH_PROTOCOL]);
    const closed = await page.done;
    expect(closed).toEqual({ code: 4000, reason: 'done here', protocol: STREAM_BATCH_PROTOCOL });
    expect(page.frames.flatMap((frame) => splitStreamBatch(frame) ?? ['<unsplittable>'])).toEqual(
      elements,
    );
    expect(page.frames.length).toBeLessThan(elements.length / 10);
    // The participant never saw the console's offer, and saw the token first.
    expect(offers).toEqual(['jwt.token.abc,daml.ws.auth']);
  });

  it('leaves other clients the participant’s frames as they are', async () => {
    const { url, offers } = await startProxied(sendAllThenClose);
    const plain = listen(url, ['jwt.token.abc', 'daml.ws.auth']);
    const closed = await plain.done;
    expect(closed).toEqual({ code: 4000, reason: 'done here', protocol: 'daml.ws.auth' });
    expect(plain.frames).toEqual(elements);
    expect(offers).toEqual(['jwt.token.abc,daml.ws.auth']);
  });

  it('delivers all a participant sent before it hung up to a page that reads slowly, batched or not', async () => {
    // A participant that sends 32 MiB, its close frame, and hangs up at once (no closing
    // handshake) while the page is not reading: everything must still reach the page.
    const big = Array.from({ length: 8192 }, (_, index) =>
      JSON.stringify({ n: index, pad: 'x'.repeat(4096) }),
    );
    const upstream = http.createServer();
    upstream.on('upgrade', (req: http.IncomingMessage, socket: Duplex) => {
      const accept = createHash('sha1')
        .update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
        .digest('base64');
      socket.write(
        'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: daml.ws.auth\r\n\r\n`,
      );
      socket.resume();
      for (const element of big) socket.write(encodeFrame(0x1, Buffer.from(element)));
      socket.end(encodeFrame(0x8, Buffer.from([0x03, 0xe8])));
    });
    const url = await proxiedUrl(upstream);
    for (const protocols of [['daml.ws.auth', STREAM_BATCH_PROTOCOL], ['daml.ws.auth']]) {
      const page = listen(url, protocols);
      await new Promise((resolve) => page.client.once('open', resolve));
      page.client.pause();
      await new Promise((resolve) => setTimeout(resolve, 500));
      page.client.resume();
      const closed = await page.done;
      const received =
        closed.protocol === STREAM_BATCH_PROTOCOL
          ? page.frames.flatMap((frame) => splitStreamBatch(frame) ?? [])
          : page.frames;
      expect(received.length, protocols.join()).toBe(big.length);
      expect(closed.code, protocols.join()).toBe(1000);
    }
  });

  it('relays the page’s own messages and the participant’s pings both ways', async () => {
    const pongs: string[] = [];
    const { url } = await startProxied((socket) => {
      socket.on('pong', (data: Buffer) => pongs.push(data.toString()));
      socket.on('message', (data: Buffer) => {
        socket.ping('are you there');
        socket.send(`echo ${data.toString()}`);
      });
    });
    const page = listen(url, ['daml.ws.auth', STREAM_BATCH_PROTOCOL]);
    await new Promise((resolve) => page.client.once('open', resolve));
    page.client.send('{"request":1}');
    for (let waited = 0; pongs.length === 0 || page.frames.length === 0; waited += 10) {
      if (waited > 5_000) throw new Error('No pong or echo within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(pongs).toEqual(['are you there']);
    expect(page.frames.map((frame) => splitStreamBatch(frame))).toEqual([['echo {"request":1}']]);
    page.client.close(1000);
    expect((await page.done).code).toBe(1000);
  });
});
