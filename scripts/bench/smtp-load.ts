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
