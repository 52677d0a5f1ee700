import { createContext, use } from 'react';

/** The kinds of identifier the console can link to a page of its own. */
export type IdentifierKind = 'party' | 'package' | 'contract' | 'update';

/**
 * Where an identifier of each kind links to. The app provides it (components cannot import the
 * app's paths), so every `Identifier` of a party links to the party page without each caller
 * threading a link builder through its props.
 */
export type IdentifierLinks = Partial<Record<IdentifierKind, (value: string) => string>>;

export const IdentifierLinksContext = createContext<IdentifierLinks>({});

export function useIdentifierHref(kind: IdentifierKind | undefined, value: string) {
  const links = use(IdentifierLinksContext);
  return kind ? links[kind]?.(value) : undefined;
}
