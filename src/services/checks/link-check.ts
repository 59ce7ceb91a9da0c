// The link check (GET /v1/messages/{id}/link-check): every http(s) URL a message refers to, found on a content worker,
// requested from this thread (I/O only) under the target policy, with a short cache.
import { contentStep } from '../../content/content-pool.js';
import type { checkableLinks } from '../../mime/message-view.js';
import { checkLinks, type LinkOutcome } from '../../outbound/check-links.js';
import { oneTimeReason } from '../../outbound/one-time-links.js';
import type { TargetPolicy } from '../../outbound/target-policy.js';
import type { MessageCheck, OperationData } from './message-check.js';

export interface LinkCheckReport {
  /** Unique http(s) URLs in the message. */
  found: number;
  /** More were found than are checked; `links` holds the first LINKS_CHECKED. */
  capped: boolean;
  /** Links broken for a reader: 400 or more, refused, unreachable, no answer in time, redirects without end. */
  errors: number;
  links: LinkOutcome[];
}

type LinkCheckJson = OperationData<'checkMessageLinks'>;

/** Links checked per message, in order of appearance; a message with more says so in `capped`. */
const LINKS_CHECKED = 100;
const MAX_REDIRECTS = 5;
/** Per check, not per process: one tenant's check of a slow host must not queue behind another tenant's. */
const SCHEDULE = { atOnce: 10, perHost: 2 };
/**
 * Long enough that reloading a check does not request every link again, short enough that a fixed link shows as
 * fixed half a minute later. Kept per node: it only saves requests, and a check on another node simply makes them.
 */
const CACHE_TTL_MS = 30_000;
/** Outcomes kept at most; the oldest go first. */
const CACHE_ENTRIES = 10_000;

/** The first `limit` of the URLs to request, and how many unique ones the message has. */
const FIND_LINKS = contentStep<typeof checkableLinks>(import.meta.url, '../../mime/message-view', 'checkableLinks');

const linkJson = (outcome: LinkOutcome): LinkCheckJson['Links'][number] => ({
  URL: outcome.url,
  StatusCode: outcome.statusCode,
  Status: outcome.status,
  ...(outcome.finalUrl === undefined ? {} : { FinalURL: outcome.finalUrl, Redirects: outcome.redirects }),
});

/** What a skipped link is reported as: no request, no fact about the link. */
const skipped = (url: string, why: string): LinkOutcome => ({
  url, statusCode: 0, status: `skipped: looks like a one-time link (${why}); not requested`, broken: false, timedOut: false, notChecked: true,
});

export function linkCheck(policy: TargetPolicy, now: () => number = Date.now): MessageCheck<{ follow: boolean; skip_one_time: boolean }, LinkCheckReport, LinkCheckJson, 'checkMessageLinks'> {
  /** By workspace, follow and URL: another tenant's check never answers this one's, nor a plain check a followed one. */
  const cache = new Map<string, { outcome: LinkOutcome; expires: number }>();

  const remember = (key: string, outcome: LinkOutcome): void => {
    const at = now();
    cache.delete(key);
    cache.set(key, { outcome, expires: at + CACHE_TTL_MS });
    // Insertion order is expiry order, so the stale and the surplus are at the front.
    for (const [oldest, entry] of cache) {
      if (entry.expires > at && cache.size <= CACHE_ENTRIES) break;
      cache.delete(oldest);
    }
  };

  return {
    name: 'link-check',
    operationId: 'checkMessageLinks',
    title: 'link check',
    needs: { message: 'parsed', outside: 'network' },
    // One link's whole check, redirects included: what a reader waits before giving up on a page.
    budget: { requestTimeoutMs: 10_000, maxMessageBytes: null },
    notConfigured: null,
    async run(message, { query: { follow, skip_one_time: skipOneTime }, signal, budget }) {
      const { workspaceId } = message.record;
      const { links, found } = await message.inPool(FIND_LINKS, LINKS_CHECKED);

      const keyOf = (url: string) => JSON.stringify([workspaceId, follow, url]);
      const cached = new Map(links.flatMap((url) => {
        const entry = cache.get(keyOf(url));
        return entry && entry.expires > now() ? [[url, entry.outcome] as const] : [];
      }));
      const spared = new Map(skipOneTime ? links.flatMap((url) => {
        const why = oneTimeReason(url);
        return why === null ? [] : [[url, skipped(url, why)] as const];
      }) : []);
      const toRequest = links.filter((url) => !cached.has(url) && !spared.has(url));
      const requested = await checkLinks(toRequest, {
        policy, workspaceId, follow, timeoutMs: budget.requestTimeoutMs, maxRedirects: MAX_REDIRECTS, signal, ...SCHEDULE,
      });
      // Outcomes of a check whose client went away are cut short, and links whose lookups were refused for now were not
      // requested: neither is a fact about the link.
      if (!signal.aborted) for (const outcome of requested) if (!outcome.notChecked) remember(keyOf(outcome.url), outcome);

      const fresh = new Map(requested.map((outcome) => [outcome.url, outcome]));
      const outcomes = links.map((url) => spared.get(url) ?? cached.get(url) ?? fresh.get(url)!);
      return { found, capped: found > links.length, errors: outcomes.filter((outcome) => outcome.broken).length, links: outcomes };
    },
    /** In Mailpit's capitalised field names. */
    present: (report) => ({
      Found: report.found,
      Capped: report.capped,
      Errors: report.errors,
      Links: report.links.map(linkJson),
    }) satisfies LinkCheckJson,
  };
}
