// Derives the searchable fields of a message from its raw bytes; never throws, reports problems in parseError.
// Runs only inside the content worker pool (src/content/content-worker.ts), never on the event loop.
import { simpleParser, type AddressObject, type Attachment, type EmailAddress, type HeaderValue, type ParsedMail } from 'mailparser';
import { linkDetails, LINK_DETAILS_KEPT } from './extract-links.js';
import { readHtml } from './html-text.js';
import { headerSummary } from './header-summary.js';
import { snippetOf } from './snippet.js';
import { findOneTimeCodes } from './one-time-codes.js';
import type { HeaderAddressKeys, LinkDetail, OneTimeCode } from '../domain/types.js';
import { mailboxKeys } from '../domain/mailbox-key.js';
import { searchBody } from '../domain/search-text.js';

export interface ParsedEmail {
  from: string;
  to: string;
  cc: string;
  /** Read for search alone (search-text.ts), as are replyTo and inlineCount's parts. */
  bcc: string;
  replyTo: string;
  /** The keys of the addresses From, To, Cc, Bcc and Reply-To name, group members included (domain/mailbox-key.ts). */
  headerAddresses: HeaderAddressKeys;
  subject: string;
  messageId: string;
  hasText: boolean;
  hasHtml: boolean;
  attachmentCount: number;
  inlineCount: number;
  linkCount: number;
  /** The text body for full-text search: its first SEARCH_TEXT_LIMIT characters. */
  textBody: string;
  /** Text of the HTML body (as html-text.ts lays it out) for full-text search: its first SEARCH_TEXT_LIMIT characters. */
  htmlText: string;
  /** The start of the text body (or else of the HTML's text) on one line, for a message list (snippet.ts). */
  snippet: string;
  codes: OneTimeCode[];
  linkDetails: LinkDetail[];
  parseError: string | null;
  /** The content pool stopped the analysis (a limit, a crash) and read only the header fields; parseError says why. */
  analysisCutShort: boolean;
}

/**
 * What a capture keeps of a message's parse: its body as search reads it (search-text.ts) in place of the two texts it
 * is made of, so the content worker that parsed the message normalises them and sends back one string, not two.
 */
export type MessageAnalysis = Omit<ParsedEmail, 'textBody' | 'htmlText'> & { searchBody: string };

export function messageAnalysis({ textBody, htmlText, ...parsed }: ParsedEmail): MessageAnalysis {
  return { ...parsed, searchBody: searchBody(textBody, htmlText) };
}

/**
 * Search reads this many characters of the text body and as many of the HTML body's text. Indexing cost grows
 * with the text, and the index write is one step every capture waits for; mail beyond 128 Ki characters of body
 * text is rare, and all of it is still stored and shown.
 */
export const SEARCH_TEXT_LIMIT = 128 * 1024;

const entriesOf = (value: AddressObject | AddressObject[] | undefined): EmailAddress[] =>
  value === undefined ? [] : (Array.isArray(value) ? value : [value]).flatMap((entry) => entry.value);

/** A display name as a quoted string: its quotes and backslashes escaped, so the text parses back to the same name. */
const quotedName = (name: string) => `"${name.replace(/["\\]/g, '\\$&')}"`;

function entryText(entry: EmailAddress): string {
  const name = entry.name ? quotedName(entry.name) : '';
  if (entry.group) return `${name && `${name}: `}${entry.group.map(entryText).join(', ')};`;
  if (!entry.address) return name;
  return name ? `${name} <${entry.address}>` : entry.address;
}

/**
 * An address header as one line that parses back to the same mailboxes and names: mailparser's own text, but with
 * quotes inside a display name escaped (mailparser writes `"a "b""` for the name `a "b"`). Addresses are as
 * mailparser reads them, a local part quoted where it needs to be.
 */
export const addressText = (value: AddressObject | AddressObject[] | undefined): string => entriesOf(value).map(entryText).join(', ');

/** The addresses of an address header, group members included. */
function addressesOf(value: AddressObject | AddressObject[] | undefined): string[] {
  const flat = (entry: EmailAddress): string[] => (entry.group ? entry.group.flatMap(flat) : entry.address ? [entry.address] : []);
  return entriesOf(value).flatMap(flat);
}

/** A part the message shows in its body: marked inline, or an image its HTML embeds by cid: (multipart/related). */
const isShownInline = (attachment: Attachment): boolean => attachment.contentDisposition === 'inline' || attachment.related === true;

const HEADER_LINE = /^[!-9;-~]+:/;

/**
 * MIME problems mailparser silently tolerates but a tester needs to know about: a header section that
 * is not headers, and a multipart body whose boundaries are absent or never closed.
 */
function structuralProblem(raw: Buffer, contentType: HeaderValue | undefined): string | null {
  const text = raw.toString('latin1');
  const headerEnd = text.search(/\r?\n\r?\n/);
  const headerLines = (headerEnd === -1 ? text : text.slice(0, headerEnd)).split(/\r?\n/);
  for (const [index, line] of headerLines.entries()) {
    if (line === '' || /^[ \t]/.test(line)) continue;
    if (!HEADER_LINE.test(line)) return `line ${index + 1} of the header section is not a header field: '${line.slice(0, 60)}'`;
  }
  if (headerEnd === -1 && text.trim().length > 0) return 'no blank line separates the header section from a body';
  if (!contentType || typeof contentType !== 'object' || !('params' in contentType)) return null;
  const mimeType = String(contentType.value).toLowerCase();
  if (!mimeType.startsWith('multipart/')) return null;
  const boundary = contentType.params.boundary;
  if (!boundary) return `${mimeType} without a boundary parameter`;
  const body = text.slice(headerEnd);
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (!new RegExp(`(^|\\n)--${escaped}[ \\t]*\\r?(\\n|$)`).test(body)) return `multipart boundary '${boundary}' never appears in the body`;
  if (!new RegExp(`(^|\\n)--${escaped}--`).test(body)) return `multipart closing boundary '--${boundary}--' is missing`;
  return null;
}

/** MIME parts (of any depth) read from one message; a message with more is not parsed past its header fields. */
export const MIME_PART_LIMIT = 1000;
/** Bytes of one part's header section; a larger one stops the parse the same way. */
export const MIME_HEADER_LIMIT = 1024 * 1024;

/** The limit a parse stopped at, in words, for mailsplit's size errors; other errors as they are. */
function mimeFailure(error: Error): string {
  if (/child nodes/i.test(error.message)) return `more than ${MIME_PART_LIMIT} MIME parts (the limit per message)`;
  if (/header size/i.test(error.message)) return `a header section over ${MIME_HEADER_LIMIT / 1024 / 1024} MiB (the limit per MIME part)`;
  return error.message;
}

/**
 * mailparser as this service uses it: bodies as sent, no text or HTML made up from the other, bounded parts. Its cid:
 * references stay as written: the HTML that is served has them resolved by cid-images.ts, the one way of doing so.
 */
export const parseMime = (raw: Buffer): Promise<ParsedMail> =>
  simpleParser(raw, {
    skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true, keepCidLinks: true,
    // Passed on to mailparser's splitter (mailsplit), which enforces them; the typings do not list them.
    ...{ maxChildNodes: MIME_PART_LIMIT, maxHeadSize: MIME_HEADER_LIMIT },
  });

export async function parseEmail(raw: Buffer): Promise<ParsedEmail> {
  let parsed: ParsedMail;
  try {
    parsed = await parseMime(raw);
  } catch (error) {
    // What the header section says still makes the message findable.
    return {
      ...headerSummary(raw), hasText: false, hasHtml: false, attachmentCount: 0, inlineCount: 0, linkCount: 0, textBody: '', htmlText: '', snippet: '', codes: [], linkDetails: [],
      parseError: `not parseable as MIME: ${mimeFailure(error as Error)}; only the header fields From, To, Cc, Bcc, Reply-To, Subject and Message-ID were read`,
      // The bytes are what stopped it: a later read meets the same bytes and says so itself, within the limits.
      analysisCutShort: false,
    };
  }
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const textBody = parsed.text ?? '';
  // One reading of the HTML gives its text (search, snippet, codes) and its links.
  const { text: htmlText, anchors } = readHtml(html, SEARCH_TEXT_LIMIT);
  const links = linkDetails(anchors, textBody);
  return {
    from: addressText(parsed.from),
    to: addressText(parsed.to),
    cc: addressText(parsed.cc),
    bcc: addressText(parsed.bcc),
    replyTo: addressText(parsed.replyTo),
    headerAddresses: {
      from: mailboxKeys(addressesOf(parsed.from)),
      to: mailboxKeys(addressesOf(parsed.to)),
      cc: mailboxKeys(addressesOf(parsed.cc)),
      bcc: mailboxKeys(addressesOf(parsed.bcc)),
      replyTo: mailboxKeys(addressesOf(parsed.replyTo)),
    },
    subject: parsed.subject ?? '',
    messageId: parsed.messageId ?? '',
    hasText: textBody.length > 0,
    hasHtml: html.length > 0,
    attachmentCount: parsed.attachments.length,
    inlineCount: parsed.attachments.filter(isShownInline).length,
    linkCount: links.length,
    textBody: textBody.slice(0, SEARCH_TEXT_LIMIT),
    htmlText,
    snippet: snippetOf(textBody.trim() === '' ? htmlText : textBody),
    codes: findOneTimeCodes({ subject: parsed.subject ?? '', text: textBody, html: htmlText }),
    linkDetails: links.slice(0, LINK_DETAILS_KEPT),
    parseError: structuralProblem(raw, parsed.headers.get('content-type')),
    analysisCutShort: false,
  };
}
