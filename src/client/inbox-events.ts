// The inbox event stream (GET /v1/inboxes/{id}/events) as typed events: `ready` on each connection, `message` per
// arrival, `reset` when a resume point is too old.
import { bodyOf, idOf, type ApiClient, type InboxRef, type Schemas } from './api.js';
import type { MessageSummary } from './messages.js';
import { readEventStream } from './server-sent-events.js';

/**
 * One event of an inbox's stream. `id` is its stream cursor: keep the last one to resume later with
 * `lastEventId` (compare and store it only as a string).
 * - `ready`: the stream is connected (again, after a reconnection), from position `id`; a mail stored after it is sent on it.
 * - `message`: a mail arrived; `data` is its summary as it stands when sent (tag rules have run).
 * - `reset`: the stream could not resume from the cursor given (older than the server keeps); it goes on from the
 *   newest arrival, so re-list the inbox to catch up.
 */
export type InboxEvent =
  | { type: 'ready'; id: string; data: Schemas['StreamReady'] }
  | { type: 'message'; id: string; data: MessageSummary }
  | { type: 'reset'; id: string; data: Schemas['StreamReset'] };

export interface EventsOptions {
  /** Resume after this cursor (an event's `id`): the events stored since then come first, none twice. */
  lastEventId?: string;
  /** Ends the stream: the loop throws the signal's reason (an `AbortError` by default). */
  signal?: AbortSignal;
}

const EVENT_TYPES = new Set<string>(['ready', 'message', 'reset']);

export async function* inboxEvents(api: ApiClient, inbox: InboxRef, options: EventsOptions, maxRetries: number): AsyncGenerator<InboxEvent, void, undefined> {
  const id = idOf(inbox);
  const open = (lastEventId: string | null, signal: AbortSignal) => bodyOf(api.GET('/v1/inboxes/{id}/events', {
    params: { path: { id }, header: lastEventId === null ? {} : { 'Last-Event-ID': lastEventId } },
    parseAs: 'stream',
    signal,
  })) as Promise<ReadableStream<Uint8Array>>;
  for await (const event of readEventStream(open, { lastEventId: options.lastEventId, signal: options.signal, maxRetries })) {
    // An event type a newer server adds is not one this client can describe.
    if (!EVENT_TYPES.has(event.event) || event.id === null) continue;
    yield { type: event.event, id: event.id, data: JSON.parse(event.data) } as InboxEvent;
  }
}
