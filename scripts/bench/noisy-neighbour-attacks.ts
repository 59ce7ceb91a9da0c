// Tenant A's attacks for the noisy-neighbour bench (issue 23), one per way a tenant could slow the others: each on loopback only, bounded in count and time, counting what the server answered A.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import sharp from 'sharp';
import { MAX_QUERY_LENGTH, QUERY_TEXT_LIMITS } from '../../src/query/parse-query.js';
import type { ApiClient } from '../../test/support/api-client.js';
import type { InboxWithCredentialsJson, MessageDetailJson } from '../../test/support/api-json.js';
import { expectOk } from '../../test/support/envelope.js';
import { authPlain, buildMessage, RawSmtp, type SmtpReply } from '../../test/support/raw-smtp.js';
import { credentialsOf, type SmtpCredentials } from '../../test/support/smtp.js';
import { WebhookReceiver } from '../../test/support/webhook-receiver.js';
import { AnswerCounts, httpAnswer, noAnswer, smtpAnswer } from './answers.js';
import { keptConnectionOptions } from './smtp-load.js';

export const ATTACK_NAMES = ['heavy-queries', 'tag-rules', 'connection-flood', 'signed-downloads', 'slow-webhooks', 'large-transactions', 'hostile-thumbnails'] as const;
export type AttackName = (typeof ATTACK_NAMES)[number];

/** Tenant A: its workspace's key, for the API and for the inboxes it captures into. */
export interface Attacker {
  httpUrl: string;
  api: ApiClient;
  key: string;
}

export interface AttackOptions {
  /** How long one attack keeps starting new work (work in flight is let finish, within A_TIMEOUT_MS). */
  windowMs: number;
  /** Tag rules A tries to create (it stops at the first refusal: the plan's cap). */
  tagRules: number;
  /** Idle connections A tries to open, SMTP and HTTP each. */
  floodConnections: number;
}

export interface Attack {
  /** What A needs in place before B's baseline (messages stored, images made); not measured. */
  prepare?(attacker: Attacker): Promise<void>;
  /** The attack itself; answers what A did, besides the answers it counts. */
  run(attacker: Attacker, answers: AnswerCounts): Promise<Record<string, unknown>>;
  /** Releases what the attack kept for itself (a receiver), at the end of the bench. */
  dispose?(): Promise<void>;
}

/** Longest one of A's requests or SMTP replies may take; the attack's work in flight ends within it. */
const A_TIMEOUT_MS = 60_000;
const A_ENVELOPE = { from: 'attacker@tenant-a.example.test', to: ['target@tenant-a.example.test'] };
/** The loopback address the connection flood comes from, so per-address caps tell it from B (127.0.0.1). */
export const FLOOD_ADDRESS = '127.0.0.66';

const untilDeadline = (deadline: number) => performance.now() < deadline;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Pseudo-random lowercase words from a fixed seed, as CRLF lines of at most 76 characters, `bytes` long: text a search must read. */
function prose(bytes: number, seed: number): string {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
  const lines: string[] = [];
  let length = 0;
  while (length < bytes) {
    let line = '';
    while (line.length < 66) {
      const wordLength = 2 + (next() % 8);
      for (let i = 0; i < wordLength; i++) line += String.fromCharCode(97 + (next() % 26));
      line += ' ';
    }
    lines.push(line.trimEnd());
    length += line.length + 1;
  }
  return lines.join('\r\n');
}

function plainMessage(subject: string, body: string): Buffer {
  return buildMessage([`From: <${A_ENVELOPE.from}>`, `To: <${A_ENVELOPE.to[0]}>`, `Subject: ${subject}`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=us-ascii'], body);
}

interface Part {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A multipart/mixed message: a short text, then each part base64-encoded as an attachment. */
function multipartMessage(subject: string, parts: Part[]): Buffer {
  const boundary = `noisy-${randomBytes(8).toString('hex')}`;
  const chunks = [
    [`From: <${A_ENVELOPE.from}>`, `To: <${A_ENVELOPE.to[0]}>`, `Subject: ${subject}`, 'MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${boundary}"`, '', ''].join('\r\n'),
    [`--${boundary}`, 'Content-Type: text/plain; charset=us-ascii', '', 'Attachments follow.', ''].join('\r\n'),
  ];
  for (const part of parts) {
    chunks.push(
      [
        `--${boundary}`,
        `Content-Type: ${part.contentType}; name="${part.filename}"`,
        'Content-Transfer-Encoding: base64',
        `Content-Disposition: attachment; filename="${part.filename}"`,
        '',
        part.content.toString('base64').replace(/.{76}/g, '$&\r\n'),
        '',
      ].join('\r\n'),
    );
  }
  chunks.push(`--${boundary}--\r\n`);
  return Buffer.from(chunks.join(''), 'latin1');
}

/** Terms of letters in an order prose never has, so no message matches them and a negation matches every message. */
function absentTerm(length: number, seed: number): string {
  const letters = 'qxzjv';
  let term = '';
  for (let i = 0; i < length; i++) term += letters[(seed * 7 + i * (seed + 3)) % letters.length];
  return term;
}

/**
 * The costliest query the caps allow: every short term (which no index serves) and long ones filling the rest of the
 * term and character budget, all negated and all absent, so every message matches and is read in full.
 */
function costliestQuery(seed: number): string {
  const { terms, needleCharacters, shortTerms } = QUERY_TEXT_LIMITS;
  const shortOnes = Array.from({ length: shortTerms }, (_, index) => absentTerm(2, seed + index));
  const longLength = Math.floor((needleCharacters - 2 * shortTerms) / (terms - shortTerms));
  const longOnes = Array.from({ length: terms - shortTerms }, (_, index) => absentTerm(longLength, seed + shortTerms + index));
  return [...shortOnes, ...longOnes].map((term) => `-${term}`).join(' ');
}

/** What the issue measured: negated two-letter terms up to the length cap, far past the term caps (400 invalid_query). */
function pastCapQuery(): string {
  const terms: string[] = [];
  for (let index = 0; (terms.length + 1) * 4 <= MAX_QUERY_LENGTH; index++) terms.push(`-${String.fromCharCode(122 - (index % 26))}${String.fromCharCode(122 - (Math.floor(index / 26) % 26))}`);
  return terms.join(' ');
}

const authorized = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${key}` } });

/** One of A's HTTP requests, its answer counted; the answer's status and body, or null when none came. */
async function request(answers: AnswerCounts, url: string, init: RequestInit = {}): Promise<{ status: number; body: Buffer } | null> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(A_TIMEOUT_MS) });
    const body = Buffer.from(await response.arrayBuffer());
    answers.add(httpAnswer(response.status, response.status >= 400 ? body.toString('utf8', 0, 2000) : ''));
    return { status: response.status, body };
  } catch (error) {
    answers.add(noAnswer(error));
    return null;
  }
}

async function createInbox(attacker: Attacker, name: string): Promise<InboxWithCredentialsJson> {
  return expectOk<InboxWithCredentialsJson>(await attacker.api.post('/v1/inboxes', { name }), 201, `creating A's inbox ${name}`);
}

/**
 * Sends messages 0..count-1 over `clients` kept connections until the deadline, counting each reply; answers the
 * stored ids. A refusal is counted and the next message sent (the pool reconnects when the server closed).
 */
async function sendMessages(target: SmtpCredentials, messageAt: (index: number) => Buffer, count: number, clients: number, answers: AnswerCounts, deadline: number): Promise<string[]> {
  const stored: string[] = [];
  let next = 0;
  const client = async () => {
    const transport = nodemailer.createTransport({ ...keptConnectionOptions(target), socketTimeout: A_TIMEOUT_MS, greetingTimeout: A_TIMEOUT_MS });
    try {
      while (next < count && untilDeadline(deadline)) {
        const index = next++;
        try {
          const reply = String((await transport.sendMail({ envelope: A_ENVELOPE, raw: messageAt(index) })).response);
          answers.add(smtpAnswer(reply));
          const id = /Message stored as (msg_[0-9a-z]+)/.exec(reply)?.[1];
          if (id) stored.push(id);
        } catch (error) {
          answers.add(noAnswer(error));
        }
      }
    } finally {
      transport.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, count) }, () => client()));
  return stored;
}

/** Setup's sends must all be stored: A's attack needs them in place. */
async function sendForSetup(target: SmtpCredentials, messageAt: (index: number) => Buffer, count: number, clients: number, what: string): Promise<string[]> {
  const answers = new AnswerCounts();
  const stored = await sendMessages(target, messageAt, count, clients, answers, performance.now() + 10 * 60_000);
  if (stored.length !== count) throw new Error(`${what}: ${stored.length} of ${count} messages stored; answers ${JSON.stringify(answers.sorted())}`);
  return stored;
}

/** Runs `workers` loops of at most `perWorker` steps each until the deadline. */
async function workersUntil(workers: number, perWorker: number, deadline: number, step: (worker: number, index: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let index = 0; index < perWorker && untilDeadline(deadline); index++) await step(worker, index);
    }),
  );
}

/** Heavy queries and batches: list requests with the costliest query the caps allow, 3 at a time, and batches over the whole workspace. */
function heavyQueries(options: AttackOptions): Attack {
  const MESSAGES = 120;
  const BODY_BYTES = 130 * 1024;
  const PARALLEL = 3;
  let inbox: InboxWithCredentialsJson;
  return {
    async prepare(attacker) {
      inbox = await createInbox(attacker, 'heavy-queries');
      await sendForSetup(credentialsOf(inbox), (index) => plainMessage(`heavy ${index}`, prose(BODY_BYTES, index + 1)), MESSAGES, 2, 'heavy-queries');
    },
    async run(attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const listUrl = (q: string) => `${attacker.httpUrl}/v1/inboxes/${inbox.id}/messages?limit=50&q=${encodeURIComponent(q)}`;
      let lists = 0;
      let pastCap = 0;
      let batches = 0;
      const past = pastCapQuery();
      await Promise.all([
        workersUntil(PARALLEL, 200, deadline, async (worker, index) => {
          // Every fourth request is past the caps, as the attacker sent them; the rest at the caps.
          if (index % 4 === 3) pastCap++;
          else lists++;
          await request(answers, listUrl(index % 4 === 3 ? past : costliestQuery(worker * 1000 + index)), authorized(attacker.key));
        }),
        workersUntil(1, 200, deadline, async (_worker, index) => {
          batches++;
          const body = JSON.stringify({ action: index % 2 === 0 ? 'read' : 'unread', query: costliestQuery(index) });
          await request(answers, `${attacker.httpUrl}/v1/messages/batch`, authorized(attacker.key, { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
        }),
      ]);
      return { inbox_messages: MESSAGES, body_bytes: BODY_BYTES, parallel: PARALLEL, lists_at_caps: lists, lists_past_caps: pastCap, batches, query_at_caps: costliestQuery(0) };
    },
  };
}

/** Expensive tag rules: as many as the plan allows (up to a bound), each with the costliest query, then 256 KB arrivals. */
function tagRules(options: AttackOptions): Attack {
  const MESSAGE_BYTES = 256 * 1024;
  /** Above what two connections send in a window, so the window, not the count, ends the arrivals. */
  const MESSAGES = 400;
  let inbox: InboxWithCredentialsJson;
  let body: string;
  return {
    async prepare(attacker) {
      inbox = await createInbox(attacker, 'tag-rules');
      body = prose(MESSAGE_BYTES, 7);
    },
    async run(attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const rules: string[] = [];
      let refusal: string | null = null;
      for (let index = 0; index < options.tagRules && refusal === null && untilDeadline(deadline); index++) {
        const payload = JSON.stringify({ inbox_id: inbox.id, query: costliestQuery(index * 31), tags: [`noisy-${index}`] });
        const created = await request(answers, `${attacker.httpUrl}/v1/tag-rules`, authorized(attacker.key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }));
        if (created?.status === 201) rules.push((JSON.parse(created.body.toString()) as { data: { id: string } }).data.id);
        else refusal = created ? httpAnswer(created.status, created.body.toString()) : 'no answer';
      }
      const stored = await sendMessages(credentialsOf(inbox), (index) => plainMessage(`tagged ${index}`, body), MESSAGES, 2, answers, deadline);
      // Later attacks capture into A's other inboxes; the rules are scoped to this one, but are removed all the same.
      for (const id of rules) await request(new AnswerCounts(), `${attacker.httpUrl}/v1/tag-rules/${id}`, authorized(attacker.key, { method: 'DELETE' }));
      return { rules_created: rules.length, rule_refused_with: refusal, message_bytes: MESSAGE_BYTES, messages_stored: stored.length };
    },
  };
}

/** Everything the server sent on one flood connection, and whether it closed it. */
interface FloodSocket {
  socket: net.Socket;
  received: string;
  closed: boolean;
}

/** Opens up to `count` connections from FLOOD_ADDRESS, OPENERS at a time, until the deadline; never sends a byte. */
async function openIdle(port: number, count: number, deadline: number, sockets: FloodSocket[], answers: AnswerCounts): Promise<void> {
  const OPENERS = 64;
  let next = 0;
  await Promise.all(
    Array.from({ length: OPENERS }, async () => {
      while (next < count && untilDeadline(deadline)) {
        next++;
        await new Promise<void>((resolve) => {
          const socket = net.connect({ port, host: '127.0.0.1', localAddress: FLOOD_ADDRESS });
          const entry: FloodSocket = { socket, received: '', closed: false };
          let connected = false;
          socket.on('data', (chunk: Buffer) => (entry.received += chunk.toString('latin1')));
          socket.once('connect', () => {
            connected = true;
            sockets.push(entry);
            resolve();
          });
          // After connecting, a reset is how the server drops a connection: its close is what counts then.
          socket.on('error', (error) => {
            if (connected) return;
            answers.add(noAnswer(error));
            resolve();
          });
          socket.once('close', () => (entry.closed = true));
        });
      }
    }),
  );
}

/** Idle SMTP and HTTP connections from another loopback address, as many as it can up to the bound, held for the window. */
function connectionFlood(options: AttackOptions, server: { smtpPort: number; httpPort: number }): Attack {
  return {
    async run(_attacker, answers) {
      const started = performance.now();
      const deadline = started + options.windowMs;
      const smtp: FloodSocket[] = [];
      const http: FloodSocket[] = [];
      await Promise.all([openIdle(server.smtpPort, options.floodConnections, deadline, smtp, answers), openIdle(server.httpPort, options.floodConnections, deadline, http, answers)]);
      const openedMs = performance.now() - started;
      await sleep(deadline - performance.now());
      const heldOpen = (sockets: FloodSocket[]) => sockets.filter((entry) => !entry.closed).length;
      const figures = {
        seconds_to_open: Number((openedMs / 1000).toFixed(2)),
        smtp: { connected: smtp.length, held_open_at_end: heldOpen(smtp) },
        http: { connected: http.length, held_open_at_end: heldOpen(http) },
      };
      for (const entry of smtp) {
        for (const line of entry.received.split('\r\n')) if (/^\d{3} /.test(line)) answers.add(smtpAnswer(line));
        if (!entry.closed) answers.add('SMTP still open at the end');
      }
      for (const entry of http) {
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(entry.received)?.[1];
        if (status) answers.add(httpAnswer(Number(status), entry.received));
        else answers.add(entry.closed ? 'HTTP closed without an answer' : 'HTTP still open at the end');
      }
      for (const entry of [...smtp, ...http]) entry.socket.destroy();
      return figures;
    },
  };
}

/** Parallel downloads, by signed link (no key, no rate but the server's), of the attachments of a many-part message. */
function signedDownloads(options: AttackOptions): Attack {
  const PARTS = 500;
  const PART_BYTES = 20 * 1024;
  const PARALLEL = 60;
  let links: string[] = [];
  let messageBytes = 0;
  return {
    async prepare(attacker) {
      const inbox = await createInbox(attacker, 'signed-downloads');
      const raw = multipartMessage(
        'many parts',
        Array.from({ length: PARTS }, (_, index) => ({ filename: `part-${index}.bin`, contentType: 'application/octet-stream', content: randomBytes(PART_BYTES) })),
      );
      messageBytes = raw.length;
      const [id] = await sendForSetup(credentialsOf(inbox), () => raw, 1, 1, 'signed-downloads');
      const detail = expectOk<MessageDetailJson>(await attacker.api.get(`/v1/messages/${id}`), 200, 'the many-part message');
      links = detail.files.attachments;
      if (links.length !== PARTS) throw new Error(`the many-part message lists ${links.length} attachment links, expected ${PARTS}`);
    },
    async run(_attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      let downloads = 0;
      let bytes = 0;
      await workersUntil(PARALLEL, 200, deadline, async (worker, index) => {
        downloads++;
        const answer = await request(answers, links[(worker * 37 + index * 13) % links.length]!);
        if (answer?.status === 200) bytes += answer.body.length;
      });
      return { parts: PARTS, message_bytes: messageBytes, parallel: PARALLEL, downloads, megabytes_downloaded: Number((bytes / 1024 / 1024).toFixed(1)) };
    },
  };
}

/** A webhook to a receiver that answers after 9 s (under the 10 s limit, so every delivery holds a slot that long), then 48 captures. */
function slowWebhooks(options: AttackOptions): Attack {
  const ANSWER_AFTER_MS = 9000;
  const CAPTURES = 48;
  let inbox: InboxWithCredentialsJson;
  let receiver: WebhookReceiver;
  return {
    async prepare(attacker) {
      inbox = await createInbox(attacker, 'slow-webhooks');
      receiver = (await WebhookReceiver.start()).always({ status: 200, delayMs: ANSWER_AFTER_MS });
    },
    async run(attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const payload = JSON.stringify({ url: receiver.url, inbox_id: inbox.id });
      const hooked = await request(answers, `${attacker.httpUrl}/v1/webhooks`, authorized(attacker.key, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload }));
      const stored = await sendMessages(credentialsOf(inbox), (index) => plainMessage(`slow hook ${index}`, 'hello'), CAPTURES, 4, answers, deadline);
      await sleep(deadline - performance.now());
      const received = receiver.requests.length;
      if (hooked?.status === 201) {
        // Deleting the webhook drops its pending deliveries; the ones in flight are let finish inside this window, so
        // that the next attack's figures do not carry this one's tail.
        const id = (JSON.parse(hooked.body.toString()) as { data: { id: string } }).data.id;
        receiver.always(200);
        await request(new AnswerCounts(), `${attacker.httpUrl}/v1/webhooks/${id}`, authorized(attacker.key, { method: 'DELETE' }));
        const drained = performance.now() + ANSWER_AFTER_MS + 3000;
        while (receiver.requests.some((delivery) => delivery.endedAt === null) && untilDeadline(drained)) await sleep(100);
      }
      return { receiver_answers_after_ms: ANSWER_AFTER_MS, captures_stored: stored.length, deliveries_received_in_window: received };
    },
    async dispose() {
      await receiver?.close();
    },
  };
}

/** One SMTP transaction of a large message, written straight to the socket (it holds no line starting with a dot). */
async function largeTransaction(credentials: SmtpCredentials, raw: Buffer, answers: AnswerCounts): Promise<void> {
  const client = RawSmtp.open(credentials.port);
  const step = async (reply: Promise<SmtpReply>, expected: number): Promise<boolean> => {
    const answer = await reply;
    if (answer.code === expected) return true;
    answers.add(smtpAnswer(`${answer.code} ${answer.text}`));
    return false;
  };
  try {
    const proceed =
      (await step(client.nextReply(A_TIMEOUT_MS), 220)) &&
      (await step(client.command('EHLO attacker.test'), 250)) &&
      (await step(client.command(authPlain(credentials)), 235)) &&
      (await step(client.command(`MAIL FROM:<${A_ENVELOPE.from}>`), 250)) &&
      (await step(client.command(`RCPT TO:<${A_ENVELOPE.to[0]}>`), 250)) &&
      (await step(client.command('DATA'), 354));
    if (!proceed) return;
    client.socket.write(raw);
    client.socket.write('.\r\n');
    const final = await client.nextReply(A_TIMEOUT_MS);
    answers.add(smtpAnswer(`${final.code} ${final.text}`));
  } catch (error) {
    answers.add(noAnswer(error));
  } finally {
    await client.quit();
  }
}

/** Parallel 20 MiB transactions on an inbox whose chaos holds every end of DATA for seconds, in up to two rounds. */
function largeTransactions(options: AttackOptions): Attack {
  const PARALLEL = 20;
  const MESSAGE_BYTES = 20 * 1024 * 1024;
  const CHAOS_DELAY_MS = 8000;
  const ROUNDS = 2;
  let inbox: InboxWithCredentialsJson;
  let raw: Buffer;
  return {
    async prepare(attacker) {
      inbox = await createInbox(attacker, 'large-transactions');
      const chaos = { enabled: true, delay: { stage: 'data', probability: 1, ms: CHAOS_DELAY_MS } };
      expectOk(await attacker.api.request('PUT', `/v1/inboxes/${inbox.id}/chaos`, { body: chaos }), 200, 'the chaos delay');
      const block = prose(256 * 1024, 11);
      raw = plainMessage('large', block.repeat(Math.ceil(MESSAGE_BYTES / block.length)).slice(0, MESSAGE_BYTES));
    },
    async run(_attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      let rounds = 0;
      while (rounds < ROUNDS && untilDeadline(deadline)) {
        rounds++;
        await Promise.all(Array.from({ length: PARALLEL }, () => largeTransaction(credentialsOf(inbox), raw, answers)));
      }
      return { parallel: PARALLEL, message_bytes: raw.length, chaos_delay_at_data_ms: CHAOS_DELAY_MS, rounds };
    },
  };
}

/** Messages carrying a 10,000×10,000 progressive JPEG (a few hundred KB), then their details and thumbnails, all at once. */
function hostileThumbnails(options: AttackOptions): Attack {
  const IMAGES = 8;
  const SIDE = 10_000;
  let inbox: InboxWithCredentialsJson;
  let jpeg: Buffer;
  return {
    async prepare(attacker) {
      inbox = await createInbox(attacker, 'hostile-thumbnails');
      jpeg = await sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: { r: 200, g: 120, b: 40 } } }).jpeg({ progressive: true, quality: 90 }).toBuffer();
    },
    async run(attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const messageAt = (index: number) => multipartMessage(`image ${index}`, [{ filename: `huge-${index}.jpg`, contentType: 'image/jpeg', content: jpeg }]);
      const ids = await sendMessages(credentialsOf(inbox), messageAt, IMAGES, 2, answers, deadline);
      let thumbnails = 0;
      await Promise.all(
        ids.map(async (id) => {
          const detail = await request(answers, `${attacker.httpUrl}/v1/messages/${id}`, authorized(attacker.key));
          if (detail?.status !== 200) return;
          const thumbUrl = (JSON.parse(detail.body.toString()) as { data: MessageDetailJson }).data.attachments[0]?.thumb_url;
          if (!thumbUrl) return;
          const thumb = await request(answers, `${attacker.httpUrl}${thumbUrl}`, authorized(attacker.key));
          if (thumb?.status === 200) thumbnails++;
        }),
      );
      return { images: IMAGES, pixels: `${SIDE}x${SIDE}`, jpeg_bytes: jpeg.length, stored: ids.length, thumbnails_made: thumbnails };
    },
  };
}

export function makeAttack(name: AttackName, options: AttackOptions, server: { smtpPort: number; httpPort: number }): Attack {
  switch (name) {
    case 'heavy-queries':
      return heavyQueries(options);
    case 'tag-rules':
      return tagRules(options);
    case 'connection-flood':
      return connectionFlood(options, server);
    case 'signed-downloads':
      return signedDownloads(options);
    case 'slow-webhooks':
      return slowWebhooks(options);
    case 'large-transactions':
      return largeTransactions(options);
    case 'hostile-thumbnails':
      return hostileThumbnails(options);
  }
}
