/**
 * The Web Worker that decodes Daml-LF for the console (daml-lf-decoder.ts is its main-thread
 * client), so that unzipping, hashing and decoding a DAR never block the page. It runs the
 * sandbox's own decoder, and posts back a trimmed model: no interned tables and no payload bytes,
 * which the page does not need and would otherwise pay for when the message is deserialized.
 */
import {
  DarError,
  type DarErrorDetails,
  type DarErrorReason,
} from '@ledger-console/participant/daml-lf/dar-error';
import { hashingUnavailableReason } from '@ledger-console/participant/daml-lf/decode-archive';
import {
  decodeArchivePayload,
  packageSummary,
  toPackageSummary,
} from '@ledger-console/participant/daml-lf/decode-package';
import type {
  DecodedPackage,
  LfVersion,
  PackageSummary,
} from '@ledger-console/participant/daml-lf/package-model';
import { readDar } from '@ledger-console/participant/daml-lf/read-dar';

/** A decoded package as the page gets it: declarations with their types, no interned tables. */
export type PackageContents = Omit<DecodedPackage, 'internedStrings' | 'internedDottedNames'>;

/** Just what a list of packages shows: the name and version in the package's metadata. */
export type PackageNameVersion = { packageId: string; name: string; version: string };

/** One package of a DAR, for the upload preview. */
export type DarPackageHeader = {
  packageId: string;
  name: string;
  version: string;
  lfVersion: LfVersion;
  /** Zip path of its DALF. */
  dalfName: string;
};

/** What a DAR holds, as the upload page previews it before anything is sent. */
export type DarContents = {
  /** The manifest's `Name` and `Sdk-Version`, when present. */
  manifestName?: string;
  sdkVersion?: string;
  /** The main package: names of its modules, templates, interfaces and choices. */
  main: PackageSummary & { dalfName: string; upgradedPackageId?: string };
  /** All packages, main first. */
  packages: DarPackageHeader[];
  /**
   * Why the package ids were not checked against their archives' hashes, when they were not: a
   * browser offers hashing only in secure contexts (https, localhost).
   */
  unverifiedReason?: string;
};

export type DecodeRequest =
  | { id: number; op: 'package'; packageId: string; payload: ArrayBuffer }
  | { id: number; op: 'summary'; packageId: string; payload: ArrayBuffer }
  | { id: number; op: 'dar'; bytes: ArrayBuffer };

/** A decoder failure, as plain data: class instances do not survive `postMessage`. */
export type DecodeFailure = {
  reason: DarErrorReason | 'UNEXPECTED';
  message: string;
  details: DarErrorDetails;
};

export type DecodeResponse =
  | { id: number; ok: true; op: 'package'; contents: PackageContents }
  | { id: number; ok: true; op: 'summary'; contents: PackageNameVersion }
  | { id: number; ok: true; op: 'dar'; contents: DarContents }
  /** `id` null: the worker received a request it could not read, and cannot tell whose it was. */
  | { id: number | null; ok: false; failure: DecodeFailure };

/** Runs one request. Exported for the main-thread fallback where there is no `Worker` (jsdom). */
export async function runDecodeRequest(request: DecodeRequest): Promise<DecodeResponse> {
  try {
    if (request.op === 'package') {
      const contents = trimPackage(
        decodeArchivePayload(new Uint8Array(request.payload), request.packageId),
      );
      return { id: request.id, ok: true, op: 'package', contents };
    }
    if (request.op === 'summary') {
      // Module and template names are read too, but no type is decoded and none crosses over.
      const { name, version } = packageSummary(new Uint8Array(request.payload), request.packageId);
      const contents = { packageId: request.packageId, name, version };
      return { id: request.id, ok: true, op: 'summary', contents };
    }
    return { id: request.id, ok: true, op: 'dar', contents: await darContents(request.bytes) };
  } catch (error) {
    return { id: request.id, ok: false, failure: toFailure(error) };
  }
}

/** Everything but the interned tables, which are most of what the model would clone. */
function trimPackage(pkg: DecodedPackage): PackageContents {
  return {
    packageId: pkg.packageId,
    lfVersion: pkg.lfVersion,
    name: pkg.name,
    version: pkg.version,
    ...(pkg.upgradedPackageId === undefined ? {} : { upgradedPackageId: pkg.upgradedPackageId }),
    modules: pkg.modules,
    ...(pkg.importedPackages === undefined ? {} : { importedPackages: pkg.importedPackages }),
  };
}

async function darContents(bytes: ArrayBuffer): Promise<DarContents> {
  const dar = await readDar(new Uint8Array(bytes));
  const { main, manifest } = dar;
  // readDar hashes with Web Crypto where it can, and skips the check where it cannot.
  const unverifiedReason = hashingUnavailableReason();
  return {
    ...(manifest.name === undefined ? {} : { manifestName: manifest.name }),
    ...(manifest.sdkVersion === undefined ? {} : { sdkVersion: manifest.sdkVersion }),
    main: {
      ...toPackageSummary(main),
      dalfName: main.dalfName,
      ...(main.upgradedPackageId === undefined
        ? {}
        : { upgradedPackageId: main.upgradedPackageId }),
    },
    packages: dar.packages.map((pkg) => ({
      packageId: pkg.packageId,
      name: pkg.name,
      version: pkg.version,
      lfVersion: pkg.lfVersion,
      dalfName: pkg.dalfName,
    })),
    ...(unverifiedReason === undefined ? {} : { unverifiedReason }),
  };
}

function toFailure(error: unknown): DecodeFailure {
  if (error instanceof DarError) {
    return { reason: error.reason, message: error.message, details: error.details };
  }
  const message = error instanceof Error ? error.message || error.name : String(error);
  return { reason: 'UNEXPECTED', message, details: {} };
}

/** The part of a worker's global scope the decoder uses. */
export type DecodeWorkerScope = {
  addEventListener(type: 'message', listener: (event: MessageEvent<DecodeRequest>) => void): void;
  addEventListener(type: 'messageerror', listener: (event: MessageEvent) => void): void;
  postMessage(message: DecodeResponse): void;
};

/**
 * Answers every request `scope` receives, exactly once: a failure when the answer cannot be sent
 * (postMessage throws on what it cannot clone), and a failure without an id when a request cannot
 * be read, so that nothing the page waits for is left hanging. Exported for its tests.
 */
export function serveDecodeRequests(scope: DecodeWorkerScope): void {
  const post = (response: DecodeResponse) => {
    try {
      scope.postMessage(response);
    } catch (error) {
      const failure = toFailure(error);
      scope.postMessage({
        id: response.id,
        ok: false,
        failure: {
          ...failure,
          message: `The decoder could not send its answer: ${failure.message}`,
        },
      });
    }
  };
  scope.addEventListener('message', (event) => {
    const { id } = event.data;
    runDecodeRequest(event.data).then(post, (error: unknown) => {
      post({ id, ok: false, failure: toFailure(error) });
    });
  });
  scope.addEventListener('messageerror', () => {
    post({
      id: null,
      ok: false,
      failure: {
        reason: 'UNEXPECTED',
        message: 'The decoder received a request it could not read',
        details: {},
      },
    });
  });
}

// Only when loaded as a worker: the fallback imports this module into the page itself.
if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined') {
  serveDecodeRequests(globalThis);
}
