// Real-time endpoints: wait for one message, and the inbox event stream.
import type { MessageRecord } from '../../domain/types.js';
import type { MessageContentService } from '../../services/mail/message-content.js';
import type { FileUrlSigner } from '../../services/files/signed-urls.js';
import { listFilter } from '../../query/parse-query.js';
import type { MessageWaiter } from '../../services/realtime/message-waiter.js';
import type { InboxEventStreams, StreamItem } from '../../services/realtime/inbox-event-streams.js';
import type { components } from '../../contract/api-types.js';
import { handlers } from '../handler.js';
import type { SseEvent } from '../event-stream.js';
import { messageDetailJson, messageSummaryJson, streamReadyJson, streamResetJson } from '../presenters.js';
import type { OpenCount } from '../../observability/metrics.js';

type Schemas = components['schemas'];

/** Reconnect delay suggested to clients, in ms (the contract's StreamReadyEvent names it). */
const RECONNECT_MS = 2000;

/**
 * Each arrival reaches every stream on this node as the same record object, so its JSON is made once for all of
 * them rather than once per client.
 */
const summaryText = new WeakMap<MessageRecord, string>();

function summaryJson(record: MessageRecord): string {
  let text = summaryText.get(record);
  if (text === undefined) {
    text = JSON.stringify(messageSummaryJson(record));
    summaryText.set(record, text);
  }
  return text;
}

/** Each event as the contract's StreamEvent describes it (one schema per event type). */
function sseEvent(inboxId: string, item: StreamItem): SseEvent {
  switch (item.kind) {
    // A real event rather than a bare id line: some clients (the eventsource package, for one) take the last
    // event id only from events with data, and must still resume from here if they drop before any message.
    case 'ready':
      return { retry: RECONNECT_MS, event: 'ready', id: item.cursor, data: JSON.stringify(streamReadyJson(inboxId)) } satisfies Schemas['StreamReadyEvent'];
    case 'message':
      return { event: 'message', id: item.cursor, data: summaryJson(item.record) } satisfies Schemas['StreamMessageEvent'];
    case 'reset':
      return { event: 'reset', id: item.cursor, data: JSON.stringify(streamResetJson()) } satisfies Schemas['StreamResetEvent'];
  }
}

async function* sseEvents(inboxId: string, items: AsyncIterable<StreamItem>): AsyncGenerator<SseEvent> {
  for await (const item of items) yield sseEvent(inboxId, item);
}

/** Waits and event streams open now, for the metrics. */
export interface RealtimeCounts {
  waitsOpen: OpenCount;
  eventStreamsOpen: OpenCount;
}

export function realtimeHandlers(waiter: MessageWaiter, streams: InboxEventStreams, content: MessageContentService, signer: FileUrlSigner, counts: RealtimeCounts) {
  return handlers({
    waitForMessage: async ({ principal, params, query, baseUrl, signal }) => {
      counts.waitsOpen.inc();
      let record: MessageRecord;
      try {
        record = await waiter.wait(principal.workspace.id, params.id, listFilter(query), query.timeout * 1000, signal);
      } finally {
        counts.waitsOpen.dec();
      }
      return { data: messageDetailJson(await content.detailInTurn(principal.workspace.id, record.id, signal), signer, baseUrl) };
    },
    streamInboxEvents: async ({ principal, params, headers }) => {
      const stream = await streams.open(principal.workspace.id, params.id, headers['Last-Event-ID']);
      counts.eventStreamsOpen.inc();
      // The stream writer closes a stream exactly once, however it ends.
      const close = () => {
        counts.eventStreamsOpen.dec();
        stream.close();
      };
      return { events: sseEvents(params.id, stream.items), stopped: stream.stopped, close };
    },
  });
}
