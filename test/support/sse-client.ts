// A standard EventSource client (the `eventsource` package, not ours) on an inbox's event stream, observed from
// outside: parsing, reconnecting and Last-Event-ID are the package's own. Every event it receives is checked against
// the contract: the stream response's schema (one schema per event type) and the schema of that type's data.
import { strict as assert } from 'node:assert';
import { EventSource } from 'eventsource';
import type { ValidateFunction } from 'ajv';
import { compileSchema, createAjv, describeAjvError, loadOpenApi } from '../../src/http/openapi.js';
import type { MessageSummaryJson } from './api-json.js';
import { pollUntil } from './poll.js';

type Schema = { $ref?: string; oneOf?: Schema[]; properties?: Record<string, Schema & { const?: string; contentSchema?: Schema }> };

const openapi = loadOpenApi();
const ajv = createAjv(openapi);
const streamOperation = openapi.operations.find((operation) => operation.operationId === 'streamInboxEvents')!;
const streamSchema = (streamOperation.responses['200'] as { content: Record<string, { schema: Schema }> }).content['text/event-stream']!.schema;
/** An event, whatever its type, against the response's schema. */
const validateEvent = compileSchema(ajv, streamSchema as Record<string, unknown>);

const componentSchemas = (openapi.raw.components as { schemas: Record<string, Schema> }).schemas;
const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(componentSchemas[schema.$ref.replace('#/components/schemas/', '')]!) : schema);

/** Each event type the contract names (its `event` const), with the validator of its data (its `contentSchema`). */
const validateDataOf = new Map<string, ValidateFunction>(resolve(streamSchema).oneOf!.map((eventSchema) => {
  const { event, data } = resolve(eventSchema).properties!;
  return [event!.const!, compileSchema(ajv, data!.contentSchema as Record<string, unknown>)];
}));

/** The event types of the stream, as the contract lists them. */
export const STREAM_EVENT_TYPES = [...validateDataOf.keys()];

/** An event as a client sees it: its fields (`retry` only when the reader exposes it) and its parsed data. */
export function assertStreamEvent(where: string, event: { event: string; id: string; data: string; retry?: number }): unknown {
  assert.ok(validateEvent(event), `${where}: a ${event.event} event breaks the stream's schema: ${describeAjvError('event', validateEvent.errors?.[0])}\n${event.data.slice(0, 400)}`);
  assert.ok(!event.data.includes('\n'), `${where}: event data spans several data lines: ${event.data.slice(0, 200)}`);
  const data = JSON.parse(event.data) as unknown;
  const validateData = validateDataOf.get(event.event)!;
  assert.ok(validateData(data), `${where}: ${event.event} data breaks its schema: ${describeAjvError('data', validateData.errors?.[0])}\n${event.data.slice(0, 400)}`);
  return data;
}

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
    for (const type of STREAM_EVENT_TYPES) {
      this.source.addEventListener(type, (event: MessageEvent) => {
        assertStreamEvent(label, { event: type, id: event.lastEventId, data: String(event.data) });
        if (type === 'ready') this.opened++;
        else this.events.push({ type: type as StreamEvent['type'], id: event.lastEventId, data: String(event.data) });
      });
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
  assert.equal(event.type, 'message', `a ${event.type} event has no MessageSummary: ${event.data.slice(0, 200)}`);
  return assertStreamEvent('summary', { event: event.type, id: event.id, data: event.data }) as MessageSummaryJson;
}
