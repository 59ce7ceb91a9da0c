// An inbox's message list on screen: a virtualized list of fixed-height rows (only those in view are in the DOM) that
// asks for the next page as the person scrolls near the end, and the keyboard cursor (the active row) that j and k
// move, with the focus following it. A row shows, in two lines, the sender and the first recipient, an attachment mark,
// the size and how long ago the message came; the subject with the start of the text, and the tags. The words a
// search looks for are marked. The open message's row is marked (aria-current), and a click on a row opens its message
// through the page, which decides what happens to the history.
import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Virtualizer } from '@tanstack/virtual-core';
import type { MessageSummary } from '../../message-cache.js';
import { PAGE_SIZE, type MessagePages } from '../../message-pages.js';
import { startReadingMessage } from '../../message-detail.js';
import { href } from '../../router.js';
import { useVirtualList } from '../virtual-list.js';
import { ListClock, ReceivedTime } from './received-time.js';
import { timeWording, type TimeWording } from './relative-time.js';
import { firstRecipient, senderName } from './sender-name.js';
import { Paperclip } from '../paperclip.js';
import { formatSize } from '../message-panels.js';

/**
 * A row's height: 3.25rem, as .message-row in styles.css, at every width (rows are fixed in height, so the list never
 * measures; two lines of text and the row's padding).
 */
const ROW_HEIGHT_REM = 3.25;

export interface MessageListView {
  scroller: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLElement, HTMLElement>;
  rowHeight: number;
}

/** The list's scroller and virtualizer; loads the next page when the rows in view come near the last one loaded. */
export function useMessageListView(pages: MessagePages): MessageListView {
  const scroller = useRef<HTMLDivElement>(null);
  // Read once: getComputedStyle on every render would recompute styles while the list scrolls.
  const [rowHeight] = useState(() => ROW_HEIGHT_REM * parseFloat(getComputedStyle(document.documentElement).fontSize));
  const { items } = pages;
  const virtualizer = useVirtualList({
    // One row more while there is a next page: its "Loading more…" placeholder.
    count: items.length + (pages.nextCursor !== null ? 1 : 0),
    getScrollElement: () => scroller.current,
    rowHeight,
    getItemKey: (index) => items[index]?.id ?? 'more',
  });
  useEffect(() => {
    const last = virtualizer.getVirtualItems().at(-1);
    if (last && pages.nextCursor !== null && !pages.loading && !pages.error && last.index >= items.length - PAGE_SIZE / 4) pages.loadMore();
  });
  return { scroller, virtualizer, rowHeight };
}

export interface ActiveMessage {
  /** The row under the keyboard cursor, or -1. */
  index: number;
  set: (index: number | ((current: number) => number)) => void;
  /**
   * Moves the cursor `step` rows from `from` (the cursor's row unless given), scrolls it into view and focuses its
   * link; returns the row it went to (-1: none).
   */
  move: (step: number, from?: number) => number;
}

export function useActiveMessage(view: MessageListView, count: number): ActiveMessage {
  const [index, set] = useState(-1);
  const focusPending = useRef(false);
  // A layout effect: the focus moves in the same frame as the row it goes to is drawn.
  useLayoutEffect(() => {
    if (!focusPending.current || index < 0) return;
    const link = view.scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"] .message-link`);
    if (link) {
      link.focus({ preventScroll: true });
      focusPending.current = false;
    }
  });
  const move = (step: number, from = index) => {
    if (count === 0) return -1;
    const next = Math.max(0, Math.min(count - 1, from + step));
    focusPending.current = true;
    set(next);
    view.virtualizer.scrollToIndex(next, { align: 'auto' });
    return next;
  };
  return { index, set, move };
}

function TagChip(props: { name: string; color: string | undefined }) {
  return (
    <span class="tag">
      {/* The colour is a swatch beside the name, so the name keeps the theme's text contrast whatever the colour. */}
      <span class="tag-swatch" aria-hidden="true" style={props.color ? { backgroundColor: props.color } : undefined} />
      {props.name}
    </span>
  );
}

/** `text` with every match of `pattern` in a <mark>. */
function Marked(props: { text: string; pattern: RegExp | null }) {
  const { text, pattern } = props;
  if (!pattern) return <>{text}</>;
  // split with one capturing group: the odd pieces are the matches.
  return <>{text.split(pattern).map((piece, index) => (index % 2 === 1 ? <mark key={index}>{piece}</mark> : piece))}</>;
}

function MessageRow(props: {
  message: MessageSummary;
  /** The route path that opens the message. */
  to: string;
  /** Its message is the one open beside the list. */
  open: boolean;
  onOpen: (id: string) => void;
  index: number;
  /** The list's length for aria-setsize, or -1 while more can load. */
  setSize: number;
  place: Record<string, string>;
  active: boolean;
  selected: boolean;
  tagColors: Map<string, string | undefined>;
  onToggle: (index: number, range: boolean) => void;
  onFocus: (index: number) => void;
  clock: ListClock;
  wording: TimeWording;
  /** The search's words, to mark; null when there are none. */
  marked: RegExp | null;
}) {
  const { message, index } = props;
  const subject = message.subject || '(no subject)';
  const sender = message.from ? senderName(message.from) : message.envelope_from || '(no sender)';
  const recipient = firstRecipient(message.to, message.recipients);
  const classes = ['message-row', message.read ? '' : 'unread', props.active ? 'active' : '', props.selected ? 'selected' : '', props.open ? 'open' : ''].filter(Boolean).join(' ');
  // A click with a modifier (a new tab, a new window) is the browser's; a plain one opens the message in the page.
  const opensHere = (event: MouseEvent) => event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
  const open = (event: MouseEvent) => {
    if (!opensHere(event)) return;
    event.preventDefault();
    // preact-iso's click listener on the window would add a history entry of its own.
    event.stopPropagation();
    // Before the render the navigation causes (a click from the keyboard has no press before it).
    startReadingMessage(message.id);
    props.onOpen(message.id);
  };
  // The message is read from the press on, while the button is still down: the click comes only as it is let go.
  const press = (event: PointerEvent) => {
    if (opensHere(event)) startReadingMessage(message.id);
  };
  return (
    <div role="listitem" data-index={index} class={classes} style={props.place}
      aria-setsize={props.setSize} aria-posinset={index + 1} onFocusIn={() => props.onFocus(index)}>
      <input type="checkbox" checked={props.selected} aria-label={`Select: ${subject}, from ${sender}`}
        onClick={(event) => props.onToggle(index, event.shiftKey)} />
      <a href={href(props.to)} class="message-link" aria-current={props.open ? 'page' : undefined} onPointerDown={press} onClick={open}>
        <span class="message-from" title={[message.from || message.envelope_from, message.to && `to ${message.to}`].filter(Boolean).join('\n')}>
          {message.read ? null : <span class="visually-hidden">Unread: </span>}<span class="sender">{sender}</span>
          {recipient ? <span class="message-to"> to {recipient}</span> : null}
        </span>
        <span class="message-when">
          {message.attachment_count > 0 ? <Paperclip title="Has attachments" /> : null}
          <span class="message-size">{formatSize(message.size)}</span>
          <ReceivedTime at={message.received_at} clock={props.clock} wording={props.wording} />
        </span>
        <span class="message-subject">
          <Marked text={subject} pattern={props.marked} />
          {message.snippet ? <span class="message-snippet"> — <Marked text={message.snippet} pattern={props.marked} /></span> : null}
        </span>
        <span class="message-tags">{message.tags.map((tag) => <TagChip key={tag} name={tag} color={props.tagColors.get(tag)} />)}</span>
      </a>
    </div>
  );
}

export function MessageList(props: {
  /** The route path that opens a message. */
  messagePath: (id: string) => string;
  /** The message open beside the list, if any. */
  openId: string | null;
  onOpen: (id: string) => void;
  view: MessageListView;
  pages: MessagePages;
  active: ActiveMessage;
  isSelected: (message: MessageSummary) => boolean;
  onToggle: (index: number, range: boolean) => void;
  tagColors: Map<string, string | undefined>;
  /** The words the search looks for (matched-words.ts). */
  marked: RegExp | null;
}) {
  const { view, pages } = props;
  const { items } = pages;
  const [clock] = useState(() => new ListClock());
  const [wording] = useState(() => timeWording());
  return (
    <div class="message-scroller" ref={view.scroller}>
      <div class="message-list" role="list" aria-label="Messages" style={{ height: `${view.virtualizer.getTotalSize()}px` }}>
        {view.virtualizer.getVirtualItems().map((row) => {
          const message = items[row.index];
          // Rows are placed with CSSOM styles (transform), which the CSP's style-src allows; markup carries no style.
          const place = { transform: `translateY(${row.start}px)` };
          if (!message) {
            return <div key={row.key} role="listitem" class="message-row more" style={place}>{pages.error ? 'Could not load more messages.' : 'Loading more…'}</div>;
          }
          return (
            <MessageRow key={row.key} message={message} to={props.messagePath(message.id)} open={message.id === props.openId} onOpen={props.onOpen} index={row.index}
              setSize={pages.nextCursor === null ? items.length : -1} place={place}
              active={row.index === props.active.index} selected={props.isSelected(message)} tagColors={props.tagColors}
              onToggle={props.onToggle} onFocus={props.active.set} clock={clock} wording={wording} marked={props.marked} />
          );
        })}
      </div>
    </div>
  );
}
