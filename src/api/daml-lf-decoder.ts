/**
 * The page's side of Daml-LF decoding: requests go to one Web Worker (daml-lf-worker.ts), spawned
 * on first use, and answers are matched to requests by id. Input buffers are transferred, not
 * copied, so the caller must not use them afterwards.
 */
import { DescribedError } from '@/lib/errors/api-error';
import type { LfVersion } from '@ledger-console/participant/daml-lf/package-model';
import type {
  DarContents,
  DecodeFailure,
  DecodeRequest,
  DecodeResponse,
  PackageContents,
  PackageNameVersion,
} from './daml-lf-worker';

export { formatType } from '@ledger-console/participant/daml-lf/format-type';
export {
  findDataType,
  recordFieldsOf,
  substituteTypeVars,
} from '@ledger-console/participant/daml-lf/find-data-type';
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
} from '@ledger-console/participant/daml-lf/package-model';
export type {
  DarContents,
  DarPackageHeader,
  PackageContents,
  PackageNameVersion,
} from './daml-lf-worker';

/**
 * `2.1`, `2.dev`: as decode-package's `formatLfVersion`, which is not re-exported so that the page's
 * chunks do not carry the decoder.
 */
export function formatLfVersion({ major, minor }: LfVersion): string {
  return `${String(major)}.${minor}`;
}

/**
 * Why the browser could not decode a DAR or a package (the decoder's `DarError`, or a bug): a
 * warning, since the participant reads packages its own way and may accept what the browser cannot.
 */
export class DamlLfDecodeError extends DescribedError {
  override readonly name = 'DamlLfDecodeError';
  override readonly severity = 'warning';
  readonly reason: DecodeFailure['reason'];
  override readonly code: DecodeFailure['reason'];
  readonly details: DecodeFailure['details'];

  constructor({ reason, message, details }: DecodeFailure) {
    super(message);
    this.reason = reason;
    this.code = reason;
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

function unexpected(message: string): DamlLfDecodeError {
  return new DamlLfDecodeError({ reason: 'UNEXPECTED', message, details: {} });
}

/** Fails every request still waiting: used when an answer cannot be told apart from the others. */
function failAllPending(failure: DamlLfDecodeError): void {
  const waiting = [...pending.values()];
  pending.clear();
  for (const request of waiting) request.reject(failure);
}

function spawnWorker(): Worker {
  const spawned = new Worker(new URL('./daml-lf-worker.ts', import.meta.url), { type: 'module' });
  spawned.addEventListener('message', (event: MessageEvent<DecodeResponse>) => {
    const { id } = event.data;
    if (id === null) {
      // The worker could not read a request, and cannot say whose it was.
      if (!event.data.ok) failAllPending(new DamlLfDecodeError(event.data.failure));
      return;
    }
    const waiting = pending.get(id);
    pending.delete(id);
    waiting?.resolve(event.data);
  });
  // An answer this thread could not deserialize: whose it was is unknown, so fail all that wait
  // rather than leave one waiting forever. The worker itself is fine and stays.
  spawned.addEventListener('messageerror', () => {
    failAllPending(unexpected('An answer of the Daml-LF decoder could not be read'));
  });
  // The script failed to load or threw outside a request: fail what waits, start afresh next time.
  spawned.addEventListener('error', (event) => {
    event.preventDefault();
    failAllPending(unexpected(event.message || 'The Daml-LF decoder stopped'));
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
    try {
      target.postMessage(request, transfer);
    } catch (error) {
      // Nothing was sent (a detached buffer, say): nothing will answer.
      pending.delete(request.id);
      reject(error instanceof Error ? error : unexpected(String(error)));
    }
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
 * Reads only a package's name and version from its `ArchivePayload`, for lists: cheaper than
 * `decodePackagePayload`, and only these few strings cross from the worker. `payload` is
 * transferred to the worker.
 *
 * @throws DamlLfDecodeError when the payload is not a Daml-LF 2 package.
 */
export async function decodePackageNameVersion(
  payload: ArrayBuffer,
  packageId: string,
): Promise<PackageNameVersion> {
  const response = await send({ id: nextId++, op: 'summary', packageId, payload }, [payload]);
  failIfFailed(response);
  if (response.op !== 'summary') throw new Error(`The decoder answered ${response.op}`);
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
