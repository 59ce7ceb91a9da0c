// What a reader sees of a message, derived from its raw bytes: bodies, decoded headers, links, attachments.
// Runs only inside the content worker pool (src/content/content-worker.ts), never on the event loop.
import type { Attachment, ParsedMail } from 'mailparser';
import libmime from 'libmime';
import { inlineCidImages } from './cid-images.js';
import { extractCheckableLinks, extractLinks } from './extract-links.js';
import { parseMime } from './parse-email.js';
import { parseListUnsubscribe } from './list-unsubscribe.js';
import {
  EMPTY_VIEW, THUMBNAILABLE, VIEW_FIELD_CHARACTERS, type AttachmentContent, type MessageParts, type MessageView, type TruncatedField,
} from '../domain/message-view.js';

const filenameOf = (attachment: Attachment, index: number) => attachment.filename ?? `attachment-${index + 1}`;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * mailparser keeps header lines as one character per byte. Raw 8-bit values (RFC 6532) are UTF-8 when they
 * decode as such; anything else is shown byte for byte, as Latin-1.
 */
function headerText(binary: string): string {
  try {
    return strictUtf8.decode(Buffer.from(binary, 'latin1'));
  } catch {
    return binary;
  }
}

/** Broken MIME was stored anyway; whatever mailparser cannot read is simply absent. */
const parseOrNull = (raw: Buffer): Promise<ParsedMail | null> => parseMime(raw).catch(() => null);

/** The first `limit` UTF-16 units of `text`, one fewer where the cut would split a surrogate pair. */
function textStart(text: string, limit: number): string {
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return text.slice(0, end);
}

/** Keeps fields within VIEW_FIELD_CHARACTERS each, and which of them it cut. */
class ViewLimits {
  readonly truncated: TruncatedField[] = [];

  body(field: 'text' | 'html', body: string | null): string | null {
    return body === null || body.length <= VIEW_FIELD_CHARACTERS ? body : this.cut(field, textStart(body, VIEW_FIELD_CHARACTERS));
  }

  /** The links, in order, as many as fit whole. */
  links(links: string[]): string[] {
    let left = VIEW_FIELD_CHARACTERS;
    for (const [index, link] of links.entries()) {
      left -= link.length;
      if (left < 0) return this.cut('links', links.slice(0, index));
    }
    return links;
  }

  /** The header fields in order, each counted by its name and value; the one that crosses the limit is cut there. */
  headers(lines: { key: string; value: string }[]): Record<string, string[]> {
    const headers: Record<string, string[]> = {};
    let left = VIEW_FIELD_CHARACTERS;
    for (const { key, value } of lines) {
      left -= key.length;
      if (value.length > left) {
        if (left > 0) (headers[key] ??= []).push(textStart(value, left));
        return this.cut('headers', headers);
      }
      (headers[key] ??= []).push(value);
      left -= value.length;
    }
    return headers;
  }

  private cut<T>(field: TruncatedField, kept: T): T {
    this.truncated.push(field);
    return kept;
  }
}

/** A reader's view of the message, its large fields cut at VIEW_FIELD_CHARACTERS each. */
export async function messageView(raw: Buffer): Promise<MessageView> {
  const parsed = await parseOrNull(raw);
  if (!parsed) return EMPTY_VIEW;
  const html = typeof parsed.html === 'string' ? parsed.html : null;
  const text = parsed.text ?? null;
  const rawValues = (name: string) => parsed.headerLines.filter((header) => header.key === name).map(({ line }) => headerText(line.slice(line.indexOf(':') + 1)));
  const headerLines = parsed.headerLines.map(({ key, line }) => {
    const value = headerText(line.slice(line.indexOf(':') + 1)).replace(/\r?\n[ \t]+/g, ' ').trim();
    try {
      return { key, value: libmime.decodeWords(value) };
    } catch {
      // An undecodable encoded-word is shown as written.
      return { key, value };
    }
  });
  const limits = new ViewLimits();
  return {
    text: limits.body('text', text),
    html: limits.body('html', html),
    headers: limits.headers(headerLines),
    links: limits.links(extractLinks(html ?? '', text ?? '')),
    attachments: parsed.attachments.map((attachment, index) => ({
      index,
      filename: filenameOf(attachment, index),
      contentType: attachment.contentType,
      size: attachment.size,
      isImage: THUMBNAILABLE.test(attachment.contentType),
    })),
    listUnsubscribe: parseListUnsubscribe({ listUnsubscribe: rawValues('list-unsubscribe'), listUnsubscribePost: rawValues('list-unsubscribe-post') }),
    truncated: limits.truncated,
  };
}

/** The HTML body as it is served: as sent, its cid: images inlined. Null when the message has none. */
function servedHtml(parsed: ParsedMail): string | null {
  return typeof parsed.html === 'string' && parsed.html !== '' ? inlineCidImages(parsed.html, parsed.attachments) : null;
}

export async function htmlBody(raw: Buffer): Promise<string | null> {
  const parsed = await parseOrNull(raw);
  return parsed && servedHtml(parsed);
}

/** The first `limit` URLs the link check requests (see extractCheckableLinks), and how many unique ones there are. */
export async function checkableLinks(raw: Buffer, limit: number): Promise<{ links: string[]; found: number }> {
  const parsed = await parseOrNull(raw);
  if (!parsed) return { links: [], found: 0 };
  const all = extractCheckableLinks(typeof parsed.html === 'string' ? parsed.html : '', parsed.text ?? '');
  return { links: all.slice(0, limit), found: all.length };
}

/** One attachment's decoded content, with how many the message has (to name the range when `index` is past it). */
export async function attachmentContent(raw: Buffer, index: number): Promise<{ attachment: AttachmentContent | null; count: number }> {
  const parsed = await parseOrNull(raw);
  const attachment = parsed?.attachments[index];
  return {
    attachment: attachment ? { filename: filenameOf(attachment, index), contentType: attachment.contentType, content: attachment.content } : null,
    count: parsed?.attachments.length ?? 0,
  };
}

/**
 * Every attachment's decoded content and the HTML body as served, from one parse, to be kept so later reads need none. Each
 * content is copied into memory of its own: a slice of a shared slab would carry the whole slab to the event loop.
 */
export async function messageParts(raw: Buffer): Promise<MessageParts> {
  const parsed = await parseOrNull(raw);
  if (!parsed) return { html: null, attachments: [] };
  return {
    html: servedHtml(parsed),
    attachments: parsed.attachments.map((attachment, index) => ({
      filename: filenameOf(attachment, index),
      contentType: attachment.contentType,
      content: new Uint8Array(attachment.content),
    })),
  };
}
