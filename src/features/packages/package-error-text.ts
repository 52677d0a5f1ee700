import { DamlLfDecodeError } from '@/api/daml-lf-decoder';
import { describeError } from '@/lib/api-error';

/** One line for why a package could not be read: the decoder's reason, or the API's error. */
export function packageErrorText(error: unknown): string {
  if (error instanceof DamlLfDecodeError) return `${error.title}: ${error.message}`;
  const { message, code } = describeError(error);
  return code ? `${message} (${code})` : message;
}
