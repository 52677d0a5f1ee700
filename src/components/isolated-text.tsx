import { revealBidiControls, revealControls } from '@/lib/text/display-text';

export type IsolatedTextProps = {
  /** Text from the ledger, a token, a file or a URL. */
  children: string;
  /**
   * An id (party, user, key id, file name): every hidden character is shown. Otherwise free text
   * (an annotation, a display name, an error message): only the characters that reorder the text
   * around them are shown, so right-to-left prose reads as written.
   */
  isIdentifier?: boolean;
};

/**
 * Untrusted text in a line of the console's own: isolated in a `<bdi>`, so its direction cannot
 * reorder the words around it, with the characters that could spoof it shown as `⟨U+202E⟩`.
 */
export function IsolatedText({ children, isIdentifier = false }: IsolatedTextProps) {
  return <bdi>{isIdentifier ? revealControls(children) : revealBidiControls(children)}</bdi>;
}
