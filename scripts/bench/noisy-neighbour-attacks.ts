// Tenant A's attacks on the server's shared work for the noisy-neighbour bench (issues 23 and 35), one per way a tenant could slow the others through what it stores and reads, and what every attack shares: each on loopback only, bounded in count and time, counting what the server answered A.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import zlib from 'node:zlib';
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

/** Tenant A: its workspace's key, for the API and for the inboxes it captures into. */
export interface Attacker {
  httpUrl: string;
  api: ApiClient;
  key: string;
  /** A new read-only key of A's workspace, made with the admin CLI (keys are made by a signed-in member or an operator). */
  createReadKey(): string;
}

export interface AttackOptions {
  /** How long one attack keeps starting new work (work in flight is let finish, within A_TIMEOUT_MS). */
  windowMs: number;
  /** Tag rules A tries to create (it stops at the first refusal: the plan's cap). */
  tagRules: number;
  /** Idle connections the connection flood tries to open from its one address, SMTP and HTTP each. */
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
export const A_TIMEOUT_MS = 60_000;
const A_ENVELOPE = { from: 'attacker@tenant-a.example.test', to: ['target@tenant-a.example.test'] };

export const untilDeadline = (deadline: number) => performance.now() < deadline;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

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

export function plainMessage(subject: string, body: string): Buffer {
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

export const authorized = (key: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${key}` } });

/** One of A's HTTP requests, its answer counted; the answer's status and body, or null when none came. */
export async function request(answers: AnswerCounts, url: string, init: RequestInit = {}): Promise<{ status: number; body: Buffer } | null> {
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

export async function createInbox(attacker: Attacker, name: string): Promise<InboxWithCredentialsJson> {
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
export async function workersUntil(workers: number, perWorker: number, deadline: number, step: (worker: number, index: number) => Promise<void>): Promise<void> {
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let index = 0; index < perWorker && untilDeadline(deadline); index++) await step(worker, index);
    }),
  );
}

/** Heavy queries and batches: list requests with the costliest query the caps allow, 3 at a time, and batches over the whole workspace. */
export function heavyQueries(options: AttackOptions): Attack {
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
export function tagRules(options: AttackOptions): Attack {
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

/** Parallel downloads, by signed link (no key, no rate but the server's), of the attachments of a many-part message. */
export function signedDownloads(options: AttackOptions): Attack {
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
export function slowWebhooks(options: AttackOptions): Attack {
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
export function largeTransactions(options: AttackOptions): Attack {
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
export function hostileThumbnails(options: AttackOptions): Attack {
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

/** A PNG chunk: length, type, data and the CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A black side×side PNG, one bit of grey a pixel, built by hand: its rows are all zero bytes and deflate to about
 * a thousandth, so the file is small while a decoder still fills side² pixels (20,000² is 1.6 GB as RGBA).
 */
export function blackPng(side: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
  // Each row is its filter byte (0, none) and side bits of black.
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', zlib.deflateSync(rows, { level: 9 })), pngChunk('IEND', Buffer.alloc(0))]);
}

/**
 * Messages carrying an SVG that declares 100×100 but embeds a 20,000×20,000 PNG, then their thumbnails requested by
 * PARALLEL clients at once, each asking again after every answer until the window ends (a refusal not remembered is
 * decoded again).
 */
export function svgThumbnails(options: AttackOptions): Attack {
  const IMAGES = 4;
  const PARALLEL = 4;
  const SIDE = 20_000;
  const DECLARED = 100;
  /** How long a client waits before asking again, as a client's retry would: not a request flood. */
  const RETRY_AFTER_MS = 250;
  let inbox: InboxWithCredentialsJson;
  let svg: Buffer;
  let pngBytes = 0;
  return {
    async prepare(attacker) {
      inbox = await createInbox(attacker, 'svg-thumbnails');
      const png = blackPng(SIDE);
      pngBytes = png.length;
      svg = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${DECLARED}" height="${DECLARED}" viewBox="0 0 ${DECLARED} ${DECLARED}">`
          + `<image width="${DECLARED}" height="${DECLARED}" xlink:href="data:image/png;base64,${png.toString('base64')}"/></svg>`,
      );
    },
    async run(attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const messageAt = (index: number) => multipartMessage(`vector ${index}`, [{ filename: `bomb-${index}.svg`, contentType: 'image/svg+xml', content: svg }]);
      const ids = await sendMessages(credentialsOf(inbox), messageAt, IMAGES, 2, answers, deadline);
      let requests = 0;
      let thumbnails = 0;
      if (ids.length > 0) {
        await workersUntil(PARALLEL, Number.POSITIVE_INFINITY, deadline, async (worker, index) => {
          if (index > 0) await sleep(RETRY_AFTER_MS);
          requests++;
          // The thumbnail's path, whether or not the detail offers a thumb_url for it.
          const thumb = await request(answers, `${attacker.httpUrl}/v1/messages/${ids[worker % ids.length]}/attachments/0/thumb`, authorized(attacker.key));
          if (thumb?.status === 200) thumbnails++;
        });
      }
      return { images: IMAGES, parallel: PARALLEL, declared: `${DECLARED}x${DECLARED}`, embedded_png: `${SIDE}x${SIDE}`, png_bytes: pngBytes, svg_bytes: svg.length, stored: ids.length, thumbnail_requests: requests, thumbnails_made: thumbnails };
    },
  };
}

/** An HTML body of about `bytes`: paragraphs of prose in lines of at most 76 characters. */
function htmlOf(bytes: number, seed: number): string {
  const paragraph = (text: string) => `<p>\r\n${text}\r\n</p>`;
  const block = prose(64 * 1024, seed);
  const paragraphs = Array.from({ length: Math.ceil(bytes / block.length) }, () => paragraph(block));
  return `<!doctype html>\r\n<html><body>\r\n${paragraphs.join('\r\n')}\r\n</body></html>`;
}

/** A's own 10 MB HTML messages, then CONCURRENCY clients reading their details and their HTML, over and over, for the window. */
export function bigReads(options: AttackOptions): Attack {
  const MESSAGES = 3;
  const HTML_BYTES = 10 * 1024 * 1024;
  const CONCURRENCY = 16;
  let ids: string[] = [];
  let messageBytes = 0;
  return {
    async prepare(attacker) {
      const inbox = await createInbox(attacker, 'big-reads');
      const html = htmlOf(HTML_BYTES, 23);
      const raw = buildMessage([`From: <${A_ENVELOPE.from}>`, `To: <${A_ENVELOPE.to[0]}>`, 'Subject: big html', 'MIME-Version: 1.0', 'Content-Type: text/html; charset=us-ascii'], html);
      messageBytes = raw.length;
      ids = await sendForSetup(credentialsOf(inbox), () => raw, MESSAGES, 1, 'big-reads');
    },
    async run(attacker, answers) {
      const deadline = performance.now() + options.windowMs;
      const reads = { detail: 0, html: 0 };
      let bytes = 0;
      await workersUntil(CONCURRENCY, Number.POSITIVE_INFINITY, deadline, async (worker, index) => {
        // Half the clients start with the detail and half with the HTML, each alternating.
        const kind = (worker + index) % 2 === 0 ? 'detail' : 'html';
        reads[kind]++;
        const id = ids[(worker + index) % ids.length]!;
        const answer = await request(answers, `${attacker.httpUrl}/v1/messages/${id}${kind === 'html' ? '/html' : ''}`, authorized(attacker.key));
        if (answer?.status === 200) bytes += answer.body.length;
      });
      return { messages: MESSAGES, message_bytes: messageBytes, concurrency: CONCURRENCY, detail_reads: reads.detail, html_reads: reads.html, megabytes_read: Number((bytes / 1024 / 1024).toFixed(1)) };
    },
  };
}
