// How message files go out: HTML under a locked-down policy, attachments with their name and type.
import type { FileContent } from '../../services/message-content.js';
import type { FileReply } from '../handler.js';

/**
 * Captured HTML is untrusted. The sandbox directive without allow-scripts or allow-same-origin gives the page an
 * opaque origin and no scripts; nothing may be embedded, framed, submitted or rebased.
 */
const HTML_POLICY = [
  "default-src 'none'",
  'img-src * data: cid:',
  "style-src 'unsafe-inline' *",
  'font-src * data:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox',
].join('; ');

export const htmlReply = (html: string): FileReply => ({
  file: html,
  contentType: 'text/html; charset=utf-8',
  headers: {
    'Content-Security-Policy': HTML_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  },
});

/** RFC 6266 filename with an RFC 5987 UTF-8 form for names beyond ASCII. */
function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export const attachmentReply = (file: FileContent, kind: 'attachment' | 'inline' = 'attachment'): FileReply => ({
  file: file.content,
  contentType: file.contentType,
  headers: { 'Content-Disposition': contentDisposition(kind, file.filename), 'X-Content-Type-Options': 'nosniff' },
});
