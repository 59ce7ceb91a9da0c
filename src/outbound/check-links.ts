// Requests the links of a message the way a reader's client reaches them: HEAD, then GET where HEAD is refused or
// fails; redirects followed on request, each hop through publicFetch so the target policy judges every hop anew;
// a bounded number at a time, and only a few at a time on one host.
import http from 'node:http';
import { publicFetch, PublicFetchError, type PublicFetchResponse } from './public-fetch.js';
import type { TargetPolicy } from './target-policy.js';

export interface LinkCheckOptions {
  policy: TargetPolicy;
  /** Whose check this is: its name lookups wait in this workspace's turn. */
  workspaceId: string;
  /** Follow redirects and report where they end, instead of reporting the redirect itself. */
  follow: boolean;
  /** The whole check of one link: a GET after a refused HEAD and every redirect hop included. */
  timeoutMs: number;
  /** Redirects followed before the link is reported as redirecting too often. */
  maxRedirects: number;
  /** Aborted when nobody waits for the outcome any more. */
  signal?: AbortSignal;
}

export interface LinkOutcome {
  url: string;
  /** The HTTP status of the last answer; 0 when none came (refused, unreachable, no answer in time). */
  statusCode: number;
  /** The status's reason phrase ("OK", "Not Found"), or why there is no answer or no end to the redirects. */
  status: string;
  /** With follow: the last URL requested, and how many redirects led there. */
  finalUrl?: string;
  redirects?: number;
  /** Broken for a reader: an answer of 400 or more, no answer, or redirects without end. */
  broken: boolean;
  /** No answer within the time limit, or none from its name server (the scheduler stops sending this host's other links). */
  timedOut: boolean;
  /** Not requested for a reason of this service's (the workspace's name lookups were refused for now): no fact about the link. */
  notChecked: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const reasonPhrase = (status: number): string => http.STATUS_CODES[status] ?? `HTTP ${status}`;

/** Failures before any exchange with a server (its name's lookup included): a GET would meet them just the same. */
const NO_CONNECTION = new Set(['ENOTFOUND', 'ENODATA', 'ETIMEOUT', 'ESERVFAIL', 'EREFUSED', 'ECANCELLED', 'ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * HEAD, and GET (no body read) when HEAD is answered with an error status (many servers answer HEAD with 405, 403,
 * 501, 400 or worse while serving GET) or the connection breaks off without an answer. A refusal by the policy, a
 * timeout, a name that does not resolve and a refused connection are final: GET would meet the same fate.
 */
async function requestOnce(url: string, deadline: number, options: LinkCheckOptions): Promise<PublicFetchResponse> {
  const send = (method: 'HEAD' | 'GET') => {
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) return Promise.reject(new PublicFetchError('timeout', 'no time left'));
    return publicFetch(url, { method, policy: options.policy, workspaceId: options.workspaceId, timeoutMs: remainingMs, maxBodyBytes: 0, signal: options.signal });
  };
  try {
    const head = await send('HEAD');
    if (head.status < 400) return head;
  } catch (error) {
    if (!(error instanceof PublicFetchError) || error.reason !== 'unreachable' || NO_CONNECTION.has(error.code ?? '')) throw error;
  }
  return send('GET');
}

/**
 * Why no answer came. Anything but publicFetch's own errors (a request Node would not even start) is unreachable too.
 * A name server that never answered silences its host as a server that never answered does.
 */
function failure(error: unknown, options: LinkCheckOptions): Pick<LinkOutcome, 'statusCode' | 'status' | 'broken' | 'timedOut' | 'notChecked'> {
  const reason = error instanceof PublicFetchError ? error.reason : 'unreachable';
  const message = error instanceof Error ? error.message : String(error);
  const status = reason === 'timeout' ? `no answer within ${options.timeoutMs / 1000} s` : `${reason === 'busy' ? 'not checked' : reason}: ${message}`;
  const timedOut = reason === 'timeout' || (error instanceof PublicFetchError && error.code === 'ETIMEOUT');
  return { statusCode: 0, status, broken: true, timedOut, notChecked: reason === 'busy' };
}

/** One link's outcome; never rejects for the link's sake. */
export async function checkLink(url: string, options: LinkCheckOptions): Promise<LinkOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  const visited = new Set([url]);
  let current = url;
  let redirects = 0;
  const followed = () => (options.follow ? { finalUrl: current, redirects } : {});
  for (;;) {
    let answer: PublicFetchResponse;
    try {
      answer = await requestOnce(current, deadline, options);
    } catch (error) {
      return { url, ...failure(error, options), ...followed() };
    }
    const next = answer.location;
    if (!options.follow || !REDIRECTS.has(answer.status) || next === null) {
      return { url, statusCode: answer.status, status: reasonPhrase(answer.status), broken: answer.status >= 400, timedOut: false, notChecked: false, ...followed() };
    }
    if (redirects === options.maxRedirects || visited.has(next)) {
      const why = visited.has(next) ? `redirect loop: ${next} was visited before` : `more than ${options.maxRedirects} redirects`;
      return { url, statusCode: answer.status, status: `${reasonPhrase(answer.status)}; ${why}`, broken: true, timedOut: false, notChecked: false, ...followed() };
    }
    visited.add(next);
    current = next;
    redirects++;
  }
}

export interface LinkSchedule {
  /** Links requested at the same time, all hosts together. */
  atOnce: number;
  /** Links requested at the same time from one host (name and port), so a check never floods a server. */
  perHost: number;
}

/** The host:port a link is scheduled under; an unparseable URL has its own slot (it is refused without a request). */
function hostKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/**
 * Every link's outcome, in the order given. Once a host has let one link's time run out, its links not yet started
 * are reported without a request: otherwise a host that never answers would hold the check for its time limit once
 * per link it has, a few at a time.
 */
export function checkLinks(urls: string[], options: LinkCheckOptions & LinkSchedule): Promise<LinkOutcome[]> {
  const outcomes: LinkOutcome[] = new Array(urls.length);
  const waiting = urls.map((url, index) => ({ url, index, host: hostKey(url) }));
  const busyHosts = new Map<string, number>();
  const silentHosts = new Set<string>();
  let running = 0;
  return new Promise((resolve) => {
    const startMore = () => {
      for (let position = 0; position < waiting.length && running < options.atOnce;) {
        const { url, index, host } = waiting[position]!;
        if (silentHosts.has(host)) {
          waiting.splice(position, 1);
          outcomes[index] = {
            url, statusCode: 0, status: `no answer within ${options.timeoutMs / 1000} s (not requested: ${host} did not answer another link of this message in time)`,
            broken: true, timedOut: true, notChecked: false, ...(options.follow ? { finalUrl: url, redirects: 0 } : {}),
          };
          continue;
        }
        if ((busyHosts.get(host) ?? 0) >= options.perHost) {
          position++;
          continue;
        }
        waiting.splice(position, 1);
        running++;
        busyHosts.set(host, (busyHosts.get(host) ?? 0) + 1);
        void checkLink(url, options).then((outcome) => {
          outcomes[index] = outcome;
          // Only the link's own host: a timeout further along a redirect chain says nothing about it.
          if (outcome.timedOut && !outcome.redirects) silentHosts.add(host);
          running--;
          busyHosts.set(host, busyHosts.get(host)! - 1);
          startMore();
        });
      }
      if (running === 0 && waiting.length === 0) resolve(outcomes);
    };
    startMore();
  });
}
