// A standard EventSource client (the `eventsource` package, not ours) on an inbox's event stream, observed from
// outside: parsing, reconnecting and Last-Event-ID are the package's own.
import { strict as assert } from 'node:assert';
import { EventSource } from 'eventsource';
import { compileSchema, createAjv, describeAjvError, loadOpenApi } from '../../src/http/openapi.js';
import type { MessageSummaryJson } from './api-json.js';
import { pollUntil } from './poll.js';

const ajv = createAjv(loadOpenApi());
const validateSummary = compileSchema(ajv, { $ref: '#/components/schemas/MessageSummary' });
const validateReady = compileSchema(ajv, { $ref: '#/components/schemas/StreamReady' });

export interface StreamEvent {
  type: 'message' | 'reset';
  /** The event's `id`, as the client's lastEventId after it. */
  id: string;
  data: string;
}

export class StreamClient {
  /** `message` and `reset` events, in arrival order. */
  readonly events: StreamEvent[] = [];
  /** The Last-Event-ID header of each connection attempt, null when it sent none. */
  readonly attempts: (string | null)[] = [];
  /** `ready` events: connections that have opened; a message stored after one is sent on that connection. */
  opened = 0;
  /** `error` events: each is a drop (or failed attempt) after which the client retries, or a refusal. */
  errors = 0;
  private readonly source: EventSource;

  /** `lastEventId` is sent on the first connection, as by a client resuming from a cursor it stored. */
  constructor(readonly label: string, url: string, key: string, lastEventId?: string) {
    this.source = new EventSource(url, {
      fetch: (input, init) => {
        const headers: Record<string, string> = { ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}), ...init.headers, Authorization: `Bearer ${key}` };
        this.attempts.push(headers['Last-Event-ID'] ?? null);
        return fetch(input, { ...init, headers });
      },
    });
    this.source.addEventListener('ready', (event: MessageEvent) => {
      const data = JSON.parse(String(event.data)) as unknown;
      assert.ok(validateReady(data), `${label}: ready data breaks StreamReady: ${describeAjvError('data', validateReady.errors?.[0])}`);
      this.opened++;
    });
    for (const type of ['message', 'reset'] as const) {
      this.source.addEventListener(type, (event: MessageEvent) => this.events.push({ type, id: event.lastEventId, data: String(event.data) }));
    }
    this.source.addEventListener('error', () => this.errors++);
  }

  async waitFor(what: string, probe: () => boolean, timeoutMs = 20_000): Promise<void> {
    await pollUntil(async () => probe(), timeoutMs,
      () => `${this.label}: ${what} (events ${this.events.length}, opened ${this.opened}, errors ${this.errors}, attempts ${this.attempts.length})`);
  }

  waitOpened(count = 1): Promise<void> {
    return this.waitFor(`stream opening #${count}`, () => this.opened >= count, 15_000);
  }

  waitForEvents(count: number, timeoutMs = 20_000): Promise<void> {
    return this.waitFor(`${count} events`, () => this.events.length >= count, timeoutMs);
  }

  /** The MessageSummary of each event, each checked to be a `message` event and against the contract. */
  summaries(): MessageSummaryJson[] {
    return this.events.map((event, i) => {
      assert.equal(event.type, 'message', `${this.label}: event ${i} is a ${event.type} event: ${event.data.slice(0, 200)}`);
      return summaryOf(event);
    });
  }

  close(): void {
    this.source.close();
  }
}

/** Parses and validates a `message` event's data: one line of JSON, a MessageSummary. */
export function summaryOf(event: StreamEvent): MessageSummaryJson {
  assert.ok(!event.data.includes('\n'), `event data spans several data lines: ${event.data.slice(0, 200)}`);
  const summary = JSON.parse(event.data) as unknown;
  assert.ok(validateSummary(summary), `event data breaks MessageSummary: ${describeAjvError('data', validateSummary.errors?.[0])}\n${event.data.slice(0, 400)}`);
  return summary as MessageSummaryJson;
}
