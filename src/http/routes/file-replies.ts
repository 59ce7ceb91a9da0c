// How message files go out. Every one is hostile content: never sniffed, never embedded by another origin, under a
// policy that runs nothing; raw messages and attachments download; HTML loads nothing remote unless asked to.
import type { FileContent } from '../../services/mail/message-content.js';
import type { FileReply } from '../handler.js';
import { servedContentType } from '../served-content-type.js';
import { withPreviewScript, type PreviewOptions } from '../preview-script.js';

/**
 * Headers of every file reply. nosniff keeps a browser to the type we send; same-origin keeps other sites from
 * embedding our files (<img>, <script>, <link>) to read or probe them; no-referrer keeps links in mail from telling
 * where they were clicked.
 */
const FILE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
} as const;

/** A file that is not a page (raw message, attachment, thumbnail, text), opened in a browser, runs and loads nothing. */
const FILE_POLICY = "default-src 'none'; sandbox";

/**
 * Captured HTML is untrusted. The sandbox directive without allow-scripts or allow-same-origin gives the page an
 * opaque origin and no scripts; nothing may be embedded, framed, submitted or rebased. Remote content is blocked
 * unless `remote` is 1, because a remote image is how a sender learns that and when a message was opened: images and
 * fonts then come only from the message itself (its cid: images are inlined as data: URIs) and styles only from the
 * page. style-src also governs @import and <link rel=stylesheet>; img-src and font-src every CSS url().
 * With a `scriptNonce` (preview-script.ts) scripts are allowed in the sandbox, but script-src admits only the one
 * carrying that nonce: still no script, handler or javascript: URL of the mail's, and still an opaque origin.
 */
function htmlPolicy(remote: 0 | 1, scriptNonce: string | null): string {
  const anywhere = remote === 1 ? ' *' : '';
  return [
    "default-src 'none'",
    ...(scriptNonce === null ? [] : [`script-src 'nonce-${scriptNonce}'`]),
    `img-src data: cid:${anywhere}`,
    `style-src 'unsafe-inline'${anywhere}`,
    `font-src data:${anywhere}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
    scriptNonce === null ? 'sandbox' : 'sandbox allow-scripts',
  ].join('; ');
}

const htmlPage = (html: Buffer, remote: 0 | 1, scriptNonce: string | null): FileReply => ({
  file: html,
  contentType: 'text/html; charset=utf-8',
  // Link prefetching is not governed by the policy; without this a <link rel=dns-prefetch> would still reach out.
  headers: { ...FILE_HEADERS, 'Content-Security-Policy': htmlPolicy(remote, scriptNonce), 'X-DNS-Prefetch-Control': 'off' },
});

/** A page of mail, in UTF-8; `remote` is the request's query parameter (0 or 1). */
export const htmlReply = (html: Buffer, remote: 0 | 1): FileReply => htmlPage(html, remote, null);

/** A page of mail with the dashboard viewer's script in it: its height reported, or shown as in dark mode. */
export function previewHtmlReply(html: Buffer, remote: 0 | 1, options: PreviewOptions): FileReply {
  const preview = withPreviewScript(html, options);
  return htmlPage(preview.html, remote, preview.nonce);
}

export const textReply = (text: string): FileReply => ({
  file: text,
  contentType: 'text/plain; charset=utf-8',
  headers: { ...FILE_HEADERS, 'Content-Security-Policy': FILE_POLICY },
});

/** RFC 6266 filename with an RFC 5987 UTF-8 form for names beyond ASCII. */
function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The message exactly as received, as a download: an .eml opened in place would be rendered by whatever claims it. */
export const rawReply = (raw: Buffer, messageId: string): FileReply => ({
  file: raw,
  contentType: 'message/rfc822',
  headers: { ...FILE_HEADERS, 'Content-Security-Policy': FILE_POLICY, 'Content-Disposition': contentDisposition('attachment', `${messageId}.eml`) },
});

/** The message exactly as received, shown as text (Mailpit's raw view); with a filename, as a download of that name. */
export const rawTextReply = (raw: Buffer, filename: string | null): FileReply => ({
  file: raw,
  contentType: 'text/plain; charset=utf-8',
  headers: {
    ...FILE_HEADERS,
    'Content-Security-Policy': FILE_POLICY,
    ...(filename === null ? {} : { 'Content-Disposition': contentDisposition('attachment', filename) }),
  },
});

/** An attachment as a download, under its own type unless a browser could run or apply that type. */
export const attachmentReply = (file: FileContent): FileReply => ({
  file: file.content,
  contentType: servedContentType(file.contentType),
  headers: { ...FILE_HEADERS, 'Content-Security-Policy': FILE_POLICY, 'Content-Disposition': contentDisposition('attachment', file.filename) },
});

/** A thumbnail is a PNG we made, so it may show in place. */
export const thumbnailReply = (file: FileContent): FileReply => ({
  file: file.content,
  contentType: file.contentType,
  headers: { ...FILE_HEADERS, 'Content-Security-Policy': FILE_POLICY, 'Content-Disposition': contentDisposition('inline', file.filename) },
});
