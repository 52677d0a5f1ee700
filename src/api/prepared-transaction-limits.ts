/**
 * Bounds on what the console decodes and hashes of a prepared transaction; beyond them the preview
 * is refused, not attempted. Its own module so that the decoder and the hasher share them.
 */
export const PREPARED_TRANSACTION_LIMITS = {
  /** Of the base64 text: about 12 MB of protobuf. */
  maxBase64Length: 16 * 1024 * 1024,
  maxNodes: 50_000,
  /** Nesting of exercises and rollbacks. */
  maxTreeDepth: 1_000,
  /** Daml-LF's own limit for values. */
  maxValueDepth: 100,
  maxInputContracts: 10_000,
} as const;
