// @tanstack/virtual-core bound to Preact hooks, as its React adapter binds it to React: only the rows in view (and a few
// either side) are in the DOM, whatever the number of messages loaded.
import { elementScroll, observeElementOffset, observeElementRect, Virtualizer } from '@tanstack/virtual-core';
import { useLayoutEffect, useReducer, useState } from 'preact/hooks';

export interface VirtualListOptions {
  count: number;
  getScrollElement: () => HTMLElement | null;
  /** Every row has this height in pixels (the list's rows are fixed in height, so nothing is measured). */
  rowHeight: number;
  getItemKey: (index: number) => string | number;
  overscan?: number;
}

export function useVirtualList(options: VirtualListOptions): Virtualizer<HTMLElement, HTMLElement> {
  const [, rerender] = useReducer((round: number) => round + 1, 0);
  const resolved = {
    count: options.count,
    getScrollElement: options.getScrollElement,
    estimateSize: () => options.rowHeight,
    getItemKey: options.getItemKey,
    overscan: options.overscan ?? 8,
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    onChange: () => rerender(undefined),
  };
  const [virtualizer] = useState(() => new Virtualizer<HTMLElement, HTMLElement>(resolved));
  virtualizer.setOptions(resolved);
  useLayoutEffect(() => virtualizer._didMount(), []);
  useLayoutEffect(() => virtualizer._willUpdate());
  return virtualizer;
}
