// The message open beside an inbox's list (or in its place on a narrow screen), and what the list does about it: the
// cursor follows the open message to its row, and the page's scroll position is kept for the way back to the list.
// (What the viewer does to the message, read state and delete, it tells the list itself: ListBeside.)
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import type { MessagePages } from '../../message-pages.js';
import type { ActiveMessage, MessageListView } from './message-list.js';

/** Returns the open message's row in the loaded list, or -1 (none open, or not loaded). */
export function useOpenMessage(options: {
  messageId: string | null;
  pages: MessagePages;
  view: MessageListView;
  active: ActiveMessage;
  /** The pane the message scrolls in on a wide screen. */
  messagePane: RefObject<HTMLElement | null>;
}): number {
  const { messageId, pages, view, active } = options;
  const { items } = pages;
  const openIndex = messageId === null ? -1 : items.findIndex((message) => message.id === messageId);

  useEffect(() => {
    // Opened other than from its row (a deep link, back or forward): the cursor goes to the row, and the row to the
    // middle of the list: at an edge, the header settling (the session's workspaces arriving) could push it half out.
    if (openIndex < 0 || openIndex === active.index) return;
    active.set(openIndex);
    view.virtualizer.scrollToIndex(openIndex, { align: 'center' });
  }, [openIndex]);

  // Where the page was scrolled when the list was left for a message: on a narrow screen the page itself scrolls.
  const listPageScroll = useRef(0);
  const placedMessage = useRef(messageId);
  useLayoutEffect(() => {
    const previous = placedMessage.current;
    placedMessage.current = messageId;
    if (previous === messageId) return;
    if (messageId !== null) {
      if (previous === null) listPageScroll.current = window.scrollY;
      // Another message starts at its top: the pane scrolls on a wide screen, the page on a narrow one.
      options.messagePane.current?.scrollTo(0, 0);
      window.scrollTo(0, 0);
      return;
    }
    // Back on the list (shown again on a narrow screen), where the person was on the page; the list itself stayed
    // drawn while hidden (styles.css), so it is still scrolled where it was.
    window.scrollTo(0, listPageScroll.current);
  }, [messageId]);

  return openIndex;
}
