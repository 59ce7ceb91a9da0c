// The rendered views of a message (view.html, view.txt): its HTML with its cid: images inlined, or its text as an
// HTML page; its text, or text made from its HTML. Runs only inside the content worker pool.
import { convert as htmlToText } from 'html-to-text';
import { inlineCidImages } from './cid-images.js';
import { parseMime } from './parse-email.js';

/** What a view is made from when the message cannot be parsed at all: nothing. */
const unparsed = { html: null, text: null, subject: '', attachments: [] as { cid?: string; contentType: string; content: Buffer }[] };

async function parts(raw: Buffer) {
  const parsed = await parseMime(raw).catch(() => null);
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

/**
 * The message as a page: its HTML with its cid: images inlined (cid-images.ts), or, without HTML, its text escaped in a
 * <pre>.
 */
export async function renderedHtml(raw: Buffer): Promise<string> {
  const { html, text, subject, attachments } = await parts(raw);
  if (html !== null) return inlineCidImages(html, attachments);
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
