// Checking a webhook delivery's X-Sandbox-Signature (`t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw
// body>">` under the webhook's secret) with Web Crypto, so it runs in Node and in browsers and edge runtimes alike.
import type { components } from '../contract/api-types.js';

/** The body of a delivery: a captured message's summary, or the test endpoint's event. */
export type WebhookEvent = components['schemas']['WebhookMessageReceivedEvent'] | components['schemas']['WebhookTestEvent'];

/** A request's headers: a fetch `Headers`, or a plain object such as Node's `IncomingMessage.headers` (any case of names). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far, in seconds, the signature's `t` may be from the receiver's clock (default 300, the spec's five minutes). */
  toleranceSeconds?: number;
  /** The receiver's clock (default: now). */
  now?: Date;
}

/** Why a delivery was refused. */
export type WebhookVerificationFailure = 'signature_missing' | 'signature_malformed' | 'signature_mismatch' | 'timestamp_out_of_tolerance';

/** A delivery that is not what the service signed with this secret, or was signed too long ago: answer it with a 4xx. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  constructor(readonly code: WebhookVerificationFailure, message: string) {
    super(message);
  }
}

const SIGNATURE_HEADER = 'x-sandbox-signature';
const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Verifies a webhook delivery and returns its parsed body; throws a {@link WebhookVerificationError} saying why
 * when the signature is missing, malformed or does not match the body under `secret` (compared in constant time), or
 * when its timestamp is further than `toleranceSeconds` from the receiver's clock (a replay).
 *
 * Pass the body exactly as it arrived: its bytes, before any JSON parsing (a string is taken as its UTF-8 bytes).
 *
 * @example
 * ```ts
 * // Node's http server; with a framework, read the raw body (e.g. express.raw({ type: 'application/json' })).
 * const event = await verifyWebhook(rawBody, req.headers, process.env.WEBHOOK_SECRET!);
 * if (event.event === 'message.received') console.log(event.data.subject);
 * ```
 */
export async function verifyWebhook(rawBody: Uint8Array | ArrayBuffer | string, headers: WebhookHeaders, secret: string, options: VerifyWebhookOptions = {}): Promise<WebhookEvent> {
  const header = headerValue(headers, SIGNATURE_HEADER);
  if (header === null) throw new WebhookVerificationError('signature_missing', 'the request has no X-Sandbox-Signature header');
  const { timestamp, signatures } = parseSignatureHeader(header);
  const body = typeof rawBody === 'string' ? new TextEncoder().encode(rawBody) : new Uint8Array(rawBody);
  const prefix = new TextEncoder().encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  // HMAC verification in Web Crypto compares in constant time, so how much of a guess matched does not leak.
  let matched = false;
  for (const signature of signatures) matched = (await crypto.subtle.verify('HMAC', key, signature, signed)) || matched;
  if (!matched) throw new WebhookVerificationError('signature_mismatch', 'X-Sandbox-Signature does not match the body under this secret (a wrong secret, or a body changed or re-encoded on the way)');
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', `the signature's timestamp ${timestamp} is ${nowSeconds - timestamp} s from this receiver's clock, more than the ${tolerance} s allowed`);
  }
  return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent;
}

function headerValue(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return Array.isArray(value) ? value.join(',') : value;
  }
  return null;
}

/** `t=<digits>` once and one or more `v1=<64 hex digits>`, comma-separated; other schemes are skipped. */
function parseSignatureHeader(header: string): { timestamp: number; signatures: Uint8Array<ArrayBuffer>[] } {
  let timestamp: number | null = null;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(',')) {
    const [name, value = ''] = part.trim().split('=', 2) as [string, string?];
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Uint8Array.from(value.match(/../g)!, (byte) => parseInt(byte, 16)));
  }
  if (timestamp === null || signatures.length === 0) {
    throw new WebhookVerificationError('signature_malformed', `X-Sandbox-Signature '${header.slice(0, 200)}' is not t=<unix seconds>,v1=<64 hex digits>`);
  }
  return { timestamp, signatures };
}
