// The line under an inbox's name: its message and unread counts (the inbox as cached: arrivals and changes made here
// are written into it, message-cache.ts), whether its event stream is live, and the way to its settings.
import type { ComponentChildren } from 'preact';
import type { Schemas } from '../../api.js';
import type { StreamState } from '../../live-inbox.js';

function LiveState(props: { state: StreamState }) {
  const text = props.state === 'live' ? 'Live: new mail appears as it arrives.' : props.state === 'connecting' ? 'Connecting to live updates…' : 'Live updates interrupted; reconnecting…';
  return <span class={`live live-${props.state}`}>{text}</span>;
}

/** `children`: what follows the facts on their line (the inbox's settings link). */
export function InboxFacts(props: { inbox: Schemas['Inbox'] | null; streamState: StreamState; children?: ComponentChildren }) {
  const { inbox } = props;
  return (
    <p class="muted inbox-facts">
      {inbox ? `${inbox.message_count.toLocaleString()} ${inbox.message_count === 1 ? 'message' : 'messages'}, ${inbox.unread_count.toLocaleString()} unread. ` : null}
      <LiveState state={props.streamState} />
      {props.children}
    </p>
  );
}
