// An inbox's arrivals as they happen, from the inbox event stream (EventSource: same-origin, so the session cookie goes
// with it). After a drop EventSource reconnects by itself with Last-Event-ID and the server resumes without a gap. Two
// cases it cannot resume, where the page re-lists instead (onCatchUp): the server answered `reset` (the cursor is too
// old), or refused a reconnect, which closes an EventSource for good; a new stream then starts a while later. Every
// stream's `ready` also asks for a catch-up, for mail that arrived between the page's first list and the stream.
import { useEffect, useRef, useState } from 'preact/hooks';
import { apiBaseUrl, type Schemas } from './api.js';

export type StreamState = 'connecting' | 'live' | 'reconnecting';

export interface ArrivalHandlers {
  onMessage: (summary: Schemas['MessageSummary']) => void;
  onCatchUp: () => void;
}

/** After the server refused a stream: wait this long before opening a new one. */
const REOPEN_DELAY_MS = 5000;

export function useInboxArrivals(inboxId: string, handlers: ArrivalHandlers): StreamState {
  const latest = useRef(handlers);
  latest.current = handlers;
  const [state, setState] = useState<StreamState>('connecting');
  useEffect(() => {
    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      source = new EventSource(`${apiBaseUrl()}/v1/inboxes/${encodeURIComponent(inboxId)}/events`);
      source.addEventListener('ready', () => {
        setState('live');
        latest.current.onCatchUp();
      });
      source.addEventListener('message', (event) => {
        latest.current.onMessage(JSON.parse(event.data as string) as Schemas['MessageSummary']);
      });
      source.addEventListener('reset', () => latest.current.onCatchUp());
      source.addEventListener('error', () => {
        setState('reconnecting');
        if (source?.readyState === EventSource.CLOSED) reopenTimer = setTimeout(open, REOPEN_DELAY_MS);
      });
    };
    open();
    return () => {
      clearTimeout(reopenTimer);
      source?.close();
    };
  }, [inboxId]);
  return state;
}
