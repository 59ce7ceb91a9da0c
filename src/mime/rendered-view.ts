// The rendered views of a message (view.html, view.txt): its HTML with its cid: images inlined, or its text as an
// HTML page; its text, or text made from its HTML. Runs only inside the content worker pool.
import { convert as htmlToText } from 'html-to-text';
import { parseMime } from './parse-email.js';

/** What a view is made from when the message cannot be parsed at all: nothing. */
const unparsed = { html: null, text: null, subject: '', attachments: [] as { cid?: string; contentType: string; content: Buffer }[] };

async function parts(raw: Buffer) {
  const parsed = await parseMime(raw, { keepCidLinks: true }).catch(() => null);
  if (!parsed) return unparsed;
  return {
    html: typeof parsed.html === 'string' && parsed.html !== '' ? parsed.html : null,
    text: parsed.text ?? null,
    subject: parsed.subject ?? '',
    attachments: parsed.attachments,
  };
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

/** A cid: URL (RFC 2392) as written in an attribute or a CSS url(): up to a quote, white space, ) or >. */
const CID_URL = /cid:([^\s"'()<>]+)/gi;

/** A Content-ID as a cid: URL names it: without angle brackets, percent-decoded, compared without regard to case. */
function contentIdKey(value: string): string {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // A malformed escape is compared as written.
  }
  return decoded.replace(/^<|>$/g, '').toLowerCase();
}

/**
 * The message as a page: its HTML with every cid: reference to one of its image attachments replaced by that image as
 * a data: URI, or, without HTML, its text escaped in a <pre>. Inlined, the page needs nothing from anywhere to show
 * its images: it is served with an opaque origin (CSP sandbox), and our own attachment links refuse to be embedded
 * by any origin but ours. References to no image stay as written, so the page shows a missing image.
 */
export async function renderedHtml(raw: Buffer): Promise<string> {
  const { html, text, subject, attachments } = await parts(raw);
  if (html !== null) {
    const urlByContentId = new Map<string, string>();
    for (const attachment of attachments) {
      if (attachment.cid && /^image\/[\w.+-]+$/i.test(attachment.contentType)) {
        urlByContentId.set(contentIdKey(attachment.cid), `data:${attachment.contentType};base64,${attachment.content.toString('base64')}`);
      }
    }
    return urlByContentId.size === 0 ? html : html.replace(CID_URL, (reference, id: string) => urlByContentId.get(contentIdKey(id)) ?? reference);
  }
  return [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8">',
    `<title>${escapeHtml(subject)}</title>`,
    '</head><body>',
    `<pre style="white-space: pre-wrap; overflow-wrap: anywhere; font-family: ui-monospace, monospace; margin: 1em">${escapeHtml(text ?? '')}</pre>`,
    '</body></html>',
  ].join('\n');
}

/** The text part as sent, or else the HTML's text as a reader would want it (links shown after their words). */
export async function renderedText(raw: Buffer): Promise<string> {
  const { html, text } = await parts(raw);
  if (text !== null && text.trim() !== '') return text;
  if (html === null) return text ?? '';
  return htmlToText(html, { wordwrap: false, selectors: [{ selector: 'img', format: 'skip' }] });
}
