import type { ReactNode } from 'react';

/** A field's description followed by a passing hint ("Loading users…"), either one alone. */
export function withHint(description: ReactNode, hint: string | undefined): ReactNode {
  if (description && hint) {
    return (
      <>
        {description} {hint}
      </>
    );
  }
  return description ?? hint;
}
