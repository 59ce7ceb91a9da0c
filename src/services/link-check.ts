// The link check of a message: every http(s) URL it refers to, found in the content worker pool, requested from
// this thread (I/O only) under the target policy, with a short cache. Reading a message this way never marks it read.
import { AppError } from '../errors.js';
import type { ContentPool } from '../content/content-pool.js';
import { checkLinks, type LinkOutcome } from '../outbound/check-links.js';
import type { TargetPolicy } from '../outbound/target-policy.js';
import type { MessageService } from './messages.js';

export interface LinkCheckReport {
  /** Unique http(s) URLs in the message. */
  found: number;
  /** More were found than are checked; `links` holds the first LINKS_CHECKED. */
  capped: boolean;
  /** Links broken for a reader: 400 or more, refused, unreachable, no answer in time, redirects without end. */
  errors: number;
  links: LinkOutcome[];
}

/** Links checked per message, in order of appearance; a message with more says so in `capped`. */
const LINKS_CHECKED = 100;
/** One link's whole check, redirects included: what a reader waits before giving up on a page. */
const LINK_TIMEOUT_MS = 10_000;
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

export class LinkCheckService {
  /** By workspace, follow and URL: another tenant's check never answers this one's, nor a plain check a followed one. */
  private readonly cache = new Map<string, { outcome: LinkOutcome; expires: number }>();

  constructor(
    private readonly messages: MessageService,
    private readonly pool: ContentPool,
    private readonly policy: TargetPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  async check(workspaceId: string, id: string, follow: boolean, signal?: AbortSignal): Promise<LinkCheckReport> {
    const record = await this.messages.require(workspaceId, id);
    if (record.analysisCutShort) throw new AppError('analysis_limit', `the links of message ${id} could not be read: ${record.parseError}`);
    const { links, found } = await this.pool.checkableLinks(record.workspaceId, await this.messages.rawOf(record), LINKS_CHECKED);

    const keyOf = (url: string) => JSON.stringify([workspaceId, follow, url]);
    const cached = new Map(links.flatMap((url) => {
      const entry = this.cache.get(keyOf(url));
      return entry && entry.expires > this.now() ? [[url, entry.outcome] as const] : [];
    }));
    const toRequest = links.filter((url) => !cached.has(url));
    const requested = await checkLinks(toRequest, {
      policy: this.policy, workspaceId, follow, timeoutMs: LINK_TIMEOUT_MS, maxRedirects: MAX_REDIRECTS, signal, ...SCHEDULE,
    });
    // Outcomes of a check whose client went away are cut short, and links whose lookups were refused for now were not
    // requested: neither is a fact about the link.
    if (!signal?.aborted) for (const outcome of requested) if (!outcome.notChecked) this.remember(keyOf(outcome.url), outcome);

    const fresh = new Map(requested.map((outcome) => [outcome.url, outcome]));
    const outcomes = links.map((url) => cached.get(url) ?? fresh.get(url)!);
    return { found, capped: found > links.length, errors: outcomes.filter((outcome) => outcome.broken).length, links: outcomes };
  }

  private remember(key: string, outcome: LinkOutcome): void {
    const now = this.now();
    this.cache.delete(key);
    this.cache.set(key, { outcome, expires: now + CACHE_TTL_MS });
    // Insertion order is expiry order, so the stale and the surplus are at the front.
    for (const [oldest, entry] of this.cache) {
      if (entry.expires > now && this.cache.size <= CACHE_ENTRIES) break;
      this.cache.delete(oldest);
    }
  }
}
