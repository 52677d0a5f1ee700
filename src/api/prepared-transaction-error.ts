/**
 * The prepared transaction cannot be shown: malformed, too large, or not a tree. Its own module so
 * that the page can name it without loading the decoder and its protobuf bindings.
 */
export class PreparedTransactionError extends Error {
  override readonly name = 'PreparedTransactionError';
}
