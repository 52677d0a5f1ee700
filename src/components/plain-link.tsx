import { use, type ComponentProps, type MouseEvent } from 'react';
import { LinkNavigationContext } from './link-navigation';

export type PlainLinkProps = Omit<ComponentProps<'a'>, 'href'> & {
  /** An absolute path of the console ("/parties/…"), as the app's path builders make them. */
  to: string;
};

/** A click the page may take over: the main button, no modifier, not meant for another window. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    (target === null || target === '_self')
  );
}

/**
 * An in-app link for the cells of long lists: an anchor whose plain click the router follows, and
 * whose other clicks (a new tab, a new window) the browser does. React Router's Link runs about
 * ten hooks per link; a row of active contracts holds seven links, and /contracts mounted its
 * first rows, and every row scrolled in, that much slower (issue 29). Absolute paths only: it
 * resolves nothing relative to the route.
 */
export function PlainLink({ to, onClick, children, ...anchorProps }: PlainLinkProps) {
  const navigation = use(LinkNavigationContext);
  return (
    <a
      {...anchorProps}
      href={navigation ? navigation.href(to) : to}
      onClick={(event) => {
        onClick?.(event);
        if (navigation && isPlainClick(event)) {
          event.preventDefault();
          navigation.navigate(to);
        }
      }}
    >
      {children}
    </a>
  );
}
