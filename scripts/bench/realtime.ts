// Measures the realtime endpoints of the built server: wait latency, event-stream latency, and many concurrent streams on one inbox (server memory per stream, delivery latency, exactly-once delivery) (embedded profile; SANDBOX_TEST_PROFILE=cluster with the services up for the cluster profile); run `npm run bench:realtime -- [--messages 500] [--streams 1000] [--stream-messages 50] [--phase wait|sse|streams|all]`.
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { ApiClient, assertMatchesContract } from '../../test/support/api-client.js';
import { createInbox, uniqueName } from '../../test/support/inboxes.js';
import { startServer, type StartedServer } from '../../test/support/server.js';
import { credentialsOf, smtpTransport, storedId } from '../../test/support/smtp.js';
import { positiveInt, percentile, processCpuMs, round, rssKb } from './measure.js';
import { removeScratchData } from '../../test/support/scratch-data.js';

const PHASES = ['wait', 'sse', 'streams'] as const;
type Phase = (typeof PHASES)[number];

const WAIT_TIMEOUT_SECONDS = 30;
/**
 * Pause between handing the wait request to the socket and sending the mail, so the server has authenticated the
 * request and subscribed to the inbox before the message lands; the latency measured is then that of the push path.
 * (A message stored before the subscription would still be found by the wait's initial lookup.)
 */
const WAIT_HEAD_START_MS = 20;
/** How long an event may take to reach the stream(s) before the bench gives up on it. */
const EVENT_TIMEOUT_MS = 30_000;
/** Pause between the messages of the many-streams phase, after each 250. */
const STREAM_MESSAGE_GAP_MS = 20;
/** Streams being opened at once: well under the server's listen backlog (511), so no connection attempt is dropped and retried. */
const OPEN_CONCURRENCY = 100;
/** Descriptors besides the streams: storage files, SMTP and HTTP sockets, service connections in the cluster profile. */
const DESCRIPTOR_HEADROOM = 200;
const POLL_MS = 5;
const ENVELOPE = { from: 'realtime-bench@bench.example.test', to: 'realtime-inbox@bench.example.test' };

/** One connection, reused, for the waits: they run one at a time. */
const WAIT_AGENT = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** A plain socket per stream, with no pooling bookkeeping in the bench process. */
const STREAM_AGENT = new http.Agent({ keepAlive: false, maxSockets: Infinity });

interface Target {
  httpUrl: string;
  key: string;
  inboxId: string;
}

interface LatencySummary {
  p50: number;
  p99: number;
  max: number;
  min: number;
}

const progress = (line: string) => process.stderr.write(`[bench:realtime] ${line}\n`);

/** min is there because a latency can be below zero: the answer may be handled before the 250 that preceded it on the wire. */
function summarize(latencies: number[]): LatencySummary {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1)!), min: round(sorted[0]!) };
}

const mb = (kb: number) => round(kb / 1024, 1);

/** CPU time (user + system) the server process has used, in ms; Linux reports it in ticks of 1/100 s (USER_HZ). */
function benchCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Both ends of every stream live on this machine, so the bench and the server each hold one descriptor per stream.
 * Node raises its soft limit to the hard limit at startup, so the server child, spawned by this process, gets the
 * same limit this process reports.
 */
function checkDescriptorLimit(streams: number): void {
  const match = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
  if (!match) throw new Error('no "Max open files" in /proc/self/limits');
  const limit = match[1] === 'unlimited' ? Infinity : Number(match[1]);
  const needed = streams + DESCRIPTOR_HEADROOM;
  if (limit < needed) {
    throw new Error(`--streams ${streams} needs about ${needed} open files in the bench and in the server, the limit is ${limit}; raise the hard limit (ulimit -Hn ${needed}) or open fewer streams`);
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

const mailFor = (subject: string): Mail.Options => ({ ...ENVELOPE, subject, text: `realtime bench message ${subject}\n` });

/** The message id inside a MessageSummary's JSON, found without parsing it (the inbox_id and message_id keys do not match). */
function summaryMessageId(data: string): string | null {
  return /"id":"(msg_[0-9a-z]+)"/.exec(data)?.[1] ?? null;
}

// ---------- clients ----------

interface WaitAnswer {
  status: number;
  contentType: string;
  body: Buffer;
  /** When the whole body had arrived. */
  receivedAt: number;
}

function startWait(target: Target, subject: string): { written: Promise<unknown>; answer: Promise<WaitAnswer> } {
  const url = `${target.httpUrl}/v1/inboxes/${target.inboxId}/messages/wait?subject=${encodeURIComponent(subject)}&timeout=${WAIT_TIMEOUT_SECONDS}`;
  const request = http.get(url, { agent: WAIT_AGENT, headers: { authorization: `Bearer ${target.key}` } });
  const answer = new Promise<WaitAnswer>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        resolve({ status: response.statusCode!, contentType: response.headers['content-type'] ?? '', body: Buffer.concat(chunks), receivedAt: performance.now() });
      });
    });
  });
  // 'finish': the request is handed to the socket; a failed or early answer settles it too.
  return { written: Promise.race([once(request, 'finish'), answer]), answer };
}

interface StreamEvent {
  type: string;
  data: string;
}

/** Splits text/event-stream into dispatched events (HTML Living Standard, server-sent events): fields event, data and comments; id and retry are not needed here. */
class EventStreamParser {
  private buffer = '';
  private type = '';
  private data: string[] = [];

  constructor(private readonly dispatch: (event: StreamEvent, receivedAt: number) => void) {}

  /** Every event completed by this chunk arrived when the chunk did. */
  push(chunk: string, receivedAt: number): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n')) !== -1) {
      const line = this.buffer.slice(0, this.buffer[end - 1] === '\r' ? end - 1 : end);
      this.buffer = this.buffer.slice(end + 1);
      if (line === '') {
        // A block without data (such as the opening `id:` line) dispatches nothing.
        if (this.data.length > 0) this.dispatch({ type: this.type || 'message', data: this.data.join('\n') }, receivedAt);
        this.type = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(line[colon + 1] === ' ' ? colon + 2 : colon + 1);
      if (field === 'event') this.type = value;
      else if (field === 'data') this.data.push(value);
    }
  }
}

interface EventStream {
  /** True once the server ended the stream or the connection broke (not when the bench closed it). */
  readonly ended: boolean;
  close(): void;
}

/** Opens the inbox's event stream; resolves once its first bytes arrived, i.e. the server is sending to it. */
function openEventStream(target: Target, onEvent: (event: StreamEvent, receivedAt: number) => void): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    let closing = false;
    let ended = false;
    const request = http.get(`${target.httpUrl}/v1/inboxes/${target.inboxId}/events`, { agent: STREAM_AGENT, headers: { authorization: `Bearer ${target.key}`, accept: 'text/event-stream' } }, (response) => {
      response.setEncoding('utf8');
      if (response.statusCode !== 200) {
        let body = '';
        response.on('data', (chunk: string) => (body += chunk));
        response.once('end', () => reject(new Error(`the event stream answered ${response.statusCode}: ${body.slice(0, 300)}`)));
        return;
      }
      const parser = new EventStreamParser(onEvent);
      const stream: EventStream = {
        get ended() {
          return ended;
        },
        close() {
          closing = true;
          request.destroy();
        },
      };
      response.on('data', (chunk: string) => {
        parser.push(chunk, performance.now());
        resolve(stream);
      });
      response.once('close', () => {
        ended = !closing;
      });
    });
    request.once('error', (error) => {
      ended = !closing;
      reject(error);
    });
  });
}

// ---------- phases ----------

async function newTarget(server: StartedServer, api: ApiClient, phase: Phase) {
  const inbox = await createInbox(api, uniqueName(`realtime-bench-${phase}`));
  const target: Target = { httpUrl: server.httpUrl, key: api.key!, inboxId: inbox.id };
  // Pooled, so STARTTLS and AUTH happen once and not between the messages of a phase.
  return { target, transport: smtpTransport(credentialsOf(inbox), { pool: true }) };
}

/**
 * Wait latency, one wait at a time: from the moment the client has the 250 reply (the message is stored) to the
 * moment the whole wait answer has arrived. Both instants are taken where their events are handled, so when the
 * answer happens to be handled first the figure is negative; it is reported as measured.
 */
async function waitPhase(server: StartedServer, api: ApiClient, messages: number) {
  const { target, transport } = await newTarget(server, api, 'wait');
  const latencies: number[] = [];
  try {
    for (let index = 0; index < messages; index++) {
      // Brackets end the token, so no subject contains another's.
      const subject = `[realtime-wait-${process.pid}-${index}]`;
      const wait = startWait(target, subject);
      await wait.written;
      await sleep(WAIT_HEAD_START_MS);
      const reply = String((await transport.sendMail(mailFor(subject))).response);
      const ackedAt = performance.now();
      const id = storedId(reply);
      const answer = await wait.answer;
      if (answer.status !== 200) throw new Error(`the wait for ${subject} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
      assertMatchesContract('GET', `/v1/inboxes/${target.inboxId}/messages/wait`, answer.status, answer.contentType, answer.body);
      const answered = (JSON.parse(answer.body.toString()) as { data: { id: string } }).data.id;
      if (answered !== id) throw new Error(`the wait for ${subject} answered ${answered}, the message stored was ${id}`);
      latencies.push(answer.receivedAt - ackedAt);
    }
  } finally {
    WAIT_AGENT.destroy();
    transport.close();
  }
  const result = { messages, head_start_ms: WAIT_HEAD_START_MS, latency_ms: summarize(latencies) };
  progress(`wait: ${JSON.stringify(result.latency_ms)}`);
  return result;
}

/** Event-stream latency on one stream, one message at a time: from the 250 to the arrival of the message's event. */
async function ssePhase(server: StartedServer, api: ApiClient, messages: number, failures: string[]) {
  const { target, transport } = await newTarget(server, api, 'sse');
  const arrivals = new Map<string, number>();
  let events = 0;
  const stream = await openEventStream(target, (event, receivedAt) => {
    const id = event.type === 'message' ? summaryMessageId(event.data) : null;
    if (id === null) return;
    events++;
    if (!arrivals.has(id)) arrivals.set(id, receivedAt);
  });
  const latencies: number[] = [];
  try {
    for (let index = 0; index < messages; index++) {
      const reply = String((await transport.sendMail(mailFor(`[realtime-sse-${process.pid}-${index}]`))).response);
      const ackedAt = performance.now();
      const id = storedId(reply);
      if (!(await until(() => arrivals.has(id), EVENT_TIMEOUT_MS))) throw new Error(`no event for ${id} within ${EVENT_TIMEOUT_MS} ms (stream ended: ${stream.ended})`);
      latencies.push(arrivals.get(id)! - ackedAt);
    }
  } finally {
    stream.close();
    transport.close();
  }
  if (events !== messages) failures.push(`sse: ${events} message events for ${messages} messages`);
  const result = { messages, events_received: events, latency_ms: summarize(latencies) };
  progress(`sse: ${JSON.stringify(result.latency_ms)}`);
  return result;
}

/**
 * Many streams on one inbox: server RSS before and after opening them and after the messages reached them all,
 * delivery latency from each 250 to each stream's event, and whether every stream got every message exactly once.
 * Receipt times are taken in this one process, so they include its own turn around its event loop over all the sockets.
 */
async function streamsPhase(server: StartedServer, api: ApiClient, streamCount: number, messages: number, failures: string[]) {
  const { target, transport } = await newTarget(server, api, 'streams');
  const pid = server.process.pid!;
  const rssBefore = rssKb(pid);
  /** Per stream, the message ids of the events it received, in order, and when each arrived. */
  const received = Array.from({ length: streamCount }, () => [] as { id: string; at: number }[]);
  const streams: EventStream[] = [];
  const openStarted = performance.now();
  let next = 0;
  const opener = async () => {
    for (let index = next++; index < streamCount; index = next++) {
      const deliveries = received[index]!;
      streams.push(
        await openEventStream(target, (event, at) => {
          const id = event.type === 'message' ? summaryMessageId(event.data) : null;
          if (id !== null) deliveries.push({ id, at });
        }),
      );
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(OPEN_CONCURRENCY, streamCount) }, opener));
    const openSeconds = (performance.now() - openStarted) / 1000;
    const rssOpen = rssKb(pid);
    progress(`streams: ${streamCount} open in ${openSeconds.toFixed(1)} s; server RSS ${mb(rssBefore)} -> ${mb(rssOpen)} MB`);

    // Both ends share this machine's CPUs: the CPU each side spends per message tells whether the bench itself holds deliveries back.
    const serverCpuBefore = processCpuMs(pid);
    const benchCpuBefore = benchCpuMs();
    const ackedAt = new Map<string, number>();
    for (let index = 0; index < messages; index++) {
      const reply = String((await transport.sendMail(mailFor(`[realtime-streams-${process.pid}-${index}]`))).response);
      ackedAt.set(storedId(reply), performance.now());
      await sleep(STREAM_MESSAGE_GAP_MS);
    }
    // Missing deliveries are counted below rather than thrown at once, so a failed run still reports them.
    await until(() => received.every((deliveries) => deliveries.length >= messages), EVENT_TIMEOUT_MS);
    const rssAfter = rssKb(pid);
    const cpuPerMessage = { server: round((processCpuMs(pid) - serverCpuBefore) / messages, 1), bench: round((benchCpuMs() - benchCpuBefore) / messages, 1) };

    const latencies: number[] = [];
    let missed = 0;
    let duplicated = 0;
    let unexpected = 0;
    let incompleteStreams = 0;
    for (const deliveries of received) {
      const seen = new Set<string>();
      for (const { id, at } of deliveries) {
        const sentAt = ackedAt.get(id);
        if (sentAt === undefined) unexpected++;
        else if (seen.has(id)) duplicated++;
        else latencies.push(at - sentAt);
        seen.add(id);
      }
      const missing = [...ackedAt.keys()].filter((id) => !seen.has(id)).length;
      missed += missing;
      if (missing > 0) incompleteStreams++;
    }
    const endedEarly = streams.filter((stream) => stream.ended).length;
    const expected = streamCount * messages;
    if (missed > 0 || duplicated > 0 || unexpected > 0) {
      failures.push(`streams: of ${expected} deliveries ${missed} missed (on ${incompleteStreams} streams), ${duplicated} duplicated, ${unexpected} for messages not sent; ${endedEarly} streams ended early`);
    }
    const result = {
      streams: streamCount,
      messages,
      open_seconds: round(openSeconds, 2),
      server_rss_mb: { before: mb(rssBefore), streams_open: mb(rssOpen), after_delivery: mb(rssAfter) },
      memory_per_stream_kb: round((rssOpen - rssBefore) / streamCount, 1),
      deliveries: { expected, received: latencies.length, missed, duplicated, unexpected },
      incomplete_streams: incompleteStreams,
      streams_ended_early: endedEarly,
      latency_ms: latencies.length > 0 ? summarize(latencies) : null,
      cpu_ms_per_message: cpuPerMessage,
    };
    progress(`streams: ${JSON.stringify(result.latency_ms)}; server RSS after delivery ${mb(rssAfter)} MB`);
    return result;
  } finally {
    for (const stream of streams) stream.close();
    transport.close();
  }
}

async function run(server: StartedServer, phases: Phase[], options: { messages: number; streams: number; streamMessages: number }) {
  if (!server.defaultKey) throw new Error('the server printed no default key on its first start');
  const api = new ApiClient(server.httpUrl, server.defaultKey);
  const failures: string[] = [];
  const wait = phases.includes('wait') ? await waitPhase(server, api, options.messages) : undefined;
  const sse = phases.includes('sse') ? await ssePhase(server, api, options.messages, failures) : undefined;
  const streams = phases.includes('streams') ? await streamsPhase(server, api, options.streams, options.streamMessages, failures) : undefined;
  const listening = server.logs.find((entry) => typeof entry.http_port === 'number');
  const result = {
    bench: 'realtime',
    profile: String(listening?.profile ?? 'unknown'),
    wait,
    sse,
    streams,
    server_rss_mb: mb(rssKb(server.process.pid!)),
    node: process.version,
    cpus: os.cpus().length,
  };
  return { result, failures };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { messages: { type: 'string' }, streams: { type: 'string' }, 'stream-messages': { type: 'string' }, phase: { type: 'string' } } });
  const messages = positiveInt('--messages', values.messages, 500);
  const streams = positiveInt('--streams', values.streams, 1000);
  const streamMessages = positiveInt('--stream-messages', values['stream-messages'], 50);
  const phase = values.phase ?? 'all';
  if (phase !== 'all' && !(PHASES as readonly string[]).includes(phase)) throw new Error(`--phase must be one of ${PHASES.join(', ')} or all, got '${phase}'`);
  const phases = phase === 'all' ? [...PHASES] : [phase as Phase];
  if (phases.includes('streams')) checkDescriptorLimit(streams);
  const server = await startServer();
  try {
    const { result, failures } = await run(server, phases, { messages, streams, streamMessages });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    for (const failure of failures) process.stderr.write(`realtime bench: ${failure}\n`);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    await server.stop();
    await removeScratchData(server.dataDir);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`realtime bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
