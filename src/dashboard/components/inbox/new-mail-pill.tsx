// New mail the person cannot see arriving (the list scrolled down, or hidden behind the open message on a narrow
// screen) is counted: on a pill over the list, which goes to the top where the new rows are, and on the open
// message's way back to the list (message-viewer.tsx). The count is also said to assistive technology, from outside
// both panes, since either may be hidden. Scrolling to the top by hand clears it too.
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export interface UnseenArrivals {
  count: number;
  /** A message arrived on top of the list: counted unless the top of the list is in view. */
  arrived: () => void;
  clear: () => void;
}

export function useUnseenArrivals(scroller: RefObject<HTMLElement | null>, listPane: RefObject<HTMLElement | null>): UnseenArrivals {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    const onScroll = () => element.scrollTop === 0 && setCount(0);
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [scroller.current]);
  const arrived = () => {
    const scrolled = (scroller.current?.scrollTop ?? 0) > 0;
    const hidden = listPane.current !== null && !listPane.current.checkVisibility({ visibilityProperty: true });
    if (scrolled || hidden) setCount((current) => current + 1);
  };
  return { count, arrived, clear: () => setCount(0) };
}

export function newMailWords(count: number): string {
  return `${count.toLocaleString()} new ${count === 1 ? 'message' : 'messages'}`;
}

export function NewMailStatus(props: { unseen: UnseenArrivals }) {
  const { count } = props.unseen;
  return <p class="visually-hidden" role="status">{count > 0 ? `${newMailWords(count)} arrived.` : ''}</p>;
}

export function NewMailPill(props: { unseen: UnseenArrivals; onShow: () => void }) {
  const { count } = props.unseen;
  if (count === 0) return null;
  return (
    <button type="button" class="new-mail-pill" onClick={() => {
      props.unseen.clear();
      props.onShow();
    }}>
      <span aria-hidden="true">↑ </span>{newMailWords(count)}
    </button>
  );
}
