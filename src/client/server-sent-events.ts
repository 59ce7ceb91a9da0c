// Reading a server-sent event stream (HTML Living Standard, "Server-sent events") from a fetch body, and staying
// connected: when the connection ends or drops, it reconnects after the server's `retry` delay with Last-Event-ID, so
// the server resumes exactly after the last event read.
import { MailSandboxError, abortReason, pause } from './errors.js';

/** One dispatched event: its type (`message` when the stream named none), its data lines joined, and the last event id after it. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id: string | null;
}

/** The standard's event stream interpretation, fed text as it arrives, in chunks cut anywhere. */
export class ServerSentEventParser {
  /** The last event id the stream set, which a reconnection sends as Last-Event-ID. */
  lastEventId: string | null;
  /** The reconnection delay the stream last asked for (its `retry` field), in ms; null until it asks. */
  reconnectionTimeMs: number | null = null;
  private buffer = '';
  /** A chunk ended in CR: an LF starting the next one belongs to the same line break. */
  private skipLeadingLineFeed = false;
  private eventType = '';
  private dataLines: string[] = [];

  constructor(lastEventId: string | null = null) {
    this.lastEventId = lastEventId;
  }

  push(text: string): ServerSentEvent[] {
    if (this.skipLeadingLineFeed && text.startsWith('\n')) text = text.slice(1);
    this.skipLeadingLineFeed = false;
    this.buffer += text;
    const events: ServerSentEvent[] = [];
    let lineStart = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\r' && c !== '\n') continue;
      const event = this.processLine(this.buffer.slice(lineStart, i));
      if (event !== null) events.push(event);
      if (c === '\r') {
        if (i + 1 === this.buffer.length) this.skipLeadingLineFeed = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      lineStart = i + 1;
    }
    this.buffer = this.buffer.slice(lineStart);
    return events;
  }

  private processLine(line: string): ServerSentEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') this.dataLines.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.reconnectionTimeMs = Number(value);
    return null;
  }

  private dispatch(): ServerSentEvent | null {
    const event = this.dataLines.length === 0 ? null : { event: this.eventType || 'message', data: this.dataLines.join('\n'), id: this.lastEventId };
    this.eventType = '';
    this.dataLines = [];
    return event;
  }
}

/**
 * Opens one connection of the stream, sending `lastEventId` as Last-Event-ID when not null, and resolves to its body;
 * rejects with a MailSandboxError when the server refuses it (not to be retried), or any other error when the
 * connection could not be made.
 */
export type OpenStream = (lastEventId: string | null, signal: AbortSignal) => Promise<ReadableStream<Uint8Array>>;

export interface ReadStreamOptions {
  lastEventId?: string | null;
  signal?: AbortSignal;
  /** Connection attempts in a row that may fail (without any answer) before the error is thrown. */
  maxRetries: number;
}

/** The standard's default reconnection delay is the user agent's choice; this is the one the API suggests. */
const DEFAULT_RECONNECTION_MS = 2000;

/**
 * Every event of the stream, across reconnections: a connection that ends, or drops, is made again after the delay
 * the stream asked for, resuming from the last event id read. Ends only by the consumer stopping (then the
 * connection is closed), by `signal` (rejecting with its reason), by a refusal, or by `maxRetries` failed attempts
 * in a row.
 */
export async function* readEventStream(open: OpenStream, options: ReadStreamOptions): AsyncGenerator<ServerSentEvent, void, undefined> {
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal]);
  const rethrowIfAborted = () => {
    if (options.signal?.aborted) throw abortReason(options.signal);
  };
  let lastEventId = options.lastEventId ?? null;
  let reconnectionMs = DEFAULT_RECONNECTION_MS;
  let failuresInARow = 0;
  try {
    for (;;) {
      let body: ReadableStream<Uint8Array>;
      try {
        body = await open(lastEventId, signal);
      } catch (error) {
        rethrowIfAborted();
        if (error instanceof MailSandboxError || ++failuresInARow > options.maxRetries) throw error;
        await pause(reconnectionMs * failuresInARow, signal);
        continue;
      }
      failuresInARow = 0;
      const parser = new ServerSentEventParser(lastEventId);
      const decoder = new TextDecoder();
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          for (const event of parser.push(decoder.decode(value, { stream: true }))) yield event;
        }
      } catch {
        // The connection dropped: reconnect, as for one the server ended.
        rethrowIfAborted();
      } finally {
        lastEventId = parser.lastEventId;
        reconnectionMs = parser.reconnectionTimeMs ?? reconnectionMs;
        await reader.cancel().catch(() => undefined);
      }
      await pause(reconnectionMs, signal);
    }
  } finally {
    stop.abort();
  }
}
