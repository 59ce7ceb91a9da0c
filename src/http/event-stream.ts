// Writes a text/event-stream response: events as they come, heartbeat comments, a time limit, and backpressure.
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

/** One server-sent event; see the HTML standard's event stream format. */
export interface SseEvent {
  event?: string;
  id?: string;
  /** One line: the caller serialises it (JSON has no raw newlines). */
  data?: string;
  retry?: number;
}

export interface EventStreamReply {
  events: AsyncIterable<SseEvent>;
  /** Settles when the events will end early (the stream was stopped by its source). */
  stopped: Promise<void>;
  /** Frees what the events hold; called once the response ends, however it ends. */
  close(): void;
}

export interface EventStreamSettings {
  heartbeatMs: number;
  maxMs: number;
  /** Hears why a stream's source failed; the client resumes from its cursor. */
  onError: (error: unknown) => void;
}

export function formatSseEvent(event: SseEvent): string {
  let text = '';
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.data !== undefined) text += `data: ${event.data}\n`;
  return `${text}\n`;
}

export function writeEventStream(ctx: Context, reply: EventStreamReply, settings: EventStreamSettings): void {
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  // Proxies such as nginx buffer responses unless told not to, which would hold events back.
  ctx.set('X-Accel-Buffering', 'no');
  ctx.req.socket.setNoDelay(true);
  const body = new PassThrough();
  // Koa destroys the body when the client goes away, which ends everything below.
  ctx.body = body;
  let finished = false;
  const bodyClosed = new Promise<void>((resolve) => body.once('close', resolve));
  const finish = () => {
    if (finished) return;
    finished = true;
    clearInterval(heartbeat);
    clearTimeout(deadline);
    reply.close();
    if (!body.destroyed) body.end();
  };
  const heartbeat = setInterval(() => body.write(': heartbeat\n\n'), settings.heartbeatMs);
  // After the limit the client reconnects with Last-Event-ID, as after any drop, and misses nothing.
  const deadline = setTimeout(finish, settings.maxMs);
  void bodyClosed.then(finish);
  void (async () => {
    try {
      for await (const event of reply.events) {
        if (finished) break;
        // A client that stops reading holds at most one socket's worth here; its queue upstream is bounded too.
        if (!body.write(formatSseEvent(event))) await Promise.race([new Promise((resolve) => body.once('drain', resolve)), bodyClosed, reply.stopped]);
      }
    } catch (error) {
      // The source failed (storage unavailable, say): ending the stream makes the client resume from its cursor.
      settings.onError(error);
    } finally {
      finish();
    }
  })();
}
