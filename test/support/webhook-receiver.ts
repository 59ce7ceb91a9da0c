// A real webhook receiver for end-to-end tests, written from the spec alone (openapi.yaml tag Webhooks and
// ../shared/spec/http-api.md "Webhook events"), not from the server's code: a node:http server on 127.0.0.1 that
// records every request (headers, raw body bytes, arrival and answer times), checks X-Sandbox-Signature the way a
// customer's receiver would, and answers as the test scripts it (a status, 500 n times then 200, a redirect,
// a slow answer, or none at all).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pollUntil } from './poll.js';

/** How the receiver answers one request: a status, a status after a delay, a 302 to itself, or never. */
export type Answer = number | { status: number; delayMs: number } | 'redirect' | 'hang';

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: string };

/** Spec: receivers should reject a `t` more than about five minutes from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Lowercase hex HMAC-SHA256, keyed with the webhook secret, of `<t>.<raw body>`. */
export function signatureOf(secret: string, timestamp: number, rawBody: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Checks an X-Sandbox-Signature header (`t=<unix seconds>,v1=<lowercase hex>`) against the raw body: the HMAC must
 * match (compared in constant time) and `t` must be within the tolerance of `nowSeconds`.
 */
export function verifySignature(header: string | undefined, rawBody: Buffer, secret: string, nowSeconds = Math.floor(Date.now() / 1000)): SignatureCheck {
  if (header === undefined) return { ok: false, reason: 'no X-Sandbox-Signature header' };
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return { ok: false, reason: `malformed X-Sandbox-Signature '${header}'` };
  const timestamp = Number(match[1]);
  const expected = Buffer.from(signatureOf(secret, timestamp, rawBody), 'hex');
  const given = Buffer.from(match[2]!, 'hex');
  // Both are 32 bytes (the regex fixes 64 hex digits), as timingSafeEqual requires.
  if (!timingSafeEqual(expected, given)) return { ok: false, reason: 'signature does not match the body' };
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: `timestamp ${timestamp} is more than ${SIGNATURE_TOLERANCE_SECONDS} s from ${nowSeconds}` };
  return { ok: true, timestamp };
}

export interface ReceivedRequest {
  method: string;
  /** Path and query as requested. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  /** Date.now() when the answer was sent or the connection closed without one; null while still open. */
  endedAt: number | null;
  answer: Answer;
  /** The receiver's check of X-Sandbox-Signature with its secret, at arrival. */
  signature: SignatureCheck;
  /** X-Sandbox-Delivery. */
  delivery: string | undefined;
  /** X-Sandbox-Event. */
  event: string | undefined;
}

/** The parsed JSON body of a received request. */
export const bodyOf = <T = Record<string, unknown>>(request: ReceivedRequest): T => JSON.parse(request.body.toString('utf8')) as T;

export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** The webhook secret the signature check uses; set it from the create response. */
  secret: string | null = null;
  private decide: (index: number, forDelivery: number) => Answer = () => 200;
  private readonly server: http.Server;
  private port = 0;

  private constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.handle(req, res, Buffer.concat(chunks)));
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(0, '127.0.0.1', () => resolve());
    });
    receiver.port = (receiver.server.address() as AddressInfo).port;
    return receiver;
  }

  /** The URL to register as the webhook (plain http on loopback: needs SANDBOX_WEBHOOK_ALLOW_PRIVATE=1). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Answers every request with `answer` (200 unless scripted). */
  always(answer: Answer): this {
    this.decide = () => answer;
    return this;
  }

  /** Answers the next requests with `answers` in turn, then `then` forever. */
  sequence(answers: Answer[], then: Answer = 200): this {
    const offset = this.requests.length;
    this.decide = (index) => answers[index - offset] ?? then;
    return this;
  }

  /** 500 to the next `n` requests, then 200. */
  failTimes(n: number, status = 500): this {
    return this.sequence(Array.from({ length: n }, () => status));
  }

  /** 500 to the first `n` requests of each delivery (by X-Sandbox-Delivery), then 200. */
  failTimesPerDelivery(n: number, status = 500): this {
    this.decide = (_index, forDelivery) => (forDelivery < n ? status : 200);
    return this;
  }

  /** Requests carrying this X-Sandbox-Delivery, in arrival order. */
  forDelivery(delivery: string | number): ReceivedRequest[] {
    return this.requests.filter((request) => request.delivery === String(delivery));
  }

  /** Waits until at least `count` requests arrived (matching `filter` if given); returns them. */
  async waitForRequests(count: number, timeoutMs = 15_000, filter: (request: ReceivedRequest) => boolean = () => true): Promise<ReceivedRequest[]> {
    await pollUntil(async () => this.requests.filter(filter).length >= count, timeoutMs, () => `${count} webhook requests at ${this.url} (got ${this.requests.filter(filter).length})`, 20);
    return this.requests.filter(filter);
  }

  /** Stops listening and drops every open connection, hanging answers included. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const delivery = header('x-sandbox-delivery');
    const forDelivery = delivery === undefined ? 0 : this.forDelivery(delivery).length;
    const answer = this.decide(this.requests.length, forDelivery);
    const request: ReceivedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      receivedAt: Date.now(),
      endedAt: null,
      answer,
      signature: this.secret === null ? { ok: false, reason: 'the receiver has no secret' } : verifySignature(header('x-sandbox-signature'), body, this.secret),
      delivery,
      event: header('x-sandbox-event'),
    };
    this.requests.push(request);
    res.on('close', () => (request.endedAt ??= Date.now()));
    if (answer === 'hang') return;
    if (answer === 'redirect') {
      // To itself, marked, so a followed redirect would show up as a request with this query.
      res.writeHead(302, { location: `http://127.0.0.1:${this.port}/hook?followed-redirect=1` }).end();
      return;
    }
    const [status, delayMs] = typeof answer === 'number' ? [answer, 0] : [answer.status, answer.delayMs];
    setTimeout(() => {
      if (!res.destroyed) res.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
    }, delayMs);
  }
}
