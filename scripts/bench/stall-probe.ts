// The smtp-capture bench's stall probe: captures and reads each hostile message shape while cheap API requests and small SMTP messages run back to back, and reports how long those waited.
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import nodemailer from 'nodemailer';
import { HOSTILE_SHAPES, type HostileShape } from '../../test/support/hostile-messages.js';
import type { StartedServer } from '../../test/support/server.js';
import { percentile, round, rssKb, sampleRss } from './measure.js';
import { keptConnectionOptions, type SmtpTarget } from './smtp-load.js';

/** The server's size limit while probing: the 24.5 MiB shape plus headroom, above the 25 MiB default so the shape tests the parser, not the limit. */
export const STALL_PROBE_MAX_MESSAGE_BYTES = 30 * 1024 * 1024;
/** How long one shape's capture, or its read, may take before the bench gives up on it (and its probe loops end). */
const SHAPE_TIMEOUT_MS = 10 * 60_000;
/** The probe alone against an idle server first, so the figures under load have something to compare with. */
const BASELINE_MS = 2000;
const HOSTILE_ENVELOPE = { from: 'hostile@sender.example.test', to: ['target@sandbox.example.test'] };
const PROBE_ENVELOPE = { from: 'probe@bench.example.test', to: ['probe-inbox@bench.example.test'] };
const PROBE_RAW = [
  `From: Probe <${PROBE_ENVELOPE.from}>`,
  `To: <${PROBE_ENVELOPE.to[0]}>`,
  'Subject: stall probe',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=us-ascii',
  '',
  'A small message sent back to back while a hostile one is captured or read.',
  '',
].join('\r\n');

interface Sample {
  startedAt: number;
  ms: number;
  ok: boolean;
}

/** Runs one request after another, recording each, until stopped or past its deadline. */
class ProbeLoop {
  readonly samples: Sample[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(private readonly once: () => Promise<boolean>, private readonly deadline: number) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.stopped && performance.now() < this.deadline) {
      const startedAt = performance.now();
      let ok = false;
      try {
        ok = await this.once();
      } catch {
        // A refused or timed-out request is a failed sample, not the end of the probe.
      }
      this.samples.push({ startedAt, ms: performance.now() - startedAt, ok });
    }
  }

  /** Lets the request in flight finish, so a stall that outlasts the window is still measured in full. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

/** Requests started in [from, to): a request that started inside the window is charged to it however long it took. */
function windowStats(samples: Sample[], from: number, to: number) {
  const inside = samples.filter((sample) => sample.startedAt >= from && sample.startedAt < to);
  const times = inside.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    requests: inside.length,
    failed: inside.filter((sample) => !sample.ok).length,
    p99_ms: times.length > 0 ? round(percentile(times, 99)) : null,
    max_ms: times.length > 0 ? round(times.at(-1)!) : null,
  };
}

interface Inbox {
  id: string;
  smtp: { username: string; password: string };
}

async function createInbox(server: StartedServer, key: string, name: string): Promise<Inbox> {
  const response = await fetch(`${server.httpUrl}/v1/inboxes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  if (response.status !== 201) throw new Error(`creating inbox ${name} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: Inbox }).data;
}

type Transport = ReturnType<typeof nodemailer.createTransport>;

async function sendProbeMessage(transport: Transport): Promise<boolean> {
  return String((await transport.sendMail({ envelope: PROBE_ENVELOPE, raw: PROBE_RAW })).response).startsWith('250');
}

/**
 * The API probe and the SMTP probe, both against the idle or the busy server. The SMTP probe's connection is opened
 * once, before the baseline, so no window is charged for connecting and authenticating.
 */
function startProbes(server: StartedServer, key: string, probeTransport: Transport) {
  const deadline = performance.now() + 2 * SHAPE_TIMEOUT_MS;
  const workspaceUrl = `${server.httpUrl}/v1/workspace`;
  const headers = { authorization: `Bearer ${key}` };
  const api = new ProbeLoop(async () => {
    const response = await fetch(workspaceUrl, { headers });
    await response.arrayBuffer();
    return response.status === 200;
  }, deadline);
  const smtp = new ProbeLoop(() => sendProbeMessage(probeTransport), deadline);
  return {
    api,
    smtp,
    async stop() {
      await Promise.all([api.stop(), smtp.stop()]);
    },
  };
}

type Probes = ReturnType<typeof startProbes>;

function probeStats(probes: Probes, from: number, to: number) {
  return { api: windowStats(probes.api.samples, from, to), smtp: windowStats(probes.smtp.samples, from, to) };
}

/**
 * The hostile sender's program, on a thread of its own: writing 25 MB through nodemailer (dot-stuffing included)
 * would otherwise lag the probes' event loop, and charge the bench's own wait to the server. Plain JavaScript from
 * a string, since a thread's entry is loaded before tsx's loader is in place.
 */
const HOSTILE_SENDER = `
const { parentPort, workerData } = require('node:worker_threads');
const nodemailer = require(workerData.nodemailer);
const transport = nodemailer.createTransport(workerData.options);
const started = performance.now();
transport.sendMail({ envelope: workerData.envelope, raw: Buffer.from(workerData.raw) }).then(
  (info) => ({ reply: String(info.response), ms: performance.now() - started }),
  // A refusal (552 for size, 451 for storage) arrives as an error carrying the server's reply.
  (error) => ({ reply: error.response ?? 'no reply: ' + error.message, ms: performance.now() - started }),
).then((result) => {
  transport.close();
  parentPort.postMessage(result);
});
`;

/** Sends one hostile message over a connection of its own, off this thread, and answers the reply's code, text and time. */
async function sendHostile(target: SmtpTarget, raw: Buffer): Promise<{ reply: string; ms: number }> {
  const sender = new Worker(HOSTILE_SENDER, {
    eval: true,
    workerData: {
      nodemailer: createRequire(import.meta.url).resolve('nodemailer'),
      options: { ...keptConnectionOptions(target), socketTimeout: SHAPE_TIMEOUT_MS },
      envelope: HOSTILE_ENVELOPE,
      raw,
    },
  });
  try {
    return await new Promise((resolve, reject) => {
      sender.once('message', resolve);
      sender.once('error', reject);
      sender.once('exit', (code) => reject(new Error(`the hostile sender thread exited (${code}) before the server replied`)));
    });
  } finally {
    await sender.terminate();
  }
}

/** Whether the stored message is listed in its inbox and how its detail answers, timed while the probes run. */
async function readBack(server: StartedServer, key: string, inboxId: string, messageId: string) {
  const headers = { authorization: `Bearer ${key}` };
  const signal = () => AbortSignal.timeout(SHAPE_TIMEOUT_MS);
  const listStarted = performance.now();
  // The hostile inbox gets one message per shape, so the newest page holds the one just stored.
  const list = await fetch(`${server.httpUrl}/v1/inboxes/${inboxId}/messages?limit=5`, { headers, signal: signal() });
  const page = (await list.json()) as { data?: { id: string }[] };
  const listMs = performance.now() - listStarted;
  const detailStarted = performance.now();
  const detail = await fetch(`${server.httpUrl}/v1/messages/${messageId}`, { headers, signal: signal() });
  const body = (await detail.json()) as { data?: { parse_error?: string } };
  const detailMs = performance.now() - detailStarted;
  return {
    listed: page.data?.some((summary) => summary.id === messageId) ?? false,
    list_ms: round(listMs),
    detail: { status: detail.status, ms: round(detailMs), parse_error: body.data?.parse_error ?? null },
  };
}

async function probeShape(server: StartedServer, key: string, hostile: Inbox, probeTransport: Transport, shape: HostileShape) {
  const raw = shape.build();
  const target = { port: server.smtpPort, username: hostile.smtp.username, password: hostile.smtp.password };
  const rss = sampleRss(server.process.pid!);
  // The probes run on this thread: if its event loop lagged anyway, part of a wait is ours, not the server's.
  const benchLoop = monitorEventLoopDelay({ resolution: 10 });
  benchLoop.enable();
  const probes = startProbes(server, key, probeTransport);
  const captureStarted = performance.now();
  let sent: Awaited<ReturnType<typeof sendHostile>>;
  let replied: number;
  let read: Awaited<ReturnType<typeof readBack>> | null = null;
  let readDone: number;
  let rssPeakKb: number;
  try {
    sent = await sendHostile(target, raw);
    replied = performance.now();
    const stored = /Message stored as (msg_[0-9a-z]+)/.exec(sent.reply)?.[1];
    if (stored) read = await readBack(server, key, hostile.id, stored);
    readDone = performance.now();
  } finally {
    // Stopped before the figures are taken, so a request still waiting on the server is counted in full.
    await probes.stop();
    rssPeakKb = rss.stop();
    benchLoop.disable();
  }
  return {
    shape: shape.name,
    bytes: raw.length,
    smtp: { code: Number(sent.reply.slice(0, 3)) || null, reply: sent.reply.slice(0, 160), ms: round(sent.ms) },
    ...(read ?? { listed: false, list_ms: null, detail: null }),
    probe_during_capture: probeStats(probes, captureStarted, replied),
    probe_during_read: read ? probeStats(probes, replied, readDone) : null,
    server_rss_peak_mb: round(rssPeakKb / 1024, 1),
    bench_event_loop_delay_max_ms: round(benchLoop.max / 1e6),
  };
}

/** Probes the shapes named in `only` (all when empty), one at a time, after a baseline of the probe alone. */
export async function runStallProbe(server: StartedServer, only: string[]) {
  if (!server.defaultKey) throw new Error('the server printed no default key on its first start');
  const unknown = only.filter((name) => !HOSTILE_SHAPES.some((shape) => shape.name === name));
  if (unknown.length > 0) throw new Error(`unknown shape(s) ${unknown.join(', ')}; known: ${HOSTILE_SHAPES.map((shape) => shape.name).join(', ')}`);
  const key = server.defaultKey;
  const hostile = await createInbox(server, key, 'stall-probe-hostile');
  // A second inbox, so the probe's small messages stand for another user's mail arriving meanwhile.
  const probeInbox = await createInbox(server, key, 'stall-probe-probe');
  const probeTransport = nodemailer.createTransport(keptConnectionOptions({ port: server.smtpPort, username: probeInbox.smtp.username, password: probeInbox.smtp.password }));
  try {
    if (!(await sendProbeMessage(probeTransport))) throw new Error('the first probe message was not answered 250');
    const baseline = startProbes(server, key, probeTransport);
    const baselineStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, BASELINE_MS));
    const baselineEnded = performance.now();
    await baseline.stop();

    const shapes = [];
    for (const shape of HOSTILE_SHAPES.filter((candidate) => only.length === 0 || only.includes(candidate.name))) {
      process.stderr.write(`[stall-probe] ${shape.name} ...\n`);
      const result = await probeShape(server, key, hostile, probeTransport, shape);
      process.stderr.write(`[stall-probe] ${shape.name}: ${JSON.stringify(result)}\n`);
      shapes.push(result);
    }
    return {
      baseline: probeStats(baseline, baselineStarted, baselineEnded),
      shapes,
      server_rss_mb_after: round(rssKb(server.process.pid!) / 1024, 1),
    };
  } finally {
    probeTransport.close();
  }
}
