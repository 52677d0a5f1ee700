/**
 * Reads a DAR (a zip of Daml-LF archives) the way a Canton participant parses an upload: the
 * manifest names the main DALF and its dependencies; every `.dalf` must be a well-formed
 * `Archive` whose hash is the SHA-256 of its payload, in Daml-LF 2.x. (In a browser page served over
 * plain http from another host there is no Web Crypto to hash with: the ids then go unchecked, as
 * `decodeArchive`'s `hashVerified` reports, and the participant checks them on upload.)
 *
 * Pure and browser-safe (fflate for the zip, Web Crypto for hashing): the sandbox uses it for
 * `POST /v2/dars`, the console will use it in a Web Worker.
 *
 * Deliberate choices, mirroring Canton 3.x:
 * - Daml-LF 1.x: the `Archive` wrapper is decoded and its hash verified, then the whole DAR is
 *   rejected with `UNSUPPORTED_LF_VERSION` naming the package and version (Canton answers
 *   ALLOWED_LANGUAGE_VERSIONS). `decodeArchive` alone reports the version without throwing.
 * - A manifest is required (Canton dropped the legacy "no manifest" fallback), and so are its
 *   `Main-Dalf`, `Dalfs` and `Format: daml-lf` attributes.
 * - fflate does not check zip CRCs; a corrupted DALF still fails its SHA-256 check.
 * - No type checking beyond one narrow rule (see `checkConstantValue` in decode-package.ts).
 */

import { unzipSync } from 'fflate';
import { DarError } from './dar-error';
import { decodeArchive, type DecodedArchive } from './decode-archive';
import { decodeArchivePayload, formatLfVersion } from './decode-package';
import type { DecodedPackage } from './package-model';

const MANIFEST_PATH = 'META-INF/MANIFEST.MF';
const DALF_SUFFIX = '.dalf';
/** The only `Format` the manifest may declare (as Canton's DarManifestReader insists). */
const SUPPORTED_FORMAT = 'daml-lf';
/** Real DALFs are a few MB at most; the cap stops a zip bomb from inflating gigabytes. */
const DEFAULT_MAX_ENTRY_BYTES = 256 * 1024 * 1024;

export type DarManifest = {
  /** Zip path of the main package's DALF (`Main-Dalf`). */
  mainDalf: string;
  /** Zip paths of all DALFs, main included, as listed (`Dalfs`). */
  dalfs: string[];
  format: string;
  /** `Name`, e.g. `canton-builtin-admin-workflow-ping-3.4.0`, when present. */
  name?: string;
  /** `Sdk-Version`, when present. */
  sdkVersion?: string;
  /** Every attribute of the manifest's main section, continuation lines joined. */
  attributes: Record<string, string>;
};

/** A decoded package plus where it came from in the DAR. */
export type DarPackage = DecodedPackage & {
  /** Zip path of the DALF. */
  dalfName: string;
  /**
   * The `ArchivePayload` bytes the package id hashes: what a participant stores and serves from
   * `GET /v2/packages/{id}`.
   */
  payload: Uint8Array;
};

export type Dar = {
  main: DarPackage;
  /** All packages: main first, then the manifest's order, then unlisted `.dalf` entries. */
  packages: DarPackage[];
  manifest: DarManifest;
};

export type ReadDarOptions = {
  /** Largest uncompressed zip entry accepted; default 256 MiB. */
  maxEntryBytes?: number;
};

/**
 * Unzips and decodes a DAR, verifying every package id.
 *
 * @throws DarError with a `reason` saying what is wrong; see dar-error.ts for the Canton error
 *   code each reason corresponds to.
 */
export async function readDar(bytes: Uint8Array, options: ReadDarOptions = {}): Promise<Dar> {
  const entries = unzip(bytes, options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES);
  const dalfEntries = [...entries.keys()].filter((name) => name.endsWith(DALF_SUFFIX));
  if (dalfEntries.length === 0) {
    throw new DarError('NO_DALF', 'The DAR contains no .dalf archive');
  }
  const manifestBytes = entries.get(MANIFEST_PATH);
  if (!manifestBytes) {
    throw new DarError('NO_MANIFEST', `The DAR has no ${MANIFEST_PATH}`, { entry: MANIFEST_PATH });
  }
  const manifest = readManifest(new TextDecoder().decode(manifestBytes));
  for (const name of [manifest.mainDalf, ...manifest.dalfs]) {
    if (!entries.has(name)) {
      const message = `The manifest lists ${name}, which is not in the DAR`;
      throw new DarError('INVALID_ZIP_ENTRY', message, { entry: name });
    }
  }

  // Main first, then the manifest's order; entries it does not list are still decoded, last.
  const order = [...new Set([manifest.mainDalf, ...manifest.dalfs, ...dalfEntries])];
  // Hash in parallel, but report the first failure in `order`, so errors are deterministic.
  const results = await Promise.all(
    order.map(async (name) => {
      try {
        const archive = await decodeArchive(entries.get(name) ?? new Uint8Array());
        return { name, ok: true as const, archive };
      } catch (error) {
        return { name, ok: false as const, error };
      }
    }),
  );
  const packages = results.map((result): DarPackage => {
    try {
      if (!result.ok) throw result.error;
      const { archive, name } = result;
      return { ...decodeVerified(archive), dalfName: name, payload: archive.payload };
    } catch (error) {
      throw error instanceof DarError ? error.withDetails({ entry: result.name }) : error;
    }
  });
  const [main] = packages;
  if (!main) throw new Error('unreachable: `order` starts with the main DALF');
  return { main, packages, manifest };
}

function decodeVerified(archive: DecodedArchive): DecodedPackage {
  const { packageId, lfVersion } = archive;
  if (!archive.hashMatches) {
    throw new DarError(
      'HASH_MISMATCH',
      `The archive declares hash ${packageId} but its payload hashes to ${archive.computedHash}`,
      { packageId, lfVersion: formatLfVersion(lfVersion) },
    );
  }
  return decodeArchivePayload(archive.payload, packageId);
}

/** Inflates the manifest and the `.dalf` entries only (sources, .hi and .hie files are skipped). */
function unzip(bytes: Uint8Array, maxEntryBytes: number): Map<string, Uint8Array> {
  // fflate would report an empty input as a generic error; say what it is.
  if (bytes.length === 0) throw new DarError('NOT_A_ZIP', 'The DAR is empty');
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        const wanted = file.name === MANIFEST_PATH || file.name.endsWith(DALF_SUFFIX);
        if (wanted && file.originalSize > maxEntryBytes) {
          throw new DarError(
            'INVALID_ZIP_ENTRY',
            `Zip entry ${file.name} inflates to ${file.originalSize} bytes, over the ${maxEntryBytes}-byte limit`,
            { entry: file.name },
          );
        }
        return wanted;
      },
    });
  } catch (error) {
    if (error instanceof DarError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new DarError(
      'NOT_A_ZIP',
      `The DAR is not a readable zip file (${detail})`,
      {},
      {
        cause: error,
      },
    );
  }
  return new Map(Object.entries(files));
}

/**
 * Parses a JAR manifest's main section. Lines end in CRLF, LF or CR; a line starting with a space
 * continues the previous one (the format wraps at 72 bytes, even inside a file name); the main
 * section ends at the first blank line.
 */
export function parseManifestAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let current: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (current !== undefined || Object.keys(attributes).length > 0) break;
      continue;
    }
    if (line.startsWith(' ')) {
      if (current === undefined) continue;
      attributes[current] = `${attributes[current] ?? ''}${line.slice(1)}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) {
      current = undefined;
      continue;
    }
    current = line.slice(0, colon);
    attributes[current] = line.slice(colon + 1).replace(/^ /, '');
  }
  return attributes;
}

function readManifest(text: string): DarManifest {
  const attributes = parseManifestAttributes(text);
  // JAR attribute names are case-insensitive.
  const lookup = new Map(
    Object.entries(attributes).map(([key, value]) => [key.toLowerCase(), value.trim()]),
  );
  const required = (name: string): string => {
    const value = lookup.get(name.toLowerCase());
    if (!value) {
      throw new DarError('INVALID_MANIFEST', `The manifest has no ${name} attribute`, {
        entry: MANIFEST_PATH,
      });
    }
    return value;
  };
  const mainDalf = required('Main-Dalf');
  const dalfs = required('Dalfs')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const format = required('Format');
  if (format !== SUPPORTED_FORMAT) {
    throw new DarError(
      'INVALID_MANIFEST',
      `Unsupported DAR format ${format}; expected ${SUPPORTED_FORMAT}`,
      {
        entry: MANIFEST_PATH,
      },
    );
  }
  const name = lookup.get('name');
  const sdkVersion = lookup.get('sdk-version');
  return {
    mainDalf,
    dalfs,
    format,
    ...(name === undefined ? {} : { name }),
    ...(sdkVersion === undefined ? {} : { sdkVersion }),
    attributes,
  };
}
