import type { TooltipProps } from '@mantine/core';
import { DeferredTooltip } from './deferred-tooltip';
import {
  Suspense,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
} from 'react';

export type LazyTooltipOptions = {
  label: ReactNode;
  /** How long the pointer rests on the element before the tooltip opens; focus opens it at once. */
  openDelay?: number;
} & Pick<TooltipProps, 'multiline' | 'maw' | 'position'>;

/** What the element the tooltip describes spreads onto itself. */
export type LazyTooltipTrigger<E extends HTMLElement> = {
  ref: RefObject<E | null>;
  onPointerEnter: (event: PointerEvent<E>) => void;
  onPointerLeave: () => void;
  onFocus: () => void;
  onBlur: () => void;
  onKeyDown: (event: KeyboardEvent<E>) => void;
};

/**
 * A Mantine Tooltip that costs nothing until it is wanted: the element gets a few handlers, and the
 * Tooltip (floating-ui's positioning, interactions and portal) mounts only on the element's first
 * pointer-enter or focus, then stays; its code loads then too. A table row with a tooltip per cell mounts dozens per screen
 * while scrolling, and almost none of them is ever hovered (issue 29).
 *
 * Opens after `openDelay` on hover by a mouse or pen, at once on focus (a click that focuses it is
 * hovering it anyway), closes on leave, blur and Escape (WCAG 1.4.13). The element keeps
 * its own accessible name: the tooltip is for the eyes, what it says must be in the element's label.
 */
export function useLazyTooltip<E extends HTMLElement>({
  label,
  openDelay = 0,
  ...tooltipProps
}: LazyTooltipOptions): { trigger: LazyTooltipTrigger<E>; tooltip: ReactNode } {
  const ref = useRef<E>(null);
  const [isWanted, setIsWanted] = useState(false);
  const [isOpen, setIsOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
    },
    [],
  );

  const close = () => {
    clearTimeout(timer.current);
    setIsOpen(false);
  };
  const trigger: LazyTooltipTrigger<E> = {
    ref,
    onPointerEnter: (event) => {
      // As Mantine's own: hover is for a mouse or a pen; a tap would leave it open.
      if (event.pointerType === 'touch') return;
      setIsWanted(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        setIsOpen(true);
      }, openDelay);
    },
    onPointerLeave: close,
    onFocus: () => {
      setIsWanted(true);
      clearTimeout(timer.current);
      setIsOpen(true);
    },
    onBlur: close,
    onKeyDown: (event) => {
      if (event.key === 'Escape' && isOpen) close();
    },
  };
  const tooltip = isWanted ? (
    // Controlled and pointed at the element: it opens at once although the pointer entered (or the
    // focus came) before it existed, and the element itself is never wrapped nor remounted.
    <Suspense fallback={null}>
      <DeferredTooltip {...tooltipProps} label={label} target={ref} opened={isOpen} />
    </Suspense>
  ) : null;
  return { trigger, tooltip };
}
