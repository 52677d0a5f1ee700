import { createContext } from 'react';

/**
 * How a PlainLink makes its href and follows a click: the app gives its router's (basename and
 * navigation). Without one, the link is an anchor the browser follows.
 */
export type LinkNavigation = {
  href: (to: string) => string;
  navigate: (to: string) => void;
};

export const LinkNavigationContext = createContext<LinkNavigation | undefined>(undefined);
