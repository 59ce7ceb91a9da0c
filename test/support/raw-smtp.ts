// A hand-driven SMTP client for the end-to-end suites, for what nodemailer will not do, and message bytes to send.
import { strict as assert } from 'node:assert';
import net from 'node:net';
import tls from 'node:tls';
import type { SmtpCredentials } from './smtp.js';

/** The AUTH PLAIN command line that logs in with the credentials. */
export const authPlain = (credentials: SmtpCredentials): string =>
  `AUTH PLAIN ${Buffer.from(`\0${credentials.username}\0${credentials.password}`).toString('base64')}`;

/** The SMTP envelope: MAIL FROM and the RCPT TO addresses. */
export interface SmtpEnvelope {
  from: string;
  to: string[];
}

/** A message with the given headers and body, CRLF throughout. */
export function buildMessage(headers: string[], body: string): Buffer {
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body}\r\n`, 'utf8');
}

export interface SmtpReply {
  code: number;
  /** The RFC 3463 enhanced status code at the start of the text, '' when there is none. */
  enhanced: string;
  text: string;
}

/**
 * A hand-driven SMTP client for what nodemailer will not do: MAIL without AUTH, a null sender, a SIZE= parameter,
 * half a DATA section, SMTPUTF8 with raw 8-bit headers, and several transactions on one connection.
 */
export class RawSmtp {
  private buffered = '';
  private partial: string[] = [];
  private readonly replies: SmtpReply[] = [];
  private readonly waiters: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void }[] = [];
  private closedWith: Error | null = null;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => this.closed(error));
    socket.on('close', () => this.closed(new Error('the server closed the connection')));
  }

  /** Connects and consumes the 220 greeting; `from` plays another client address of the loopback range. */
  static async connect(port: number, from?: string): Promise<RawSmtp> {
    const client = RawSmtp.open(port, from);
    const greeting = await client.nextReply();
    assert.equal(greeting.code, 220, `greeting: ${greeting.text}`);
    return client;
  }

  /** Connects to the implicit-TLS port (the test certificate unchecked) and consumes the greeting. */
  static async connectTls(port: number, from?: string): Promise<RawSmtp> {
    const client = new RawSmtp(tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ...(from ? { localAddress: from } : {}) }));
    const greeting = await client.nextReply();
    assert.equal(greeting.code, 220, `greeting: ${greeting.text}`);
    return client;
  }

  /** Connects without reading the greeting, for a test that expects a refusal in its place. */
  static open(port: number, from?: string): RawSmtp {
    return new RawSmtp(net.connect({ port, host: '127.0.0.1', ...(from ? { localAddress: from } : {}) }));
  }

  /** Connects and says EHLO. */
  static async greet(port: number, from?: string): Promise<RawSmtp> {
    const client = await RawSmtp.connect(port, from);
    await client.expect('EHLO client.test', 250);
    return client;
  }

  /** Connects, says EHLO and logs in with AUTH PLAIN. */
  static async login(credentials: SmtpCredentials, from?: string): Promise<RawSmtp> {
    const client = await RawSmtp.greet(credentials.port, from);
    await client.expect(authPlain(credentials), 235);
    return client;
  }

  private receive(chunk: Buffer): void {
    this.buffered += chunk.toString('latin1');
    let end: number;
    while ((end = this.buffered.indexOf('\r\n')) !== -1) {
      const line = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 2);
      this.partial.push(line.slice(4));
      if (line[3] === '-') continue;
      const text = this.partial.join('\n');
      this.partial = [];
      this.replies.push({ code: Number(line.slice(0, 3)), enhanced: /^(\d\.\d{1,3}\.\d{1,3}) /.exec(text)?.[1] ?? '', text });
    }
    this.settle();
  }

  private closed(error: Error): void {
    this.closedWith ??= error;
    this.settle();
  }

  private settle(): void {
    while (this.waiters.length > 0 && this.replies.length > 0) this.waiters.shift()!.resolve(this.replies.shift()!);
    if (this.closedWith) for (const waiter of this.waiters.splice(0)) waiter.reject(this.closedWith);
  }

  nextReply(timeoutMs = 15_000): Promise<SmtpReply> {
    return new Promise((resolve, reject) => {
      // A bounded wait so that a server that never answers fails the test instead of hanging it.
      const timer = setTimeout(() => reject(new Error(`no SMTP reply within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.settle();
    });
  }

  command(line: string): Promise<SmtpReply> {
    this.socket.write(`${line}\r\n`);
    return this.nextReply();
  }

  async expect(line: string, code: number): Promise<SmtpReply> {
    const reply = await this.command(line);
    assert.equal(reply.code, code, `${line.split(' ')[0]} answered: ${reply.code} ${reply.text}`);
    return reply;
  }

  /** Sends the message body dot-stuffed and terminated, as RFC 5321 4.5.2 requires; returns the final reply. */
  sendData(raw: Buffer): Promise<SmtpReply> {
    const stuffed = Buffer.from(raw.toString('latin1').replace(/(^|\r\n)\./g, '$1..'), 'latin1');
    this.socket.write(Buffer.concat([stuffed, Buffer.from(raw.subarray(-2).toString() === '\r\n' ? '.\r\n' : '\r\n.\r\n')]));
    return this.nextReply();
  }

  /** One full transaction; returns the first reply that is not the expected next step (or the final DATA reply). */
  async transaction(envelope: SmtpEnvelope, raw: Buffer, mailParameters = ''): Promise<SmtpReply> {
    const mail = await this.command(`MAIL FROM:<${envelope.from}>${mailParameters ? ` ${mailParameters}` : ''}`);
    if (mail.code !== 250) return mail;
    for (const recipient of envelope.to) {
      const rcpt = await this.command(`RCPT TO:<${recipient}>`);
      if (rcpt.code !== 250) return rcpt;
    }
    const data = await this.command('DATA');
    if (data.code !== 354) return data;
    return this.sendData(raw);
  }

  /** Resolves once the server has closed the connection, having sent no reply since the last one read; fails after timeoutMs. */
  async closedByServer(timeoutMs = 5000): Promise<void> {
    await assert.rejects(this.nextReply(timeoutMs), /the server closed the connection/, 'the server was to close the connection without a reply');
  }

  async quit(): Promise<void> {
    if (!this.closedWith) await this.command('QUIT').catch(() => undefined);
    this.socket.destroy();
  }
}
