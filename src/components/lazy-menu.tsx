import {
  cloneElement,
  useState,
  type ButtonHTMLAttributes,
  type ComponentType,
  type ReactElement,
} from 'react';
import { notify } from './feedback/notify';

/** The button that opens a menu. */
export type LazyMenuTrigger = ReactElement<ButtonHTMLAttributes<HTMLButtonElement>>;

/** What a lazily loaded menu gets besides its own props: see LazyMenu. */
export type LazyMenuBodyProps = {
  /** Its Menu.Target's child: the button given to LazyMenu, focused as it mounts. */
  trigger: LazyMenuTrigger;
  /** The menu was loaded by a click on its button: `defaultOpened`. */
  isOpenedOnMount: boolean;
};

export type LazyMenuProps<P extends object> = {
  trigger: LazyMenuTrigger;
  /** Imports the menu's module: a component rendering Mantine's Menu with `trigger` as target. */
  load: () => Promise<ComponentType<P & LazyMenuBodyProps>>;
  /** The menu's own props. */
  menuProps: P;
};

/**
 * A header menu whose code loads when it is first wanted: Mantine's Menu brings floating-ui (about
 * 20 KB gzip), which the first route need not load for a menu nobody has opened (issue 29). The
 * button renders alone, saying it opens a menu; pointing at it or focusing it fetches the module,
 * and the first click swaps in the menu, opened, with the same button (focused) as its target.
 * Only a click swaps, so no pointer or key sequence is ever split across the two buttons.
 */
export function LazyMenu<P extends object>({ trigger, load, menuProps }: LazyMenuProps<P>) {
  const [Menu, setMenu] = useState<ComponentType<P & LazyMenuBodyProps>>();
  if (Menu) {
    return (
      <Menu {...menuProps} trigger={cloneElement(trigger, { autoFocus: true })} isOpenedOnMount />
    );
  }
  const preload = () => {
    // A failure is said on the click that needs the module.
    load().catch(() => undefined);
  };
  return cloneElement(trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: preload,
    onFocus: preload,
    onClick: () => {
      load().then(
        (component) => {
          setMenu(() => component);
        },
        (error: unknown) => {
          notify.error(error, 'The menu could not be loaded; reload the page to try again');
        },
      );
    },
  });
}
