// One HTTP(S) request to an address the target policy allows (checked links, linked stylesheets): bounded in time and
// in the bytes read, never following a redirect itself, so a caller that follows one checks each hop anew.
import http from 'node:http';
import https from 'node:https';
import { FORBIDDEN_TARGET, publicOnlyLookup, urlRefusal, type TargetPolicy } from './target-policy.js';
import type { LookupGate } from './lookup-gate.js';

export interface PublicFetchOptions {
  method: 'HEAD' | 'GET';
  policy: TargetPolicy;
  /** The whole exchange, connection to last byte read. */
  timeoutMs: number;
  /** Bytes of the body kept; past them the response is abandoned. 0 reads none (a status is all that is needed). */
  maxBodyBytes: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Bounds the name lookups of this kind of request in flight (see lookup-gate.ts); none by default. */
  lookupGate?: LookupGate;
}

export interface PublicFetchResponse {
  status: number;
  /** Where a redirect points, resolved against the request's URL; null for any other answer. */
  location: string | null;
  contentType: string | null;
  body: Buffer;
  /** The body was longer than maxBodyBytes; `body` holds its start. */
  truncated: boolean;
}

/** Why no response came: the policy refused the target, or the server could not be reached or was too slow. */
export class PublicFetchError extends Error {
  /** The system error code of an unreachable server (ECONNREFUSED, ENOTFOUND, ECONNRESET...), when there is one. */
  constructor(readonly reason: 'refused' | 'unreachable' | 'timeout', message: string, readonly code: string | null = null) {
    super(message);
    this.name = 'PublicFetchError';
  }
}

/** Identifies the checker to the sites it requests, as crawlers do, so their operators can tell what it is. */
const USER_AGENT = 'mail-sandbox-checker/1';

export function publicFetch(target: string, options: PublicFetchOptions): Promise<PublicFetchResponse> {
  const checked = urlRefusal(target, options.policy);
  if ('refusal' in checked) return Promise.reject(new PublicFetchError('refused', checked.refusal));
  const { url } = checked;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      outcome();
    };
    const request = client.request(url, {
      method: options.method,
      // A connection of its own each time, so every request resolves and checks the name anew.
      agent: false,
      lookup: options.lookupGate ? options.lookupGate.wrap(publicOnlyLookup(options.policy), () => settled) : publicOnlyLookup(options.policy),
      signal: options.signal,
      headers: { 'User-Agent': USER_AGENT, Accept: '*/*', ...options.headers },
    }, (response) => {
      const status = response.statusCode ?? 0;
      const location = status >= 300 && status < 400 && response.headers.location ? safeResolve(response.headers.location, url) : null;
      const head = { status, location, contentType: response.headers['content-type'] ?? null };
      if (options.method === 'HEAD' || options.maxBodyBytes === 0) return settle(() => resolve({ ...head, body: Buffer.alloc(0), truncated: false }));
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        if (kept + chunk.length > options.maxBodyBytes) {
          chunks.push(chunk.subarray(0, options.maxBodyBytes - kept));
          settle(() => resolve({ ...head, body: Buffer.concat(chunks), truncated: true }));
          return;
        }
        chunks.push(chunk);
        kept += chunk.length;
      });
      response.on('end', () => settle(() => resolve({ ...head, body: Buffer.concat(chunks), truncated: false })));
      response.on('error', (error) => settle(() => reject(new PublicFetchError('unreachable', `the answer broke off: ${error.message}`))));
    });
    // A server trickling its answer is as useless as one that never answers.
    const deadline = setTimeout(() => settle(() => reject(new PublicFetchError('timeout', `no answer within ${options.timeoutMs / 1000} s`))), options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => settle(() => reject(error.code === FORBIDDEN_TARGET
      ? new PublicFetchError('refused', error.message)
      : new PublicFetchError('unreachable', error.code ? `${error.code}: ${error.message}` : error.message, error.code ?? null))));
    request.end();
  });
}

/** A Location header as an absolute URL, or null when it is not a URL at all. */
function safeResolve(location: string, base: URL): string | null {
  try {
    return new URL(location, base).href;
  } catch {
    return null;
  }
}
