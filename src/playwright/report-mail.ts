// What a failed test's report gets from its mailbox: the last wait that failed, with what the inbox held against it,
// a list of the inbox's newest messages, and each one's HTML, text and raw source as attachments, every file bounded.
import type { TestInfo } from '@playwright/test';
import type { Inbox, MailSandbox, MessageSummary } from '../client/index.js';
import { failedWaitText, type FailedWait } from './mailbox-waits.js';

/** The attachment that says which wait of the mailbox failed and why, with the wait's explanation as a table. */
export const FAILED_WAIT = 'mail-sandbox failed wait';
/** The attachment that lists the inbox's newest messages and the files attached for each. */
export const INBOX_MAIL = 'mail-sandbox inbox mail';
/** The most messages a report may ask for; the files' limits bound it as well. */
export const MOST_MESSAGES = 50;

/** Largest file attached for one message; a larger one is named in the list with where to fetch it. */
const FILE_LIMIT = 1024 * 1024;
/** All the message files of one test's report together: a report is read, and the JSON reporter holds them in base64. */
const REPORT_LIMIT = 5 * 1024 * 1024;

/** Where the fixture reads the mail: the client, and the service's URL and key for the HTML, which the client does not fetch. */
export interface MailSource {
  sandbox: MailSandbox;
  baseUrl: string;
  apiKey: string;
}

export async function attachFailedWait(testInfo: TestInfo, failed: FailedWait): Promise<void> {
  await testInfo.attach(FAILED_WAIT, { contentType: 'text/plain', body: failedWaitText(failed) });
}

interface File {
  name: string;
  contentType: string;
  body: Buffer;
}

/**
 * Attaches the list of the inbox's `count` newest messages, then each one's files: `mail-sandbox #<n> <subject>.html`
 * (the rendered HTML, with the policy it was served under written into it, so it runs no script when the report
 * opens it), `.txt` (the text part) and `.eml` (the raw source, byte for byte). A file that cannot be read or does
 * not fit is named in the list instead. Never throws: a report that cannot be made says why in its list.
 */
export async function attachInboxMail(testInfo: TestInfo, source: MailSource, inbox: Inbox, count: number): Promise<void> {
  let summaries: MessageSummary[];
  let total: number;
  try {
    const [page, counted] = await Promise.all([source.sandbox.messages.list(inbox, { limit: count }), source.sandbox.messages.count(inbox)]);
    summaries = page.messages.slice(0, count);
    total = Math.max(counted.messages, summaries.length);
  } catch (error) {
    await testInfo.attach(INBOX_MAIL, { contentType: 'text/plain', body: `Could not read the mail of inbox ${inbox.id} for the report: ${reasonOf(error)}\n` });
    return;
  }
  const heading = `Inbox ${inbox.id} (${inbox.name})`;
  if (summaries.length === 0) {
    await testInfo.attach(INBOX_MAIL, { contentType: 'text/plain', body: `${heading} received no mail.\n` });
    return;
  }
  const budget = { left: REPORT_LIMIT };
  const files: File[] = [];
  const entries: string[] = [];
  for (const [index, summary] of summaries.entries()) {
    const { lines, attached } = await messageFiles(source, summary, `mail-sandbox #${index + 1} ${fileTitle(summary.subject)}`, budget);
    files.push(...attached);
    entries.push([`#${index + 1}  ${summary.id}  received ${summary.received_at}`, ...lines.map((line) => `    ${line}`)].join('\n'));
  }
  const older = total - summaries.length;
  const list = [
    `${heading} received ${total} message(s); the newest ${summaries.length}, newest first, are attached as files named "mail-sandbox #<n> <subject>":`,
    ...entries,
    ...(older > 0 ? [`${older} older message(s) are not attached: GET ${source.baseUrl}/v1/inboxes/${inbox.id}/messages`] : []),
  ];
  await testInfo.attach(INBOX_MAIL, { contentType: 'text/plain', body: `${list.join('\n')}\n` });
  for (const file of files) await testInfo.attach(file.name, { contentType: file.contentType, body: file.body });
}

/** One message's files, and the lines that describe it and them in the list. */
async function messageFiles(source: MailSource, summary: MessageSummary, name: string, budget: { left: number }): Promise<{ lines: string[]; attached: File[] }> {
  const lines = [`from:    ${summary.from || summary.envelope_from || '(none)'}`, `to:      ${summary.recipients.join(', ') || summary.to}`, `subject: ${summary.subject}`];
  const attached: File[] = [];
  const leftOut: string[] = [];
  const offer = (kind: string, file: File | string) => {
    if (typeof file === 'string') {
      leftOut.push(`${kind} (${file})`);
    } else if (file.body.byteLength > budget.left) {
      leftOut.push(`${kind} (the report's ${mebibytes(REPORT_LIMIT)} for mail is used up)`);
    } else {
      budget.left -= file.body.byteLength;
      attached.push(file);
    }
  };
  try {
    if (summary.has_html) offer('html', await htmlFile(source, summary.id, `${name}.html`));
    if (summary.has_text) {
      const detail = await source.sandbox.messages.get(summary.id);
      if (detail.truncated?.includes('text')) lines.push('note:    the .txt holds the start of the text the message detail has; the .eml has all of it');
      if (detail.text === undefined) leftOut.push('text (none in its detail)');
      else offer('text', { name: `${name}.txt`, contentType: 'text/plain; charset=utf-8', body: Buffer.from(detail.text, 'utf8') });
    }
    if (summary.size > FILE_LIMIT) {
      offer('eml', `${mebibytes(summary.size)}, more than ${mebibytes(FILE_LIMIT)}: GET ${source.baseUrl}/v1/messages/${summary.id}/raw`);
    } else if (summary.size > budget.left) {
      offer('eml', `the report's ${mebibytes(REPORT_LIMIT)} for mail is used up`);
    } else {
      offer('eml', { name: `${name}.eml`, contentType: 'message/rfc822', body: Buffer.from(await source.sandbox.messages.raw(summary.id)) });
    }
  } catch (error) {
    leftOut.push(`the rest (could not read it: ${reasonOf(error)})`);
  }
  const kinds = attached.map((file) => file.name.slice(file.name.lastIndexOf('.') + 1));
  lines.push(`files:   ${kinds.length === 0 ? 'none' : kinds.join(', ')}`);
  if (leftOut.length > 0) lines.push(`left out: ${leftOut.join('; ')}`);
  return { lines, attached };
}

/** GET /v1/messages/{id}/html, at most FILE_LIMIT bytes, with the policy it was served under written into it; or why not. */
async function htmlFile(source: MailSource, id: string, name: string): Promise<File | string> {
  const url = `${source.baseUrl}/v1/messages/${encodeURIComponent(id)}/html`;
  const response = await fetch(url, { headers: { Authorization: `Bearer ${source.apiKey}` } });
  if (!response.ok) {
    await response.body?.cancel();
    return `GET ${url} answered ${response.status}`;
  }
  const bytes = await boundedBytes(response, FILE_LIMIT);
  if (bytes === undefined) return `more than ${mebibytes(FILE_LIMIT)}: GET ${url}`;
  const html = withPolicy(new TextDecoder().decode(bytes), response.headers.get('Content-Security-Policy'));
  return { name, contentType: 'text/html; charset=utf-8', body: Buffer.from(html, 'utf8') };
}

/** The body, or undefined once it passes `limit` bytes (it is not read further). */
async function boundedBytes(response: Response, limit: number): Promise<Buffer | undefined> {
  if (Number(response.headers.get('Content-Length') ?? 0) > limit) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}

/** Directives that only a header can carry; a `<meta>` policy ignores them (CSP Level 3, "the meta element"). */
const HEADER_ONLY = new Set(['sandbox', 'frame-ancestors', 'report-uri', 'report-to']);
/** For a server that sent none: no script, nothing remote. */
const FALLBACK_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

/**
 * The HTML with its Content-Security-Policy as a `<meta>` ahead of everything the mail wrote (after its doctype, so
 * the mode it renders in stays), since the report opens an HTML attachment in the report's own origin, without the
 * header the server sent: the mail runs no script there and loads nothing the server would not have.
 */
function withPolicy(html: string, served: string | null): string {
  const kept = (served ?? '').split(';').map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !HEADER_ONLY.has(directive.split(/\s+/)[0]!.toLowerCase()));
  const policy = kept.some((directive) => /^default-src\s/i.test(directive)) ? kept.join('; ') : FALLBACK_POLICY;
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype === null ? meta + html : doctype[0] + meta + html.slice(doctype[0].length);
}

/** The subject as part of a file name: no control characters or path separators, at most 60 characters. */
function fileTitle(subject: string): string {
  // eslint-disable-next-line no-control-regex
  const title = subject.replace(/[\x00-\x1f\x7f-\x9f/\\:*?"<>|]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (title === '') return '(no subject)';
  return title.length <= 60 ? title : `${title.slice(0, 59)}…`;
}

const mebibytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
