// Measures SMTP capture throughput (messages/s), per-message latency (p50/p95/p99), the server's CPU time per message
// (all its threads) and its RSS (idle, after the warm-up, peak and at the end) for the built server (embedded profile;
// SANDBOX_TEST_PROFILE=cluster with the services up for the cluster profile); run `npm run bench:smtp -- [--messages 2000]
// [--clients 4] [--shape text|html] [--warmup 500] [--webhook] [--cpu-prof DIR]` (or SMTP_BENCH_MESSAGES /
// SMTP_BENCH_CLIENTS), or `npm run bench:smtp -- --stall-probe [--shapes nested-div-2mb,...]`.
// CPU per message and RSS hold on a busy machine where the rate does not: other work slows the server's clock, not its
// cost. --cpu-prof DIR has the server (every thread) write V8 CPU profiles into DIR when it stops.
// With --webhook a workspace-wide webhook points at a local receiver, so capture pays for queueing a delivery per
// message, and the bench also reports how long the deliveries took to arrive and checks that every one did.
// With --stall-probe it measures no throughput; it captures and reads each hostile message shape while a loop of
// API requests and one of small SMTP messages run, and reports how long those were kept waiting (stall-probe.ts).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ApiClient } from '../../test/support/api-client.js';
import { startServer, type StartedServer } from '../../test/support/server.js';
import { loadAverage, positiveInt, processCpuMs, round, rssKb, sampleRss, threadCpuMs } from './measure.js';
import { benchMessageOf, driveSmtpLoad, MESSAGE_BYTES, MESSAGE_SHAPES, summarizeLoad, type MessageShape } from './smtp-load.js';
import { runStallProbe, STALL_PROBE_MAX_MESSAGE_BYTES } from './stall-probe.js';
import { removeScratchData } from '../../test/support/scratch-data.js';

async function countMessages(api: ApiClient, inboxId: string): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const page = await api.get<{ data: unknown[]; next_cursor?: string }>(`/v1/inboxes/${inboxId}/messages?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (page.status !== 200) throw new Error(`listing the inbox answered ${page.status}`);
    count += page.json.data.length;
    cursor = page.json.next_cursor;
  } while (cursor);
  return count;
}

/** Counts webhook deliveries (distinct X-Sandbox-Delivery ids) and notes when the last new one arrived. */
class DeliveryCounter {
  readonly ids = new Set<string>();
  lastArrival = 0;
  private readonly server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['x-sandbox-delivery']);
      if (!this.ids.has(id)) this.lastArrival = performance.now();
      this.ids.add(id);
      response.writeHead(204).end();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async waitFor(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.ids.size < count) {
      if (Date.now() > deadline) throw new Error(`${this.ids.size} of ${count} webhook deliveries arrived within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface CaptureRun {
  messages: number;
  clients: number;
  shape: MessageShape;
  /** Messages captured first, unmeasured, so the server's JIT and worker start-up are not charged to the run. */
  warmup: number;
}

async function run(server: StartedServer, { messages, clients, shape, warmup }: CaptureRun, webhooks: DeliveryCounter | null) {
  if (!server.defaultKey) throw new Error('the server printed no default key on its first start');
  const pid = server.process.pid!;
  const idleRssKb = rssKb(pid);
  const api = new ApiClient(server.httpUrl, server.defaultKey);
  if (webhooks) {
    const hooked = await api.post('/v1/webhooks', { url: await webhooks.listen() });
    if (hooked.status !== 201) throw new Error(`creating the webhook answered ${hooked.status}`);
  }
  const created = await api.post<{ data: { id: string; smtp: { username: string; password: string } } }>('/v1/inboxes', { name: 'smtp-capture-bench' });
  if (created.status !== 201) throw new Error(`creating the inbox answered ${created.status}`);
  const inbox = created.json.data;
  const target = { port: server.smtpPort, username: inbox.smtp.username, password: inbox.smtp.password };

  // Built up front so message construction is not part of the measured time; the warm-up sends messages of its own.
  const build = benchMessageOf(shape);
  const raws = Array.from({ length: messages }, (_, index) => build(warmup + index));
  if (warmup > 0) await driveSmtpLoad(target, warmup, build, clients);
  const warmRssKb = rssKb(pid);
  const loadAtStart = loadAverage();
  const rss = sampleRss(pid);
  const serverCpuBefore = processCpuMs(pid);
  const eventLoopCpuBefore = threadCpuMs(pid, pid);
  const clientCpuBefore = processCpuMs(process.pid);
  let peakRssKb: number;
  let load: Awaited<ReturnType<typeof driveSmtpLoad>>;
  try {
    load = await driveSmtpLoad(target, messages, (index) => raws[index]!, clients);
  } finally {
    peakRssKb = rss.stop();
  }
  const serverCpuMs = processCpuMs(pid) - serverCpuBefore;
  const eventLoopCpuMs = threadCpuMs(pid, pid) - eventLoopCpuBefore;
  const clientCpuMs = processCpuMs(process.pid) - clientCpuBefore;
  const loadAtEnd = loadAverage();

  let webhook: { delivered: number; last_delivery_after_last_250_ms: number } | null = null;
  if (webhooks) {
    await webhooks.waitFor(warmup + messages, 120_000);
    webhook = { delivered: webhooks.ids.size, last_delivery_after_last_250_ms: round(webhooks.lastArrival - load.lastAckAt) };
  }
  const endRssKb = rssKb(pid);
  const stored = await countMessages(api, inbox.id);
  if (stored !== warmup + messages) throw new Error(`the inbox holds ${stored} messages, expected ${warmup + messages}`);

  const listening = server.logs.find((entry) => typeof entry.http_port === 'number');
  const mb = (kb: number) => round(kb / 1024, 1);
  return {
    bench: 'smtp-capture',
    profile: String(listening?.profile ?? 'unknown'),
    clients,
    messages,
    shape,
    message_bytes: MESSAGE_BYTES,
    unmeasured_warmup_messages: warmup,
    ...summarizeLoad(load),
    // Every thread of each process, over the measured messages only: on a shared machine these hold where the rate does not.
    server_cpu_ms_per_message: round(serverCpuMs / messages, 3),
    // The event loop's thread alone (SMTP, HTTP, the pipeline's steps); the rest is workers, the writer, GC and libuv threads.
    server_event_loop_cpu_ms_per_message: round(eventLoopCpuMs / messages, 3),
    client_cpu_ms_per_message: round(clientCpuMs / messages, 3),
    server_rss_mb: { idle: mb(idleRssKb), after_warmup: mb(warmRssKb), peak: mb(peakRssKb), end: mb(endRssKb) },
    stored_verified: stored,
    ...(webhook ? { webhook } : {}),
    node: process.version,
    cpus: os.cpus().length,
    load_average_1m: { start: loadAtStart, end: loadAtEnd },
  };
}

async function stallProbe(server: StartedServer, shapes: string[]) {
  const listening = server.logs.find((entry) => typeof entry.http_port === 'number');
  const loadAtStart = loadAverage();
  const probed = await runStallProbe(server, shapes);
  return {
    bench: 'smtp-stall-probe',
    profile: String(listening?.profile ?? 'unknown'),
    max_message_bytes: STALL_PROBE_MAX_MESSAGE_BYTES,
    note: `SANDBOX_MAX_MESSAGE_BYTES=${STALL_PROBE_MAX_MESSAGE_BYTES} (30 MiB, above the 25 MiB default) so the 24.5 MiB shape and its headers are admitted`,
    ...probed,
    node: process.version,
    cpus: os.cpus().length,
    load_average_1m: { start: loadAtStart, end: loadAverage() },
  };
}

/**
 * A folder holding a `node` that runs this Node with the CPU profiler on, writing into `profileDir`: scripts/start runs
 * the `node` it finds first on PATH, and Node refuses --cpu-prof in NODE_OPTIONS.
 */
function profilingNode(profileDir: string): string {
  fs.mkdirSync(profileDir, { recursive: true });
  const shimDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smtp-capture-bench-node-'));
  const shim = path.join(shimDir, 'node');
  fs.writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' --cpu-prof --cpu-prof-dir='${profileDir}' "$@"\n`, { mode: 0o755 });
  return shimDir;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      messages: { type: 'string' },
      clients: { type: 'string' },
      shape: { type: 'string' },
      warmup: { type: 'string' },
      webhook: { type: 'boolean' },
      'cpu-prof': { type: 'string' },
      'stall-probe': { type: 'boolean' },
      shapes: { type: 'string' },
    },
  });
  const messages = positiveInt('--messages', values.messages ?? process.env.SMTP_BENCH_MESSAGES, 2000);
  const clients = positiveInt('--clients', values.clients ?? process.env.SMTP_BENCH_CLIENTS, 4);
  const shape = values.shape ?? 'text';
  if (!(MESSAGE_SHAPES as readonly string[]).includes(shape)) throw new Error(`--shape must be one of ${MESSAGE_SHAPES.join(', ')}, got '${shape}'`);
  const warmup = values.warmup === '0' ? 0 : positiveInt('--warmup', values.warmup, 500);
  const webhooks = values.webhook ? new DeliveryCounter() : null;
  const env: Record<string, string> = {};
  // The receiver listens on loopback, which only a server allowing private webhook targets may reach.
  if (webhooks) env.SANDBOX_WEBHOOK_ALLOW_PRIVATE = '1';
  if (values['stall-probe']) env.SANDBOX_MAX_MESSAGE_BYTES = String(STALL_PROBE_MAX_MESSAGE_BYTES);
  const profileDir = values['cpu-prof'] ? path.resolve(values['cpu-prof']) : null;
  if (profileDir) env.PATH = `${profilingNode(profileDir)}${path.delimiter}${process.env.PATH ?? ''}`;
  const server = await startServer({ env });
  try {
    const result = values['stall-probe']
      ? await stallProbe(server, values.shapes ? values.shapes.split(',').filter((name) => name !== '') : [])
      : await run(server, { messages, clients, shape: shape as MessageShape, warmup }, webhooks);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await server.stop();
    await webhooks?.close();
    await removeScratchData(server.dataDir);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`smtp-capture bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
