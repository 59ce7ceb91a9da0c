// Whether an inbox's event stream is live, in words, beside the inbox's counts.
import type { StreamState } from '../../live-inbox.js';

export function LiveState(props: { state: StreamState }) {
  const text = props.state === 'live' ? 'Live: new mail appears as it arrives.' : props.state === 'connecting' ? 'Connecting to live updates…' : 'Live updates interrupted; reconnecting…';
  return <span class={`live live-${props.state}`}>{text}</span>;
}
