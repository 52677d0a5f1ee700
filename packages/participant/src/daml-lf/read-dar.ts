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
 * - Zip CRCs are not checked; a corrupted DALF still fails its SHA-256 check.
 * - Bounded for hostile input: at most `maxEntries` entries are looked at, no entry inflates past
 *   the size the central directory declares for it (nor past `maxEntryBytes`), and all entries
 *   together not past `maxTotalBytes`; inflating stops the moment an entry overflows.
 * - No type checking beyond one narrow rule (see `checkConstantValue` in decode-package.ts).
 */

import { Inflate } from 'fflate';
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
/** A large project's DAR (sources, .hi and .hie files per module, plus dependencies) stays in the
 * low thousands of entries. */
const DEFAULT_MAX_ENTRIES = 10_000;
/** What the manifest and all DALFs may inflate to together: twice the per-entry cap. */
const DEFAULT_MAX_TOTAL_BYTES = 512 * 1024 * 1024;
/**
 * Compressed bytes inflated per step. Deflate expands at most about 1032:1, so a step never
 * produces more than ~4 MiB before the output is counted against the entry's declared size.
 */
const INFLATE_STEP = 4096;

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
  /** Most entries (of any kind) the zip may have; default 10,000. */
  maxEntries?: number;
  /** Largest total of the manifest and the DALFs, uncompressed; default 512 MiB. */
  maxTotalBytes?: number;
};

/**
 * Unzips and decodes a DAR, verifying every package id.
 *
 * @throws DarError with a `reason` saying what is wrong; see dar-error.ts for the Canton error
 *   code each reason corresponds to.
 */
export async function readDar(bytes: Uint8Array, options: ReadDarOptions = {}): Promise<Dar> {
  const entries = unzip(bytes, {
    maxEntryBytes: options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES,
    maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES,
  });
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

type UnzipLimits = Required<ReadDarOptions>;

/** A central directory record: what the zip says about an entry before any of it is read. */
type ZipEntry = {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
};

const notAZip = (detail: string) =>
  new DarError('NOT_A_ZIP', `The DAR is not a readable zip file (${detail})`);

/** Inflates the manifest and the `.dalf` entries only (sources, .hi and .hie files are skipped). */
function unzip(bytes: Uint8Array, limits: UnzipLimits): Map<string, Uint8Array> {
  if (bytes.length === 0) throw new DarError('NOT_A_ZIP', 'The DAR is empty');
  const entries = readCentralDirectory(bytes, limits.maxEntries);
  const wanted = entries.filter(
    (entry) => entry.name === MANIFEST_PATH || entry.name.endsWith(DALF_SUFFIX),
  );
  // Sizes are checked as declared before anything is inflated; inflating then holds each entry
  // to its declared size, so the declared total bounds the real one.
  let total = 0;
  for (const entry of wanted) {
    if (entry.size > limits.maxEntryBytes) {
      throw new DarError(
        'INVALID_ZIP_ENTRY',
        `Zip entry ${entry.name} inflates to ${entry.size} bytes, over the ${limits.maxEntryBytes}-byte limit`,
        { entry: entry.name },
      );
    }
    total += entry.size;
    if (total > limits.maxTotalBytes) {
      throw new DarError(
        'INVALID_ZIP_ENTRY',
        `The DAR's archives inflate to more than the ${limits.maxTotalBytes}-byte limit (at ${entry.name})`,
        { entry: entry.name },
      );
    }
  }
  const files = new Map<string, Uint8Array>();
  for (const entry of wanted) files.set(entry.name, readEntry(bytes, entry));
  return files;
}

const u16 = (bytes: Uint8Array, at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
const u32 = (bytes: Uint8Array, at: number) => u16(bytes, at) + u16(bytes, at + 2) * 0x10000;
const u64 = (bytes: Uint8Array, at: number) => u32(bytes, at) + u32(bytes, at + 4) * 0x100000000;

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const MAX_COMMENT_LENGTH = 65535;

/** Reads the central directory, refusing more than `maxEntries` records before parsing any. */
function readCentralDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  let end = bytes.length - 22;
  const lowest = Math.max(0, end - MAX_COMMENT_LENGTH);
  while (end >= lowest && u32(bytes, end) !== END_OF_CENTRAL_DIRECTORY) end--;
  if (end < lowest) throw notAZip('invalid zip data');
  let count = u16(bytes, end + 10);
  let offset = u32(bytes, end + 16);
  if (end >= 20 && u32(bytes, end - 20) === ZIP64_LOCATOR) {
    const zip64End = u64(bytes, end - 12);
    if (zip64End + 56 <= bytes.length && u32(bytes, zip64End) === ZIP64_END_OF_CENTRAL_DIRECTORY) {
      count = u64(bytes, zip64End + 32);
      offset = u64(bytes, zip64End + 48);
    }
  }
  if (count > maxEntries) {
    throw new DarError(
      'NOT_A_ZIP',
      `The DAR has ${count} zip entries, over the limit of ${maxEntries}`,
    );
  }
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (offset + 46 > bytes.length || u32(bytes, offset) !== CENTRAL_DIRECTORY_HEADER) {
      throw notAZip('invalid zip data');
    }
    const flags = u16(bytes, offset + 8);
    const nameLength = u16(bytes, offset + 28);
    const extraLength = u16(bytes, offset + 30);
    const commentLength = u16(bytes, offset + 32);
    const nameStart = offset + 46;
    const extraStart = nameStart + nameLength;
    const next = extraStart + extraLength + commentLength;
    if (next > bytes.length) throw notAZip('invalid zip data');
    const nameBytes = bytes.subarray(nameStart, extraStart);
    // Bit 11 says UTF-8; without it the name is CP437, which Latin-1 approximates (as fflate does).
    const name = flags & 0x800 ? new TextDecoder().decode(nameBytes) : latin1(nameBytes);
    const sizes = {
      size: u32(bytes, offset + 24),
      compressedSize: u32(bytes, offset + 20),
      localHeaderOffset: u32(bytes, offset + 42),
    };
    readZip64Sizes(bytes.subarray(extraStart, extraStart + extraLength), sizes);
    entries.push({ name, method: u16(bytes, offset + 10), ...sizes });
    offset = next;
  }
  return entries;
}

function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** A field that does not fit 32 bits is 0xFFFFFFFF, and its value is in the zip64 extra field. */
function readZip64Sizes(
  extra: Uint8Array,
  sizes: { size: number; compressedSize: number; localHeaderOffset: number },
) {
  const overflow = 0xffffffff;
  for (let at = 0; at + 4 <= extra.length; at += 4 + u16(extra, at + 2)) {
    if (u16(extra, at) !== 1) continue;
    let field = at + 4;
    for (const key of ['size', 'compressedSize', 'localHeaderOffset'] as const) {
      if (sizes[key] === overflow && field + 8 <= extra.length) {
        sizes[key] = u64(extra, field);
        field += 8;
      }
    }
    return;
  }
}

function readEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || u32(bytes, local) !== LOCAL_FILE_HEADER) {
    throw notAZip(`no local header for ${entry.name}`);
  }
  const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw notAZip(`${entry.name} is truncated`);
  const data = bytes.subarray(start, end);
  if (entry.method === 0) {
    if (data.length > entry.size) throw overflowing(entry);
    return data.slice();
  }
  if (entry.method !== 8) throw notAZip(`unknown compression type ${entry.method}`);
  return inflateBounded(data, entry);
}

const overflowing = (entry: ZipEntry) =>
  new DarError(
    'INVALID_ZIP_ENTRY',
    `Zip entry ${entry.name} inflates to more than the ${entry.size} bytes it declares`,
    { entry: entry.name },
  );

/** Inflates step by step into a buffer of the declared size, stopping as soon as it overflows. */
function inflateBounded(data: Uint8Array, entry: ZipEntry): Uint8Array {
  const out = new Uint8Array(entry.size);
  let written = 0;
  const inflater = new Inflate((chunk) => {
    if (written + chunk.length > out.length) throw overflowing(entry);
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    if (data.length === 0) inflater.push(data, true);
    for (let at = 0; at < data.length; at += INFLATE_STEP) {
      const stepEnd = Math.min(at + INFLATE_STEP, data.length);
      inflater.push(data.subarray(at, stepEnd), stepEnd === data.length);
    }
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
  return written === out.length ? out : out.subarray(0, written);
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
