// Measures SMTP capture throughput (messages/s), per-message latency (p50/p95/p99) and server RSS for the built server (embedded profile; SANDBOX_TEST_PROFILE=cluster with the services up for the cluster profile); run `npm run build && node --import tsx scripts/bench/smtp-capture.ts [--messages 2000] [--clients 4] [--webhook]` (or SMTP_BENCH_MESSAGES / SMTP_BENCH_CLIENTS).
// With --webhook a workspace-wide webhook points at a local receiver, so capture pays for queueing a delivery per
// message, and the bench also reports how long the deliveries took to arrive and checks that every one did.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { ApiClient } from '../../test/support/api-client.js';
import { startServer, type StartedServer } from '../../test/support/server.js';
import { profileEnv, testProfile } from '../../test/support/profile.js';
import { loadConfig } from '../../src/config.js';
import { purgeClusterNamespace } from '../../src/storage/cluster/purge-namespace.js';
import { positiveInt, percentile, round, rssKb } from './measure.js';

const MESSAGE_BYTES = 5120;
const ENVELOPE = { from: 'bench-sender@bench.example.test', to: ['bench-inbox@bench.example.test'] };

/** A plain-text message of exactly MESSAGE_BYTES bytes, CRLF line endings, unique Subject and Message-ID. */
function buildMessage(index: number): string {
  const head = [
    `From: Bench Sender <${ENVELOPE.from}>`,
    `To: <${ENVELOPE.to[0]}>`,
    `Subject: smtp-capture bench ${index}`,
    `Message-ID: <bench-${index}-${process.pid}@bench.example.test>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    '',
  ].join('\r\n');
  const line = `${'The quick brown fox jumps over the lazy dog. '.repeat(2).slice(0, 76)}\r\n`;
  let body = '';
  while (head.length + body.length + line.length <= MESSAGE_BYTES - 2) body += line;
  body += `${'x'.repeat(MESSAGE_BYTES - 2 - head.length - body.length)}\r\n`;
  return head + body;
}


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

async function run(server: StartedServer, messages: number, clients: number, webhooks: DeliveryCounter | null) {
  if (!server.defaultKey) throw new Error('the server printed no default key on its first start');
  const api = new ApiClient(server.httpUrl, server.defaultKey);
  if (webhooks) {
    const hooked = await api.post('/v1/webhooks', { url: await webhooks.listen() });
    if (hooked.status !== 201) throw new Error(`creating the webhook answered ${hooked.status}`);
  }
  const created = await api.post<{ data: { id: string; smtp: { username: string; password: string } } }>('/v1/inboxes', { name: 'smtp-capture-bench' });
  if (created.status !== 201) throw new Error(`creating the inbox answered ${created.status}`);
  const inbox = created.json.data;

  // Built up front so message construction is not part of the measured time.
  const raws = Array.from({ length: messages }, (_, index) => buildMessage(index));
  const latencies: number[] = [];
  let next = 0;
  let firstSend = Infinity;
  let lastAck = 0;

  const client = async () => {
    // One SMTP connection per client, kept for every message it sends (nodemailer would otherwise reconnect every 100).
    const options: SMTPPool.Options = {
      pool: true,
      maxConnections: 1,
      maxMessages: Infinity,
      host: '127.0.0.1',
      port: server.smtpPort,
      secure: false,
      auth: { user: inbox.smtp.username, pass: inbox.smtp.password },
      tls: { rejectUnauthorized: false },
    };
    const transport = nodemailer.createTransport(options);
    try {
      while (next < messages) {
        const raw = raws[next++]!;
        const started = performance.now();
        firstSend = Math.min(firstSend, started);
        const info = await transport.sendMail({ envelope: ENVELOPE, raw });
        const acked = performance.now();
        if (!info.response.startsWith('250')) throw new Error(`unexpected reply: ${info.response}`);
        latencies.push(acked - started);
        lastAck = Math.max(lastAck, acked);
      }
    } finally {
      transport.close();
    }
  };
  await Promise.all(Array.from({ length: clients }, () => client()));

  let webhook: { delivered: number; last_delivery_after_last_250_ms: number } | null = null;
  if (webhooks) {
    await webhooks.waitFor(messages, 120_000);
    webhook = { delivered: webhooks.ids.size, last_delivery_after_last_250_ms: round(webhooks.lastArrival - lastAck) };
  }
  const rss = round(rssKb(server.process.pid!) / 1024, 1);
  const stored = await countMessages(api, inbox.id);
  if (stored !== messages) throw new Error(`the inbox holds ${stored} messages, expected ${messages}`);

  latencies.sort((a, b) => a - b);
  const seconds = (lastAck - firstSend) / 1000;
  const listening = server.logs.find((entry) => typeof entry.http_port === 'number');
  return {
    bench: 'smtp-capture',
    profile: String(listening?.profile ?? 'unknown'),
    clients,
    messages,
    message_bytes: MESSAGE_BYTES,
    seconds: round(seconds, 3),
    messages_per_second: round(messages / seconds, 1),
    latency_ms: { p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)), p99: round(percentile(latencies, 99)) },
    server_rss_mb: rss,
    stored_verified: stored,
    ...(webhook ? { webhook } : {}),
    node: process.version,
    cpus: os.cpus().length,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { messages: { type: 'string' }, clients: { type: 'string' }, webhook: { type: 'boolean' } } });
  const messages = positiveInt('--messages', values.messages ?? process.env.SMTP_BENCH_MESSAGES, 2000);
  const clients = positiveInt('--clients', values.clients ?? process.env.SMTP_BENCH_CLIENTS, 4);
  const webhooks = values.webhook ? new DeliveryCounter() : null;
  // The receiver listens on loopback, which only a server allowing private webhook targets may reach.
  const server = await startServer(webhooks ? { env: { SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1' } } : {});
  try {
    const result = await run(server, messages, clients, webhooks);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await server.stop();
    await webhooks?.close();
    if (testProfile() === 'cluster') await purgeClusterNamespace(loadConfig({ ...process.env, ...profileEnv(server.dataDir) }));
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`smtp-capture bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
