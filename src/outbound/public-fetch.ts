// One HTTP(S) request to an address the target policy allows (checked links, linked stylesheets): bounded in time and
// in the bytes read, never following a redirect itself, so a caller that follows one checks each hop anew.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { FORBIDDEN_TARGET, resolveTarget, urlRefusal, type TargetPolicy } from './target-policy.js';
import { LOOKUP_REFUSED, NameLookupError } from './name-resolver.js';

export interface PublicFetchOptions {
  method: 'HEAD' | 'GET';
  policy: TargetPolicy;
  /** Whose request this is: its name lookup waits in this workspace's turn. */
  workspaceId: string;
  /** The whole exchange, name lookup to last byte read. */
  timeoutMs: number;
  /** Bytes of the body kept; past them the response is abandoned. 0 reads none (a status is all that is needed). */
  maxBodyBytes: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
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

/**
 * Why no response came: the policy refused the target, the workspace's name lookups were refused for now (busy), the
 * server could not be reached (its name included) or was too slow.
 */
export class PublicFetchError extends Error {
  /** The system or resolver error code of an unreachable server (ECONNREFUSED, ENOTFOUND, ETIMEOUT...), when there is one. */
  constructor(readonly reason: 'refused' | 'busy' | 'unreachable' | 'timeout', message: string, readonly code: string | null = null) {
    super(message);
    this.name = 'PublicFetchError';
  }
}

/** Identifies the checker to the sites it requests, as crawlers do, so their operators can tell what it is. */
const USER_AGENT = 'mail-sandbox-checker/1';

export async function publicFetch(target: string, options: PublicFetchOptions): Promise<PublicFetchResponse> {
  const checked = urlRefusal(target, options.policy);
  if ('refusal' in checked) throw new PublicFetchError('refused', checked.refusal);
  const timeUp = new AbortController();
  // A server trickling its answer is as useless as one that never answers; a name server likewise.
  const deadline = setTimeout(() => timeUp.abort(), options.timeoutMs);
  const stop = options.signal ? AbortSignal.any([timeUp.signal, options.signal]) : timeUp.signal;
  try {
    const { lookup } = await resolveTarget(checked.url, options.policy, options.workspaceId, stop);
    return await exchange(checked.url, lookup, options, stop);
  } catch (error) {
    if (timeUp.signal.aborted) throw new PublicFetchError('timeout', `no answer within ${options.timeoutMs / 1000} s`);
    throw fetchError(error);
  } finally {
    clearTimeout(deadline);
  }
}

function fetchError(error: unknown): unknown {
  if (error instanceof PublicFetchError) return error;
  if (error instanceof NameLookupError) return new PublicFetchError(error.code === LOOKUP_REFUSED ? 'busy' : 'unreachable', error.message, error.code);
  const code = (error as NodeJS.ErrnoException).code;
  if (code === FORBIDDEN_TARGET) return new PublicFetchError('refused', (error as Error).message);
  if (error instanceof Error) return new PublicFetchError('unreachable', code ? `${code}: ${error.message}` : error.message, code ?? null);
  return error;
}

/** One request to a checked URL, its socket confined to `lookup`'s addresses; rejects with the request's own error. */
function exchange(url: URL, lookup: LookupFunction | undefined, options: PublicFetchOptions, stop: AbortSignal): Promise<PublicFetchResponse> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      request.destroy();
      outcome();
    };
    const request = client.request(url, {
      method: options.method,
      // A connection of its own each time, so every request resolves and checks the name anew.
      agent: false,
      ...(lookup ? { lookup } : {}),
      signal: stop,
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
    request.on('error', (error) => settle(() => reject(error)));
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
