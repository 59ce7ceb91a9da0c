// Tenant B of the noisy-neighbour bench, in a process of its own so the attacker's work never lags B's clocks: a capture every 100 ms over a kept SMTP connection, a list of its inbox and a read of one of its small messages (detail, or its one HTML message's /html) every 50 ms each, a new HTTP connection every 500 ms and a new SMTP session every second (what a new client meets), and a webhook to a fast local receiver; each timed and charged to the window (baseline or attack) it started in.
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { authPlain, RawSmtp, type SmtpReply } from '../../test/support/raw-smtp.js';
import { bodyOf, WebhookReceiver } from '../../test/support/webhook-receiver.js';
import { httpAnswer, noAnswer, smtpAnswer } from './answers.js';
import { percentile, round } from './measure.js';
import { keptConnectionOptions } from './smtp-load.js';

/** Where B works: its workspace's key, its inbox and that inbox's SMTP login. */
export interface BystanderTarget {
  httpUrl: string;
  smtpPort: number;
  key: string;
  inboxId: string;
  smtpUsername: string;
  smtpPassword: string;
}

export type ToBystander = { type: 'start'; target: BystanderTarget } | { type: 'window'; name: string | null } | { type: 'finish' };
export type FromBystander = { type: 'ready' } | { type: 'results'; windows: Record<string, WindowFigures> } | { type: 'failed'; error: string };

const SMTP_PERIOD_MS = 100;
const API_PERIOD_MS = 50;
const READ_PERIOD_MS = 50;
const NEW_HTTP_PERIOD_MS = 500;
const NEW_SMTP_PERIOD_MS = 1000;
/** B's detail reads go round its newest captures; every HTML_EVERY-th read is its HTML message's /html instead. */
const RECENT_KEPT = 20;
const HTML_EVERY = 4;
/** Longest one of B's requests may take before it counts as failed; far above any figure worth reporting. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How long B waits, once the bench is over, for webhook deliveries still on their way. */
const WEBHOOK_GRACE_MS = 30_000;
/** The bystander never outlives a bench that forgot it. */
const LIFETIME_MS = 20 * 60_000;
/** How many of a window's slowest requests are reported with when they started. */
const SLOWEST_KEPT = 3;
const ENVELOPE = { from: 'bystander@tenant-b.example.test', to: ['bystander-inbox@tenant-b.example.test'] };

interface Sample {
  window: string;
  /** When the request started, in ms since its window opened: says which phase of an attack an outlier fell in. */
  atMs: number;
  ms: number;
  failure: string | null;
}

interface Capture {
  window: string;
  /** Date.now() of the 250, the clock the receiver stamps arrivals with. */
  ackedAt: number;
}

/** Runs `once` every `periodMs` (at once after a request that took longer), recording each, until stopped. */
class PacedLoop {
  readonly samples: Sample[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(
    private readonly periodMs: number,
    private readonly once: () => Promise<string | null>,
    private readonly windowNow: () => { name: string; openedAt: number } | null,
  ) {
    this.done = this.loop();
  }

  private async loop(): Promise<void> {
    const deadline = performance.now() + LIFETIME_MS;
    let nextStart = performance.now();
    while (!this.stopped && performance.now() < deadline) {
      const wait = nextStart - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.stopped) break;
      const window = this.windowNow();
      const startedAt = performance.now();
      nextStart = startedAt + this.periodMs;
      let failure: string | null;
      try {
        failure = await this.once();
      } catch (error) {
        failure = noAnswer(error);
      }
      if (window !== null) this.samples.push({ window: window.name, atMs: startedAt - window.openedAt, ms: performance.now() - startedAt, failure });
    }
  }

  /** Lets the request in flight finish, so a stall that outlasts its window is still measured in full. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
  }
}

function latencyFigures(samples: Sample[]) {
  const times = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const failures: Record<string, number> = {};
  for (const sample of samples) if (sample.failure !== null) failures[sample.failure] = (failures[sample.failure] ?? 0) + 1;
  return {
    requests: samples.length,
    p50_ms: times.length > 0 ? round(percentile(times, 50)) : null,
    p99_ms: times.length > 0 ? round(percentile(times, 99)) : null,
    max_ms: times.length > 0 ? round(times.at(-1)!) : null,
    failed: samples.filter((sample) => sample.failure !== null).length,
    ...(Object.keys(failures).length > 0 ? { failures } : {}),
    slowest: [...samples]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_KEPT)
      .map((sample) => ({ ms: round(sample.ms), at_s: round(sample.atMs / 1000, 1) })),
  };
}

type LatencyFigures = ReturnType<typeof latencyFigures>;

export interface WindowFigures {
  /** Lists of B's inbox, on kept connections. */
  b_api: LatencyFigures;
  /** Reads of B's small messages: details, and one message's /html. */
  b_read: LatencyFigures;
  /** A list over a new HTTP connection, and a new SMTP session to AUTH: what a client arriving now meets. */
  b_new_connection: { http: LatencyFigures; smtp: LatencyFigures };
  /** The longest any of B's HTTP requests took (lists, reads, new connections). */
  b_api_worst_ms: number | null;
  /** B's failed requests and sessions, every kind together. */
  b_failures: number;
  b_smtp: LatencyFigures;
  b_webhook: { captures: number; delivered: number; missing: number; delay_p50_ms: number | null; delay_max_ms: number | null };
  /** The bystander's own event-loop delay: a large one means part of B's figures is the bench's, not the server's. */
  bystander_loop_delay_max_ms: number;
}

class Bystander {
  private window: string | null = null;
  private windowOpenedAt = 0;
  private readonly loopDelayMax = new Map<string, number>();
  private readonly loopDelay = monitorEventLoopDelay({ resolution: 10 });
  private readonly captures = new Map<string, Capture>();
  private api!: PacedLoop;
  private reads!: PacedLoop;
  private newHttp!: PacedLoop;
  private newSmtp!: PacedLoop;
  private smtp!: PacedLoop;
  /** B's newest stored captures, for its detail reads, and its one message with an HTML body. */
  private readonly recent: string[] = [];
  private htmlId = '';
  private readsMade = 0;
  private transport!: ReturnType<typeof nodemailer.createTransport>;
  private receiver!: WebhookReceiver;
  private sent = 0;

  constructor(private readonly target: BystanderTarget) {}

  async start(): Promise<void> {
    this.receiver = (await WebhookReceiver.start()).always(200);
    const hooked = await fetch(`${this.target.httpUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.target.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: this.receiver.url }),
    });
    if (hooked.status !== 201) throw new Error(`creating B's webhook answered ${hooked.status}: ${await hooked.text()}`);
    this.transport = nodemailer.createTransport({
      ...keptConnectionOptions({ port: this.target.smtpPort, username: this.target.smtpUsername, password: this.target.smtpPassword }),
      connectionTimeout: REQUEST_TIMEOUT_MS,
      greetingTimeout: REQUEST_TIMEOUT_MS,
      socketTimeout: REQUEST_TIMEOUT_MS,
    });
    // The connection is opened and logged in before any window, so no window is charged for it.
    const first = await this.capture();
    if (first !== null) throw new Error(`B's first capture failed: ${first}`);
    const html = String((await this.transport.sendMail({ envelope: ENVELOPE, from: ENVELOPE.from, to: ENVELOPE.to, subject: 'bystander html', text: 'Tenant B in HTML.', html: '<p>Tenant B <b>in HTML</b>.</p>' })).response);
    this.htmlId = /Message stored as (msg_[0-9a-z]+)/.exec(html)?.[1] ?? '';
    if (this.htmlId === '') throw new Error(`B's HTML message was not stored: ${html}`);
    this.loopDelay.enable();
    const windowNow = () => (this.window === null ? null : { name: this.window, openedAt: this.windowOpenedAt });
    this.api = new PacedLoop(API_PERIOD_MS, () => this.list(), windowNow);
    this.reads = new PacedLoop(READ_PERIOD_MS, () => this.readMessage(), windowNow);
    this.newHttp = new PacedLoop(NEW_HTTP_PERIOD_MS, () => this.listOnNewConnection(), windowNow);
    this.newSmtp = new PacedLoop(NEW_SMTP_PERIOD_MS, () => this.newSmtpSession(), windowNow);
    this.smtp = new PacedLoop(SMTP_PERIOD_MS, () => this.capture(), windowNow);
  }

  enter(name: string | null): void {
    if (this.window !== null) this.loopDelayMax.set(this.window, Math.max(this.loopDelayMax.get(this.window) ?? 0, this.loopDelay.max / 1e6));
    this.loopDelay.reset();
    this.window = name;
    this.windowOpenedAt = performance.now();
  }

  private async get(path: string): Promise<string | null> {
    const response = await fetch(`${this.target.httpUrl}${path}`, {
      headers: { authorization: `Bearer ${this.target.key}` },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = await response.text();
    return response.status === 200 ? null : httpAnswer(response.status, body);
  }

  private list(): Promise<string | null> {
    return this.get(`/v1/inboxes/${this.target.inboxId}/messages?limit=20`);
  }

  private readMessage(): Promise<string | null> {
    const index = this.readsMade++;
    if (index % HTML_EVERY === HTML_EVERY - 1) return this.get(`/v1/messages/${this.htmlId}/html`);
    return this.get(`/v1/messages/${this.recent[index % this.recent.length]}`);
  }

  /** A short list over a connection of its own, closed after it. */
  private listOnNewConnection(): Promise<string | null> {
    return new Promise((resolve, reject) => {
      const url = `${this.target.httpUrl}/v1/inboxes/${this.target.inboxId}/messages?limit=1`;
      const sent = http.get(url, { agent: false, headers: { authorization: `Bearer ${this.target.key}`, connection: 'close' }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.once('end', () => resolve(response.statusCode === 200 ? null : httpAnswer(response.statusCode ?? 0, body)));
        response.once('error', reject);
      });
      sent.once('error', reject);
    });
  }

  /** A new SMTP session as far as AUTH, then QUIT: the first reply that is not the next step's is the failure. */
  private async newSmtpSession(): Promise<string | null> {
    const client = RawSmtp.open(this.target.smtpPort);
    const expect = async (reply: Promise<SmtpReply>, code: number) => {
      const answer = await reply;
      return answer.code === code ? null : smtpAnswer(`${answer.code} ${answer.text}`);
    };
    try {
      return (
        (await expect(client.nextReply(REQUEST_TIMEOUT_MS), 220))
        ?? (await expect(client.command('EHLO bystander.test'), 250))
        ?? (await expect(client.command(authPlain({ port: this.target.smtpPort, username: this.target.smtpUsername, password: this.target.smtpPassword })), 235))
      );
    } finally {
      await client.quit();
    }
  }

  private async capture(): Promise<string | null> {
    const index = ++this.sent;
    const raw = [
      `From: Bystander <${ENVELOPE.from}>`,
      `To: <${ENVELOPE.to[0]}>`,
      `Subject: bystander ${index}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'Tenant B going about its business while tenant A misbehaves.',
      '',
    ].join('\r\n');
    const window = this.window;
    const reply = String((await this.transport.sendMail({ envelope: ENVELOPE, raw })).response);
    const stored = /^250 .*Message stored as (msg_[0-9a-z]+)/.exec(reply)?.[1];
    if (!stored) return smtpAnswer(reply);
    this.recent.push(stored);
    if (this.recent.length > RECENT_KEPT) this.recent.shift();
    if (window !== null) this.captures.set(stored, { window, ackedAt: Date.now() });
    return null;
  }

  /** Stops both loops, waits (bounded) for B's deliveries still on their way, and answers the figures per window. */
  async finish(): Promise<Record<string, WindowFigures>> {
    this.enter(null);
    await Promise.all([this.api, this.reads, this.newHttp, this.newSmtp, this.smtp].map((loop) => loop.stop()));
    this.transport.close();
    const deadline = Date.now() + WEBHOOK_GRACE_MS;
    const undelivered = () => {
      const arrived = this.arrivals();
      return [...this.captures.keys()].some((id) => !arrived.has(id));
    };
    while (undelivered() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const arrivals = this.arrivals();
    await this.receiver.close();

    const windows = new Set([...this.api.samples, ...this.smtp.samples].map((sample) => sample.window));
    const of = (loop: PacedLoop, window: string) => latencyFigures(loop.samples.filter((sample) => sample.window === window));
    const figures: Record<string, WindowFigures> = {};
    for (const window of windows) {
      const captured = [...this.captures].filter(([, capture]) => capture.window === window);
      const delays = captured
        .filter(([id]) => arrivals.has(id))
        .map(([id, capture]) => arrivals.get(id)! - capture.ackedAt)
        .sort((a, b) => a - b);
      const api = of(this.api, window);
      const read = of(this.reads, window);
      const newConnection = { http: of(this.newHttp, window), smtp: of(this.newSmtp, window) };
      const smtp = of(this.smtp, window);
      const worst = [api, read, newConnection.http].map((loop) => loop.max_ms).filter((ms) => ms !== null);
      figures[window] = {
        b_api: api,
        b_read: read,
        b_new_connection: newConnection,
        b_api_worst_ms: worst.length > 0 ? Math.max(...worst) : null,
        b_failures: [api, read, newConnection.http, newConnection.smtp, smtp].reduce((sum, loop) => sum + loop.failed, 0),
        b_smtp: smtp,
        b_webhook: {
          captures: captured.length,
          delivered: delays.length,
          missing: captured.length - delays.length,
          delay_p50_ms: delays.length > 0 ? round(percentile(delays, 50)) : null,
          delay_max_ms: delays.length > 0 ? round(delays.at(-1)!) : null,
        },
        bystander_loop_delay_max_ms: round(this.loopDelayMax.get(window) ?? 0),
      };
    }
    return figures;
  }

  /** The first arrival of each captured message's delivery (a delivery may arrive more than once). */
  private arrivals(): Map<string, number> {
    const first = new Map<string, number>();
    for (const request of this.receiver.requests) {
      const id = bodyOf<{ data?: { id?: string } }>(request).data?.id;
      if (id && !first.has(id)) first.set(id, request.receivedAt);
    }
    return first;
  }
}

/** Resolves once the message is handed to the channel, so a disconnect after it cannot drop it. */
function send(message: FromBystander): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, undefined, () => resolve()));
}

let bystander: Bystander | null = null;
process.on('message', (message: ToBystander) => {
  void (async () => {
    try {
      if (message.type === 'start') {
        bystander = new Bystander(message.target);
        await bystander.start();
        await send({ type: 'ready' });
      } else if (message.type === 'window') {
        bystander!.enter(message.name);
      } else {
        await send({ type: 'results', windows: await bystander!.finish() });
        process.disconnect();
      }
    } catch (error) {
      await send({ type: 'failed', error: (error as Error).stack ?? String(error) });
      process.disconnect();
    }
  })();
});
// The bench that started this process is gone: nothing is left to report to.
process.on('disconnect', () => process.exit(0));
