// The HTML check (GET /v1/messages/{id}/html-check): how well email clients support the HTML and CSS a message uses.
// The analysis runs on a content worker; the stylesheets the HTML links are fetched here, between two steps, through the
// public-address-only fetcher, a few at a time and each bounded in time and size, since fetching is I/O and not a
// worker's job.
import { AppError } from '../../errors.js';
import type { components } from '../../contract/api-types.js';
import type { HtmlCheckFindings, LinkedStylesheet, StylesheetLink } from '../../domain/html-check.js';
import { contentStep } from '../../content/content-pool.js';
import type { messageHtmlCheck } from '../../mime/html-check.js';
import { PublicFetchError, publicFetch } from '../../outbound/public-fetch.js';
import type { TargetPolicy } from '../../outbound/target-policy.js';
import type { MessageCheck } from './message-check.js';

/** Linked stylesheets fetched per check: a newsletter links one or two; a stranger could link thousands. */
const STYLESHEET_LIMIT = 5;
/** Bytes of one stylesheet; email CSS is small, and a larger one is more likely a stranger's trap than a stylesheet. */
const STYLESHEET_MAX_BYTES = 512 * 1024;
const STYLESHEET_REDIRECTS = 3;
/** Stylesheets fetched at once. */
const STYLESHEET_CONCURRENCY = 3;

/**
 * With no stylesheets it looks for linked ones first and, when there are any, answers with at most `stylesheetLimit` of
 * them to fetch; run again with their CSS, it checks. Loaded by a worker on its first HTML check: the CSS parser and the
 * caniemail data cost memory a worker that never checks need not hold.
 */
const ANALYSE_HTML = contentStep<typeof messageHtmlCheck>(import.meta.url, '../../mime/html-check', 'messageHtmlCheck');

interface HtmlCheckFinding {
  findings: HtmlCheckFindings;
  stylesheets: LinkedStylesheet[];
}

export function htmlCheck(policy: TargetPolicy): MessageCheck<unknown, HtmlCheckFinding, components['schemas']['HtmlCheck'], 'getMessageHtmlCheck'> {
  return {
    name: 'html-check',
    operationId: 'getMessageHtmlCheck',
    title: 'HTML check',
    needs: { message: 'parsed', outside: 'network' },
    // The whole fetch of one stylesheet, redirects included.
    budget: { requestTimeoutMs: 5000, maxMessageBytes: null },
    notConfigured: null,
    async run(message, { budget }) {
      const { record } = message;
      if (!record.hasHtml) throw noHtml(record.id);
      let outcome = await message.inPool(ANALYSE_HTML, null, STYLESHEET_LIMIT);
      let stylesheets: LinkedStylesheet[] = [];
      if (outcome.kind === 'stylesheets-linked') {
        stylesheets = await fetchAll(policy, record.workspaceId, outcome.links, budget.requestTimeoutMs);
        outcome = await message.inPool(ANALYSE_HTML, stylesheets, STYLESHEET_LIMIT);
      }
      if (outcome.kind === 'no-html') throw noHtml(record.id);
      if (outcome.kind !== 'checked') throw new Error('the HTML check asked for stylesheets it had been given');
      return { findings: outcome.findings, stylesheets };
    },
    present: ({ findings, stylesheets }) => ({
      ...findings,
      Stylesheets: stylesheets.map(({ url, error }) => ({ URL: url, Checked: error === null, Error: error })),
    }) satisfies components['schemas']['HtmlCheck'],
  };
}

const failed = (url: string, error: string): LinkedStylesheet => ({ url, css: null, error });

async function fetchAll(policy: TargetPolicy, workspaceId: string, links: StylesheetLink[], timeoutMs: number): Promise<LinkedStylesheet[]> {
  const results: LinkedStylesheet[] = new Array(links.length);
  let next = 0;
  const fetchNext = async (): Promise<void> => {
    for (let index = next++; index < links.length; index = next++) results[index] = await fetchOne(policy, workspaceId, links[index]!, timeoutMs);
  };
  await Promise.all(Array.from({ length: Math.min(STYLESHEET_CONCURRENCY, links.length) }, fetchNext));
  return results;
}

/**
 * One stylesheet, following redirects (each hop checked against the policy anew, its name looked up in the workspace's
 * turn) within `timeoutMs` in all; its CSS, or why there is none.
 */
async function fetchOne(policy: TargetPolicy, workspaceId: string, link: StylesheetLink, timeoutMs: number): Promise<LinkedStylesheet> {
  if (link.url === null) return failed(link.href, 'a relative URL, and no <base href> to resolve it against');
  const deadline = Date.now() + timeoutMs;
  let target = link.url;
  for (let redirects = 0; ; redirects++) {
    const left = deadline - Date.now();
    if (left <= 0) return failed(link.url, `no answer within ${timeoutMs / 1000} s`);
    let response;
    try {
      response = await publicFetch(target, { method: 'GET', policy, workspaceId, timeoutMs: left, maxBodyBytes: STYLESHEET_MAX_BYTES, headers: { Accept: 'text/css,*/*;q=0.1' } });
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

const noHtml = (id: string) => new AppError('not_found', `message ${id} has no HTML part to check`);
