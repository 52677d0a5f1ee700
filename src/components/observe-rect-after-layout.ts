import { elementScroll, type Rect, type Virtualizer } from '@tanstack/react-virtual';

/**
 * TanStack Virtual's `observeElementRect` without its first, synchronous read. That read
 * (clientHeight, in a layout effect) forces the layout of everything the same commit mounted, in
 * the commit's own task: for the Preview's graph and outline it was most of the longest task
 * (issue 29). Here the virtualizer starts from its `initialRect` (pass `fallback`), and a
 * ResizeObserver reports the real size once the browser has laid the page out, as it does for
 * every observed element with a size. A size of 0 (not laid out, jsdom) reports `fallback`, so
 * some rows still render. Without ResizeObserver the size is read at once, as TanStack does.
 */
export function observeRectAfterLayout(fallback: Rect) {
  return <S extends Element, I extends Element>(
    instance: Virtualizer<S, I>,
    onChange: (rect: Rect) => void,
  ): (() => void) | undefined => {
    const element = instance.scrollElement;
    const view = instance.targetWindow;
    if (!element || !view) return undefined;
    const report = () => {
      const { clientWidth: width, clientHeight: height } = element;
      onChange(height > 0 ? { width, height } : fallback);
    };
    if (typeof view.ResizeObserver !== 'function') {
      report();
      return undefined;
    }
    const observer = new view.ResizeObserver(report);
    observer.observe(element, { box: 'content-box' });
    return () => {
      observer.disconnect();
    };
  };
}

/**
 * TanStack Virtual's `elementScroll`, but a scroll to the top of a scroller the virtualizer knows
 * to be at the top is skipped: attaching to a new scroller writes its initial offset (0), and
 * that write also forces a layout in the commit's task.
 */
export function scrollUnlessThere<S extends Element, I extends Element>(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<S, I>,
): void {
  const target = offset + (options.adjustments ?? 0);
  if (target === 0 && instance.scrollOffset === 0 && !instance.isScrolling) return;
  elementScroll(offset, options, instance);
}
