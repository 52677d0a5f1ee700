import { describeError } from '@/lib/errors/api-error';

/** One line for why a package could not be read: the decoder's reason, or the API's error. */
export function packageErrorText(error: unknown): string {
  const { title, message, code, severity } = describeError(error);
  // A decoder warning's code is its reason, which the title already says in words.
  if (severity === 'warning') return `${title}: ${message}`;
  return code ? `${message} (${code})` : message;
}
