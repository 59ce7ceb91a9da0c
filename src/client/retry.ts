// Retrying a request the server answered "later" (429, 503) after the pause it asked for, a bounded number of times.
import { pause, retryAfterSecondsOf } from './errors.js';

/** The fetch the client calls: the standard one, or any function of the same shape (a test's, a proxy agent's). */
export type FetchFunction = (input: Request) => Promise<Response>;

/**
 * 429: the workspace's request rate or one of its shares (waits, streams, queries) is exceeded; 503: the server is busy,
 * out of connections or shutting down, and stored nothing. Either is safe to send again, writes included.
 */
const RETRIED_STATUSES = new Set([429, 503]);
/** Without a Retry-After (a share is full: it frees when one of the workspace's own requests answers) the pause doubles from here. */
const FIRST_BACKOFF_MS = 1000;
const LONGEST_BACKOFF_MS = 8000;
/** A longer Retry-After is handed to the caller as an error rather than waited out inside a call that seems to hang. */
const LONGEST_RETRY_AFTER_SECONDS = 60;

/**
 * Wraps `fetchFunction` so that an answer of 429 or 503 is sent again, up to `maxRetries` times, after its Retry-After
 * (or a doubling pause when it has none). The last answer is returned as it is, for the caller to turn into an error.
 * The request's signal ends a pause at once.
 */
export function retryingFetch(fetchFunction: FetchFunction, maxRetries: number): FetchFunction {
  return async (request) => {
    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      // A request's body can be read once: every attempt but the last sends a copy.
      const response = await fetchFunction(last ? request : request.clone());
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      const retryAfter = retryAfterSecondsOf(response);
      if (retryAfter !== null && retryAfter > LONGEST_RETRY_AFTER_SECONDS) return response;
      await response.body?.cancel();
      await pause(retryAfter !== null ? retryAfter * 1000 : Math.min(LONGEST_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** retry), request.signal);
    }
  };
}
