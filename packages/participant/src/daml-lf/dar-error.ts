/**
 * Why a DAR (or one Daml-LF archive in it) was rejected. The sandbox maps these onto Canton's
 * error codes; the suggested code is noted on each reason (reference: ledger-api-behaviour.md §6
 * and Canton's PackageServiceTest for the last two).
 */
export type DarErrorReason =
  /** Not a readable zip at all (empty, garbage, truncated, unsupported compression): INVALID_DAR. */
  | 'NOT_A_ZIP'
  /** A zip entry the manifest names is missing, or one is too large to inflate: INVALID_ZIP_ENTRY. */
  | 'INVALID_ZIP_ENTRY'
  /** The zip holds no `.dalf` entry: INVALID_DAR. */
  | 'NO_DALF'
  /** `META-INF/MANIFEST.MF` is missing: INVALID_DAR. */
  | 'NO_MANIFEST'
  /** The manifest lacks `Main-Dalf`/`Dalfs` or has a `Format` other than `daml-lf`: DAR_PARSE_ERROR. */
  | 'INVALID_MANIFEST'
  /** An `.dalf` is not a well-formed `Archive`/`ArchivePayload`/`Package`: DAR_PARSE_ERROR. */
  | 'CORRUPT_ARCHIVE'
  /** The archive's `hash` is not the SHA-256 of its payload: DAR_PARSE_ERROR. */
  | 'HASH_MISMATCH'
  /** Daml-LF 1.x (or an unknown major version): Canton 3 answers ALLOWED_LANGUAGE_VERSIONS. */
  | 'UNSUPPORTED_LF_VERSION'
  /**
   * The package decodes but breaks one of the few static rules we check (see decode-package.ts):
   * Canton answers DAR_VALIDATION_ERROR.
   */
  | 'VALIDATION_FAILED';

/** What the error is about, when known; all optional. */
export type DarErrorDetails = {
  /** The zip entry (e.g. the `.dalf` path) being read. */
  entry?: string;
  /** The package id as declared in the archive. */
  packageId?: string;
  /** Daml-LF version as `major.minor`, e.g. `1.15`. */
  lfVersion?: string;
};

/** The one error type the Daml-LF decoder throws for bad input. */
export class DarError extends Error {
  override readonly name = 'DarError';

  constructor(
    readonly reason: DarErrorReason,
    message: string,
    readonly details: DarErrorDetails = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The same error with more context (e.g. the entry name once the caller knows it). */
  withDetails(details: DarErrorDetails): DarError {
    const merged = { ...details, ...this.details };
    const prefix = merged.entry && !this.details.entry ? `${merged.entry}: ` : '';
    return new DarError(this.reason, `${prefix}${this.message}`, merged, { cause: this.cause });
  }
}
