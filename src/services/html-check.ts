// The HTML check of a message (GET /v1/messages/{id}/html-check). The analysis runs in the content worker pool; the
// stylesheets the HTML links are fetched here, between two pool tasks, through the public-address-only fetcher, a few
// at a time and each bounded in time and size, since fetching is I/O and not a worker's job.
import { AppError } from '../errors.js';
import type { components } from '../contract/api-types.js';
import type { LinkedStylesheet, StylesheetLink } from '../domain/html-check.js';
import type { ContentPool } from '../content/content-pool.js';
import { PublicFetchError, publicFetch } from '../outbound/public-fetch.js';
import type { TargetPolicy } from '../outbound/target-policy.js';
import type { MessageService } from './messages.js';

/** Linked stylesheets fetched per check: a newsletter links one or two; a stranger could link thousands. */
export const STYLESHEET_LIMIT = 5;
/** Bytes of one stylesheet; email CSS is small, and a larger one is more likely a stranger's trap than a stylesheet. */
const STYLESHEET_MAX_BYTES = 512 * 1024;
/** The whole fetch of one stylesheet, redirects included. */
const STYLESHEET_TIMEOUT_MS = 5000;
const STYLESHEET_REDIRECTS = 3;
/** Stylesheets fetched at once. */
const STYLESHEET_CONCURRENCY = 3;

const failed = (url: string, error: string): LinkedStylesheet => ({ url, css: null, error });

export class HtmlCheckService {
  constructor(private readonly messages: MessageService, private readonly pool: ContentPool, private readonly policy: TargetPolicy) {}

  /** Never marks the message read. */
  async check(workspaceId: string, id: string): Promise<components['schemas']['HtmlCheck']> {
    const record = await this.messages.require(workspaceId, id);
    if (record.analysisCutShort) throw new AppError('analysis_limit', `the HTML of message ${id} could not be checked: ${record.parseError}`);
    if (!record.hasHtml) throw noHtml(id);
    const raw = await this.messages.rawOf(record);
    let outcome = await this.pool.htmlCheck(record.workspaceId, raw, null, STYLESHEET_LIMIT);
    let stylesheets: LinkedStylesheet[] = [];
    if (outcome.kind === 'stylesheets-linked') {
      stylesheets = await this.fetchAll(workspaceId, outcome.links);
      outcome = await this.pool.htmlCheck(record.workspaceId, raw, stylesheets, STYLESHEET_LIMIT);
    }
    if (outcome.kind === 'no-html') throw noHtml(id);
    if (outcome.kind !== 'checked') throw new Error('the HTML check asked for stylesheets it had been given');
    const report: components['schemas']['HtmlCheckStylesheet'][] = stylesheets.map(({ url, error }) => ({ URL: url, Checked: error === null, Error: error }));
    return { ...outcome.findings, Stylesheets: report };
  }

  private async fetchAll(workspaceId: string, links: StylesheetLink[]): Promise<LinkedStylesheet[]> {
    const results: LinkedStylesheet[] = new Array(links.length);
    let next = 0;
    const fetchNext = async (): Promise<void> => {
      for (let index = next++; index < links.length; index = next++) results[index] = await this.fetchOne(workspaceId, links[index]!);
    };
    await Promise.all(Array.from({ length: Math.min(STYLESHEET_CONCURRENCY, links.length) }, fetchNext));
    return results;
  }

  /**
   * One stylesheet, following redirects (each hop checked against the policy anew, its name looked up in the
   * workspace's turn); its CSS, or why there is none.
   */
  private async fetchOne(workspaceId: string, link: StylesheetLink): Promise<LinkedStylesheet> {
    if (link.url === null) return failed(link.href, 'a relative URL, and no <base href> to resolve it against');
    const deadline = Date.now() + STYLESHEET_TIMEOUT_MS;
    let target = link.url;
    for (let redirects = 0; ; redirects++) {
      const timeoutMs = deadline - Date.now();
      if (timeoutMs <= 0) return failed(link.url, `no answer within ${STYLESHEET_TIMEOUT_MS / 1000} s`);
      let response;
      try {
        response = await publicFetch(target, { method: 'GET', policy: this.policy, workspaceId, timeoutMs, maxBodyBytes: STYLESHEET_MAX_BYTES, headers: { Accept: 'text/css,*/*;q=0.1' } });
      } catch (error) {
        if (error instanceof PublicFetchError) return failed(link.url, error.message);
        throw error;
      }
      if (response.location !== null) {
        if (redirects === STYLESHEET_REDIRECTS) return failed(link.url, `more than ${STYLESHEET_REDIRECTS} redirects`);
        target = response.location;
        continue;
      }
      if (response.status < 200 || response.status > 299) return failed(link.url, `answered ${response.status}`);
      if (response.truncated) return failed(link.url, `larger than ${STYLESHEET_MAX_BYTES / 1024} KiB`);
      const type = response.contentType?.split(';')[0]?.trim().toLowerCase();
      // Clients, like browsers, ignore a stylesheet served as anything but CSS.
      if (type && type !== 'text/css') return failed(link.url, `served as ${type}, not text/css`);
      return { url: link.url, css: response.body.toString('utf8'), error: null };
    }
  }
}

const noHtml = (id: string) => new AppError('not_found', `message ${id} has no HTML part to check`);
