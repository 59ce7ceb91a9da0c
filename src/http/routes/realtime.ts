// Real-time endpoints: the waits (for one message, for N, for none), the inbox's mark, and its event stream.
import type { MessageRecord } from '../../domain/types.js';
import type { MessageContentService } from '../../services/mail/message-content.js';
import type { FileUrlSigner } from '../../services/files/signed-urls.js';
import { listFilter } from '../../query/parse-query.js';
import { AppError } from '../../errors.js';
import { UnexpectedMessage, WaitTimedOut, type MessageWaiter } from '../../services/realtime/message-waiter.js';
import type { InboxEventStreams, StreamItem } from '../../services/realtime/inbox-event-streams.js';
import type { components } from '../../contract/api-types.js';
import { handlers } from '../handler.js';
import type { SseEvent } from '../event-stream.js';
import { messageDetailJson, messageSummaryJson, streamReadyJson, streamResetJson, waitExplanationJson } from '../presenters.js';
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
  /** One open wait for the metrics, and its timeout answered with what came instead. */
  const waiting = async <T>(work: () => Promise<T>): Promise<T> => {
    counts.waitsOpen.inc();
    try {
      return await work();
    } catch (error) {
      if (error instanceof WaitTimedOut) throw new AppError('wait_timeout', error.message, { details: { explain: waitExplanationJson(error.explanation) } });
      throw error;
    } finally {
      counts.waitsOpen.dec();
    }
  };
  const detailJson = async (workspaceId: string, record: MessageRecord, baseUrl: string, signal: AbortSignal) =>
    messageDetailJson(await content.detailInTurn(workspaceId, record.id, signal), signer, baseUrl);

  return handlers({
    waitForMessage: async ({ principal, params, query, baseUrl, signal }) => {
      const record = await waiting(() => waiter.wait(principal.workspace.id, params.id, listFilter(query), query.timeout * 1000, signal));
      return { data: await detailJson(principal.workspace.id, record, baseUrl, signal) };
    },
    waitForMessages: async ({ principal, params, query, baseUrl, signal }) => {
      const records = await waiting(() => waiter.waitMany(principal.workspace.id, params.id, listFilter(query), query.count, query.timeout * 1000, signal));
      // One detail at a time: each takes its turn in the workspace's share of content reads.
      const data = [];
      for (const record of records) data.push(await detailJson(principal.workspace.id, record, baseUrl, signal));
      return { data };
    },
    waitForNoMessage: async ({ principal, params, query, baseUrl, signal }) => {
      try {
        const until = await waiting(() => waiter.waitNone(principal.workspace.id, params.id, listFilter(query), query.timeout * 1000, signal));
        return { data: { watched_until: until.toISOString() } };
      } catch (error) {
        if (!(error instanceof UnexpectedMessage)) throw error;
        throw new AppError('unexpected_message', error.message, { details: { found: await detailJson(principal.workspace.id, error.found, baseUrl, signal) } });
      }
    },
    markInbox: async ({ principal, params }) => {
      const mark = await streams.mark(principal.workspace.id, params.id);
      return { data: { since: mark.since.toISOString(), last_event_id: mark.lastEventId } };
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
