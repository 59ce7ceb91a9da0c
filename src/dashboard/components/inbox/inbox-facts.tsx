// The line under an inbox's name: its message and unread counts, kept up to date by arrivals between fetches of the
// inbox, whether its event stream is live, and the way to its settings.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Schemas } from '../../api.js';
import type { StreamState } from '../../live-inbox.js';

export interface InboxCounts {
  messages: number;
  unread: number;
}

/**
 * The counts of the inbox as last fetched, `arrived` to count a message that came in since, and `readChanged` for a
 * message marked read (opening marks it read) or unread since.
 */
export function useInboxCounts(inbox: Schemas['Inbox'] | null): { counts: InboxCounts | null; arrived: (read: boolean) => void; readChanged: (read: boolean) => void } {
  const [counts, setCounts] = useState<InboxCounts | null>(null);
  useEffect(() => {
    if (inbox) setCounts({ messages: inbox.message_count, unread: inbox.unread_count });
  }, [inbox]);
  const arrived = (read: boolean) => setCounts((current) => current && { messages: current.messages + 1, unread: current.unread + (read ? 0 : 1) });
  const readChanged = (read: boolean) => setCounts((current) => current && { ...current, unread: Math.max(0, current.unread + (read ? -1 : 1)) });
  return { counts, arrived, readChanged };
}

function LiveState(props: { state: StreamState }) {
  const text = props.state === 'live' ? 'Live: new mail appears as it arrives.' : props.state === 'connecting' ? 'Connecting to live updates…' : 'Live updates interrupted; reconnecting…';
  return <span class={`live live-${props.state}`}>{text}</span>;
}

/** `children`: what follows the facts on their line (the inbox's settings link). */
export function InboxFacts(props: { counts: InboxCounts | null; streamState: StreamState; children?: ComponentChildren }) {
  const { counts } = props;
  return (
    <p class="muted inbox-facts">
      {counts ? `${counts.messages.toLocaleString()} ${counts.messages === 1 ? 'message' : 'messages'}, ${counts.unread.toLocaleString()} unread. ` : null}
      <LiveState state={props.streamState} />
      {props.children}
    </p>
  );
}
