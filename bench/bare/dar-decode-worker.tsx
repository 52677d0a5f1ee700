/**
 * The worker of dar-decode.html. Ours is what the console's decoder worker runs: `readDar` for a
 * chosen DAR (unzip, hash every archive, decode every package) and `decodeArchivePayload` for a
 * package page (`GET /v2/packages/{id}`). The limit is the least any client must do to read the
 * same bytes as protobuf with no schema (the repository carries no generated Daml-LF classes):
 * inflate the zip's entries (fflate, as ours) and walk every field of every archive and payload
 * with @protobuf-ts's BinaryReader, recursing into each length-delimited field that parses as a
 * message, as `protoc --decode_raw` does. Alternately in this one thread, after one warm-up each.
 */
import { BinaryReader, WireType } from '@protobuf-ts/runtime';
import { unzipSync } from 'fflate';
import { decodeArchivePayload } from '@ledger-console/participant/daml-lf/decode-package';
import { readDar } from '@ledger-console/participant/daml-lf/read-dar';

export type DarDecodeRequest = {
  dar: ArrayBuffer;
  payload: ArrayBuffer;
  packageId: string;
  runs: number;
};
export type Series = { ours: number[]; limit: number[] };
export type DarDecodeTimes = { dar: Series; payload: Series; fields: number };

/** Groups (wire types 3 and 4) are long gone from protobuf; decode_raw gives up on them too. */
const START_GROUP = 3;
const END_GROUP = 4;

/** Every field of `bytes` as a message, recursing like decode_raw; false when it is not one. */
function walk(bytes: Uint8Array, depth: number, count: { fields: number }): boolean {
  const reader = new BinaryReader(bytes);
  try {
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field <= 0) return false;
      count.fields += 1;
      if (wireType === WireType.LengthDelimited) {
        const inner = reader.bytes();
        // A nested message, or else a string or bytes: either way its bytes were read.
        if (depth < 100 && inner.length > 0) walk(inner, depth + 1, count);
      } else if ((wireType as number) === START_GROUP || (wireType as number) === END_GROUP) {
        return false;
      } else {
        reader.skip(wireType);
      }
    }
    return reader.pos === reader.len;
  } catch {
    return false;
  }
}

function bareDar(dar: Uint8Array, count: { fields: number }): void {
  const entries = unzipSync(dar);
  for (const [name, bytes] of Object.entries(entries)) {
    if (name.endsWith('.dalf')) walk(bytes, 0, count);
  }
}

async function series(runs: number, ours: () => unknown, limit: () => void): Promise<Series> {
  const result: Series = { ours: [], limit: [] };
  for (let run = 0; run <= runs; run++) {
    let start = performance.now();
    await ours();
    const oursMs = performance.now() - start;
    start = performance.now();
    limit();
    const limitMs = performance.now() - start;
    if (run === 0) continue;
    result.ours.push(oursMs);
    result.limit.push(limitMs);
  }
  return result;
}

addEventListener('message', (event: MessageEvent<DarDecodeRequest>) => {
  const { dar, payload, packageId, runs } = event.data;
  const darBytes = new Uint8Array(dar);
  const payloadBytes = new Uint8Array(payload);
  const count = { fields: 0 };
  void (async () => {
    const darSeries = await series(
      runs,
      () => readDar(darBytes),
      () => {
        bareDar(darBytes, count);
      },
    );
    const payloadSeries = await series(
      runs,
      () => decodeArchivePayload(payloadBytes, packageId),
      () => {
        walk(payloadBytes, 0, count);
      },
    );
    postMessage({ dar: darSeries, payload: payloadSeries, fields: count.fields });
  })();
});
