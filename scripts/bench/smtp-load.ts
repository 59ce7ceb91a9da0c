// SMTP load for the benches: the ~5 KB bench message, and concurrent clients that each keep one SMTP connection and time every message from hand-over to its 250.
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { percentile, round } from './measure.js';

export const MESSAGE_BYTES = 5120;

/** A type alias, not an interface, so that it fits nodemailer's indexed envelope type. */
export type Envelope = { from: string; to: string[] };

export interface OutgoingMessage {
  envelope: Envelope;
  raw: string | Buffer;
}

export interface SmtpTarget {
  port: number;
  username: string;
  password: string;
  /**
   * Plain SMTP with AUTH PLAIN even where STARTTLS is offered, for comparing with a peer that offers no TLS.
   * Otherwise nodemailer upgrades the session whenever the server offers STARTTLS, as an application would.
   */
  plain?: boolean;
}

export const BENCH_ENVELOPE: Envelope = { from: 'bench-sender@bench.example.test', to: ['bench-inbox@bench.example.test'] };

/** A plain-text message of exactly MESSAGE_BYTES bytes, CRLF line endings, unique Subject and Message-ID. */
export function buildBenchMessage(index: number): OutgoingMessage {
  const head = [
    `From: Bench Sender <${BENCH_ENVELOPE.from}>`,
    `To: <${BENCH_ENVELOPE.to[0]}>`,
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
  return { envelope: BENCH_ENVELOPE, raw: head + body };
}

/** The shapes of bench message: plain text, or what most real mail is, a text and an HTML alternative. */
export const MESSAGE_SHAPES = ['text', 'html'] as const;
export type MessageShape = (typeof MESSAGE_SHAPES)[number];

/**
 * A multipart/alternative message of exactly MESSAGE_BYTES bytes, like a transactional email: a text part, and an
 * HTML part with a hidden preheader, a style sheet, layout tables, entities, a list, a code and a dozen links.
 */
export function buildBenchHtmlMessage(index: number): OutgoingMessage {
  const boundary = `bench-boundary-${index}`;
  const head = [
    `From: Bench Sender <${BENCH_ENVELOPE.from}>`,
    `To: <${BENCH_ENVELOPE.to[0]}>`,
    `Subject: Your order ${index} has shipped`,
    `Message-ID: <bench-html-${index}-${process.pid}@bench.example.test>`,
    `Date: ${new Date().toUTCString()}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    '',
  ].join('\r\n');
  const text = [
    `Hello, your order ${index} has shipped.`,
    '',
    'Your verification code is 482913.',
    '',
    `Track it at https://shop.example.test/orders/${index}/track`,
    'Questions? Reply to this email or visit https://help.example.test/',
    '',
  ].join('\r\n');
  const links = Array.from({ length: 8 }, (_, k) => `<td class="nav"><a href="https://shop.example.test/c/${k}?utm_source=email&amp;utm_campaign=${index}">Category ${k} &rsaquo;</a></td>`);
  const items = Array.from({ length: 20 }, (_, k) => `<tr><td>Item ${k + 1} &ndash; &quot;Widget&quot;</td><td align="right">&euro;${(k + 1) * 7}.99</td></tr>`);
  const html = [
    '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Order shipped</title>',
    '<style>body{margin:0;font-family:Arial,sans-serif}.nav a{color:#06c;text-decoration:none}td{padding:4px 8px}</style></head><body>',
    `<div style="display:none;max-height:0;overflow:hidden">Order ${index} is on its way &#8203;&nbsp;&#8203;&nbsp;</div>`,
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">',
    '<table role="presentation" width="600"><tr>',
    ...links,
    '</tr></table>',
    `<h1>Your order ${index} has shipped</h1>`,
    '<p>Hello,<br>good news: your parcel left our warehouse today &amp; should arrive within <b>2&ndash;3 days</b>.</p>',
    '<p>Your verification code is <strong>482913</strong>.</p>',
    '<table role="presentation" width="100%">',
    ...items,
    '</table>',
    '<ul><li>Free returns within 30 days</li><li>Support around the clock</li></ul>',
    `<p><a href="https://shop.example.test/orders/${index}/track" style="background:#06c;color:#fff;padding:8px 16px">Track your parcel</a></p>`,
    '<p><img src="https://cdn.example.test/logo.png" alt="Example Shop" width="120" height="40"></p>',
    '<p style="font-size:11px;color:#999">You receive this email because you ordered from Example Shop. ',
    '<a href="https://shop.example.test/unsubscribe?u=abc">Unsubscribe</a> &middot; <a href="https://shop.example.test/privacy">Privacy</a></p>',
    '</td></tr></table></body></html>',
  ].join('\r\n');
  const parts = [
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    text,
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: 7bit',
    '',
    html,
  ].join('\r\n');
  const closing = `\r\n--${boundary}--\r\n`;
  const room = MESSAGE_BYTES - head.length - parts.length - closing.length;
  if (room < 0) throw new Error(`the HTML bench message is ${-room} bytes over ${MESSAGE_BYTES}`);
  // Filled up to the size with spaces, as generated markup is indented.
  return { envelope: BENCH_ENVELOPE, raw: head + parts + ' '.repeat(room) + closing };
}

/** The bench message of a shape. */
export const benchMessageOf = (shape: MessageShape): ((index: number) => OutgoingMessage) => (shape === 'html' ? buildBenchHtmlMessage : buildBenchMessage);

/**
 * Options for one SMTP connection kept for every message sent through it (a pool of one that never retires its
 * connection; nodemailer would otherwise reconnect every 100 messages).
 */
export function keptConnectionOptions(target: SmtpTarget): SMTPPool.Options {
  return {
    pool: true,
    maxConnections: 1,
    maxMessages: Infinity,
    host: '127.0.0.1',
    port: target.port,
    secure: false,
    auth: { user: target.username, pass: target.password },
    tls: { rejectUnauthorized: false },
    ...(target.plain ? { ignoreTLS: true, authMethod: 'PLAIN' } : {}),
  };
}

export interface LoadRun {
  messages: number;
  /** From the first hand-over to the last 250. */
  seconds: number;
  /** Hand-over to 250 per message, ms, ascending. */
  latencies: number[];
  /** performance.now() of the last 250. */
  lastAckAt: number;
}

/**
 * Sends messages 0..count-1 through `clients` concurrent connections, each taking the next unsent message as soon
 * as its previous one is answered. Any reply but 250 fails the run; the other clients then stop taking messages.
 */
export async function driveSmtpLoad(target: SmtpTarget, count: number, messageAt: (index: number) => OutgoingMessage, clients: number): Promise<LoadRun> {
  const latencies: number[] = [];
  let next = 0;
  let failed = false;
  let firstSend = Infinity;
  let lastAck = 0;

  const client = async () => {
    const transport = nodemailer.createTransport(keptConnectionOptions(target));
    try {
      while (next < count && !failed) {
        const message = messageAt(next++);
        const started = performance.now();
        firstSend = Math.min(firstSend, started);
        const info = await transport.sendMail(message);
        const acked = performance.now();
        if (!String(info.response).startsWith('250')) throw new Error(`unexpected reply: ${info.response}`);
        latencies.push(acked - started);
        lastAck = Math.max(lastAck, acked);
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      transport.close();
    }
  };
  await Promise.all(Array.from({ length: Math.min(clients, count) }, () => client()));
  latencies.sort((a, b) => a - b);
  return { messages: count, seconds: (lastAck - firstSend) / 1000, latencies, lastAckAt: lastAck };
}

/** The figures every capture report prints for a run. */
export function summarizeLoad(run: LoadRun) {
  return {
    seconds: round(run.seconds, 3),
    messages_per_second: round(run.messages / run.seconds, 1),
    latency_ms: { p50: round(percentile(run.latencies, 50)), p95: round(percentile(run.latencies, 95)), p99: round(percentile(run.latencies, 99)) },
  };
}
