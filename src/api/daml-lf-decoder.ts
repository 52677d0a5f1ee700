/**
 * The page's side of Daml-LF decoding: requests go to one Web Worker (daml-lf-worker.ts), spawned
 * on first use, and answers are matched to requests by id. Input buffers are transferred, not
 * copied, so the caller must not use them afterwards.
 */
import type { LfVersion } from '@daml-lf/package-model';
import type {
  DarContents,
  DecodeFailure,
  DecodeRequest,
  DecodeResponse,
  PackageContents,
} from './daml-lf-worker';

export { formatType } from '@daml-lf/format-type';
export { findDataType, recordFieldsOf } from '@daml-lf/find-data-type';
export type {
  Choice,
  DamlType,
  DataType,
  Field,
  Interface,
  LfVersion,
  Module,
  Template,
  TypeConName,
} from '@daml-lf/package-model';
export type { DarContents, DarPackageHeader, PackageContents } from './daml-lf-worker';

/**
 * `2.1`, `2.dev`: as decode-package's `formatLfVersion`, which is not re-exported so that the page's
 * chunks do not carry the decoder.
 */
export function formatLfVersion({ major, minor }: LfVersion): string {
  return `${String(major)}.${minor}`;
}

/** Why the browser could not decode a DAR or a package (the decoder's `DarError`, or a bug). */
export class DamlLfDecodeError extends Error {
  override readonly name = 'DamlLfDecodeError';
  readonly reason: DecodeFailure['reason'];
  readonly details: DecodeFailure['details'];

  constructor({ reason, message, details }: DecodeFailure) {
    super(message);
    this.reason = reason;
    this.details = details;
  }

  /** A heading for what went wrong, for people who do not know the decoder's reasons. */
  get title(): string {
    return DECODE_ERROR_TITLES[this.reason];
  }
}

const DECODE_ERROR_TITLES: Record<DecodeFailure['reason'], string> = {
  NOT_A_ZIP: 'Not a DAR file',
  INVALID_ZIP_ENTRY: 'A file in the DAR is missing or too large',
  NO_DALF: 'The DAR contains no Daml-LF package',
  NO_MANIFEST: 'The DAR has no manifest',
  INVALID_MANIFEST: 'The DAR’s manifest is invalid',
  CORRUPT_ARCHIVE: 'A package in the DAR is corrupt',
  HASH_MISMATCH: 'A package does not match its id',
  UNSUPPORTED_LF_VERSION: 'Unsupported Daml-LF version',
  VALIDATION_FAILED: 'A package is not valid Daml-LF',
  UNEXPECTED: 'The decoder failed',
};

type Pending = { resolve: (response: DecodeResponse) => void; reject: (error: unknown) => void };

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function spawnWorker(): Worker {
  const spawned = new Worker(new URL('./daml-lf-worker.ts', import.meta.url), { type: 'module' });
  spawned.addEventListener('message', (event: MessageEvent<DecodeResponse>) => {
    const waiting = pending.get(event.data.id);
    pending.delete(event.data.id);
    waiting?.resolve(event.data);
  });
  // The script failed to load or threw outside a request: fail what waits, start afresh next time.
  spawned.addEventListener('error', (event) => {
    event.preventDefault();
    const failure = new DamlLfDecodeError({
      reason: 'UNEXPECTED',
      message: event.message || 'The Daml-LF decoder stopped',
      details: {},
    });
    for (const waiting of pending.values()) waiting.reject(failure);
    pending.clear();
    spawned.terminate();
    if (worker === spawned) worker = undefined;
  });
  return spawned;
}

async function send(request: DecodeRequest, transfer: Transferable[]): Promise<DecodeResponse> {
  if (typeof Worker === 'undefined') {
    // No Web Workers here (jsdom in component tests): decode in this thread. Browsers always take
    // the worker path, which the Playwright journeys and the web benchmark exercise.
    const { runDecodeRequest } = await import('./daml-lf-worker');
    return runDecodeRequest(request);
  }
  worker ??= spawnWorker();
  const target = worker;
  return new Promise((resolve, reject) => {
    pending.set(request.id, { resolve, reject });
    target.postMessage(request, transfer);
  });
}

function failIfFailed(response: DecodeResponse): asserts response is DecodeResponse & { ok: true } {
  if (!response.ok) throw new DamlLfDecodeError(response.failure);
}

/**
 * Decodes a package's `ArchivePayload` (the body of `GET /v2/packages/{id}`). `payload` is
 * transferred to the worker.
 *
 * @throws DamlLfDecodeError when the payload is not a Daml-LF 2 package.
 */
export async function decodePackagePayload(
  payload: ArrayBuffer,
  packageId: string,
): Promise<PackageContents> {
  const response = await send({ id: nextId++, op: 'package', packageId, payload }, [payload]);
  failIfFailed(response);
  if (response.op !== 'package') throw new Error(`The decoder answered ${response.op}`);
  return response.contents;
}

/**
 * Reads a DAR file as a participant would on upload (manifest, every package, hashes), for a preview
 * of what it holds. `bytes` is transferred to the worker.
 *
 * @throws DamlLfDecodeError with the reason the DAR was rejected.
 */
export async function readDarContents(bytes: ArrayBuffer): Promise<DarContents> {
  const response = await send({ id: nextId++, op: 'dar', bytes }, [bytes]);
  failIfFailed(response);
  if (response.op !== 'dar') throw new Error(`The decoder answered ${response.op}`);
  return response.contents;
}
