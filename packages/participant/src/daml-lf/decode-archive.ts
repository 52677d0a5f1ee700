/**
 * Decodes the `Archive` wrapper of a `.dalf` (daml_lf.proto): hash function, declared hash (the
 * package id) and payload, and checks the hash against the payload's SHA-256.
 *
 * Hashing goes through Web Crypto (`crypto.subtle`), so this module stays free of Node APIs. Node
 * always provides it; browsers (Web Workers included) only in secure contexts, that is over https
 * or on localhost. Where it is missing the hash is not checked, and `hashVerified` says so, with
 * `hashingUnavailableReason()` saying why: a console opened over plain http on another host can
 * still show what a DAR holds.
 */

import { DarError } from './dar-error';
import { readArchivePayload } from './decode-package';
import type { LfVersion } from './package-model';
import { ProtobufError, ProtobufReader } from './protobuf-reader';

/** `HashFunction` enum (daml_lf.proto): SHA256 is the only one there is. */
const SHA256 = 0;

export type DecodedArchive = {
  /** The package id: the hash the archive declares (lowercase hex SHA-256). */
  packageId: string;
  hashFunction: 'SHA256';
  /** SHA-256 of the payload bytes, lowercase hex; `''` when `hashVerified` is false. */
  computedHash: string;
  /**
   * Whether the declared hash is the payload's hash. Readers must reject archives where not.
   * False only for a mismatch that was seen: true, unchecked, when `hashVerified` is false.
   */
  hashMatches: boolean;
  /**
   * Whether the hash was checked at all: false where this runtime cannot hash (no Web Crypto
   * `subtle`; see `hashingUnavailableReason`). Never false in Node, so never in the sandbox.
   */
  hashVerified: boolean;
  /** From the `ArchivePayload`; major 1 for the legacy LF 1.x archives. */
  lfVersion: LfVersion;
  /**
   * The `ArchivePayload` bytes, exactly as hashed: what `GET /v2/packages/{id}` returns and what
   * `decodeArchivePayload` takes. A view into the input, not a copy.
   */
  payload: Uint8Array;
};

/**
 * Decodes an `Archive`. Does not throw on a hash mismatch or an LF 1.x payload: it reports them
 * (`hashMatches`, `lfVersion`) so that callers can decide, and can describe what they rejected.
 *
 * @throws DarError `CORRUPT_ARCHIVE` when the bytes are not an `Archive` with a payload and a hash.
 */
export async function decodeArchive(bytes: Uint8Array): Promise<DecodedArchive> {
  const { hashFunction, hash, payload } = readArchiveFields(bytes);
  if (hashFunction !== SHA256) {
    throw new DarError('CORRUPT_ARCHIVE', `Unsupported archive hash function ${hashFunction}`);
  }
  if (!hash) throw new DarError('CORRUPT_ARCHIVE', 'The archive declares no hash');
  const { lfVersion } = readArchivePayload(payload);
  if (hashingUnavailableReason() !== undefined) {
    return {
      packageId: hash,
      hashFunction: 'SHA256',
      computedHash: '',
      hashMatches: true,
      hashVerified: false,
      lfVersion,
      payload,
    };
  }
  const computedHash = await sha256Hex(payload);
  return {
    packageId: hash,
    hashFunction: 'SHA256',
    computedHash,
    hashMatches: computedHash === hash,
    hashVerified: true,
    lfVersion,
    payload,
  };
}

/** Why package ids go unverified here; as `hashingUnavailableReason` returns it. */
export const HASHING_UNAVAILABLE_REASON =
  'package ids not verified: the browser offers hashing only over https or on localhost';

/**
 * Why this runtime cannot check package ids, or `undefined` when it can. Browsers offer
 * `crypto.subtle` only in secure contexts (https, localhost); Node always does.
 */
export function hashingUnavailableReason(): string | undefined {
  // Typed as always present, which it is not outside secure contexts.
  const webCrypto = (globalThis as { crypto?: { subtle?: { digest?: unknown } } }).crypto;
  return typeof webCrypto?.subtle?.digest === 'function' ? undefined : HASHING_UNAVAILABLE_REASON;
}

function readArchiveFields(bytes: Uint8Array): {
  hashFunction: number;
  hash: string;
  payload: Uint8Array;
} {
  let hashFunction = SHA256;
  let hash = '';
  let payload: Uint8Array | undefined;
  try {
    const reader = new ProtobufReader(bytes);
    while (reader.next()) {
      switch (reader.field) {
        case 1: // HashFunction hash_function
          hashFunction = reader.int32();
          break;
        case 3: // bytes payload
          payload = reader.bytes();
          break;
        case 4: // string hash (field 2 was the deprecated bytes hash)
          hash = reader.string();
          break;
        default:
          reader.skip();
      }
    }
  } catch (error) {
    if (error instanceof ProtobufError) {
      throw new DarError(
        'CORRUPT_ARCHIVE',
        `Not a Daml-LF archive: ${error.message}`,
        {},
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  if (!payload) throw new DarError('CORRUPT_ARCHIVE', 'Not a Daml-LF archive: it has no payload');
  return { hashFunction, hash, payload };
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // `slice()` copies into a plain ArrayBuffer-backed array, which is what `BufferSource` accepts
  // (the input may be a view into a SharedArrayBuffer as far as the types know).
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice()));
  let hex = '';
  for (const byte of digest) hex += HEX[byte] ?? '';
  return hex;
}
