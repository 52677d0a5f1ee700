import type { Virtualizer } from '@tanstack/react-virtual';
import { describe, expect, it, vi } from 'vitest';
import { observeRectAfterLayout, scrollUnlessThere } from './observe-rect-after-layout';

const FALLBACK = { width: 320, height: 560 };

/** A scroller whose size reads are counted: each one would force a layout in a browser. */
function scroller(height: number) {
  const reads = { count: 0 };
  const scrollTo = vi.fn();
  const element = {
    get clientWidth() {
      reads.count += 1;
      return 300;
    },
    get clientHeight() {
      reads.count += 1;
      return height;
    },
    scrollTo,
  };
  return { element, reads, scrollTo };
}

function instanceOf(
  element: unknown,
  view: unknown,
  state: { scrollOffset?: number; isScrolling?: boolean } = {},
) {
  return {
    scrollElement: element,
    targetWindow: view,
    scrollOffset: state.scrollOffset ?? 0,
    isScrolling: state.isScrolling ?? false,
    options: { horizontal: false, isRtl: false },
  } as unknown as Virtualizer<Element, Element>;
}

class ManualResizeObserver {
  static last: ManualResizeObserver | undefined;
  observed: unknown[] = [];
  disconnected = false;
  constructor(readonly callback: () => void) {
    ManualResizeObserver.last = this;
  }
  observe(target: unknown) {
    this.observed.push(target);
  }
  disconnect() {
    this.disconnected = true;
  }
}

describe('observeRectAfterLayout', () => {
  it('reads the size only when the observer reports it, after layout', () => {
    const { element, reads } = scroller(400);
    const onChange = vi.fn();
    const stop = observeRectAfterLayout(FALLBACK)(
      instanceOf(element, { ResizeObserver: ManualResizeObserver }),
      onChange,
    );
    expect(reads.count).toBe(0);
    expect(onChange).not.toHaveBeenCalled();
    const observer = ManualResizeObserver.last;
    expect(observer?.observed).toEqual([element]);

    observer?.callback();
    expect(onChange).toHaveBeenCalledWith({ width: 300, height: 400 });
    stop?.();
    expect(observer?.disconnected).toBe(true);
  });

  it('reports the fallback for a scroller not laid out, and reads at once without an observer', () => {
    const hidden = scroller(0);
    const onChange = vi.fn();
    observeRectAfterLayout(FALLBACK)(instanceOf(hidden.element, {}), onChange);
    expect(hidden.reads.count).toBe(2);
    expect(onChange).toHaveBeenCalledWith(FALLBACK);
  });
});

describe('scrollUnlessThere', () => {
  it('skips a scroll to the top of a scroller known to be there, and scrolls otherwise', () => {
    const { element, scrollTo } = scroller(400);
    scrollUnlessThere(0, {}, instanceOf(element, {}));
    expect(scrollTo).not.toHaveBeenCalled();

    scrollUnlessThere(0, {}, instanceOf(element, {}, { scrollOffset: 120 }));
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, behavior: undefined });
    scrollUnlessThere(56, { behavior: 'smooth' }, instanceOf(element, {}));
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 56, behavior: 'smooth' });
    scrollUnlessThere(0, {}, instanceOf(element, {}, { isScrolling: true }));
    expect(scrollTo).toHaveBeenCalledTimes(3);
  });
});
