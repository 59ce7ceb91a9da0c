// One webhook delivery attempt: a POST to the target, reached only at addresses the target policy allows.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { FORBIDDEN_TARGET, resolveTarget, urlRefusal, type TargetPolicy } from './target-policy.js';
import { NameLookupError } from './name-resolver.js';

/** The receiver must answer within this long (spec: 10 seconds), its name's lookup included. */
export const ANSWER_TIMEOUT_MS = 10_000;
/** Of the receiver's answer only this much is read, for the delivery record. */
const ANSWER_BYTES_KEPT = 1024;

export interface AttemptOutcome {
  /** A 2xx answer within the time limit. */
  delivered: boolean;
  /** The receiver's HTTP status; null when none came. */
  status: number | null;
  /** Why the attempt failed, for the delivery record; null when delivered. */
  error: string | null;
}

export interface PostWebhookOptions {
  /** The webhook's workspace: the receiver's name is looked up in its turn. */
  workspaceId: string;
  signal?: AbortSignal;
}

const timedOut = (): AttemptOutcome => ({ delivered: false, status: null, error: `no answer within ${ANSWER_TIMEOUT_MS / 1000} s` });

/**
 * POSTs `body` with `headers`. Redirects are not followed (a redirect is a failed attempt, as the spec says), so
 * no hop can lead elsewhere; each attempt opens its own connection, so every attempt resolves and checks anew.
 */
export async function postWebhook(target: string, body: Buffer, headers: Record<string, string>, policy: TargetPolicy, options: PostWebhookOptions): Promise<AttemptOutcome> {
  const checked = urlRefusal(target, policy);
  if ('refusal' in checked) return { delivered: false, status: null, error: `target refused: ${checked.refusal}` };
  const { url } = checked;
  const timeUp = new AbortController();
  // The whole exchange counts, not only the wait for headers: a receiver trickling its answer also fails.
  const deadline = setTimeout(() => timeUp.abort(), ANSWER_TIMEOUT_MS);
  const stop = options.signal ? AbortSignal.any([timeUp.signal, options.signal]) : timeUp.signal;
  try {
    let lookup;
    try {
      ({ lookup } = await resolveTarget(url, policy, options.workspaceId, stop));
    } catch (error) {
      if (timeUp.signal.aborted) return timedOut();
      if (error instanceof NameLookupError) return { delivered: false, status: null, error: `request failed: ${error.message}` };
      if ((error as NodeJS.ErrnoException).code === FORBIDDEN_TARGET) return { delivered: false, status: null, error: `target refused: ${(error as Error).message}` };
      throw error;
    }
    return await post(url, body, headers, lookup, stop, timeUp.signal);
  } finally {
    clearTimeout(deadline);
  }
}

function post(url: URL, body: Buffer, headers: Record<string, string>, lookup: LookupFunction | undefined, stop: AbortSignal, timeUp: AbortSignal): Promise<AttemptOutcome> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      request.destroy();
      resolve(outcome);
    };
    const request = client.request(url, {
      method: 'POST',
      agent: false,
      ...(lookup ? { lookup } : {}),
      signal: stop,
      headers: { ...headers, 'Content-Length': String(body.length) },
    }, (response) => {
      const status = response.statusCode ?? 0;
      let answer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (answer.length < ANSWER_BYTES_KEPT) answer += chunk.slice(0, ANSWER_BYTES_KEPT - answer.length);
      });
      response.on('end', () => {
        if (status >= 200 && status < 300) return finish({ delivered: true, status, error: null });
        const why = status >= 300 && status < 400 ? `redirect to ${response.headers.location ?? '(no location)'} not followed` : `answered ${status}`;
        finish({ delivered: false, status, error: answer ? `${why}: ${answer}` : why });
      });
      response.on('error', (error) => finish(timeUp.aborted ? timedOut() : { delivered: false, status, error: `answer broke off: ${error.message}` }));
    });
    request.on('error', (error) => finish(timeUp.aborted ? timedOut() : { delivered: false, status: null, error: `request failed: ${error.message}` }));
    request.end(body);
  });
}
