// The content type an attachment is served with: its own, unless a browser could run or apply it.

/**
 * Types a browser runs or applies when it loads them: documents that can hold script (HTML, XHTML, SVG; any XML,
 * through an XSLT processing instruction; multipart/x-mixed-replace, whose parts render as pages), scripts (every
 * JavaScript MIME type of the WHATWG MIME Sniffing standard), stylesheets and WebAssembly. An attachment of one of
 * these is served as application/octet-stream, so it is only ever a download on our origin.
 */
export const ACTIVE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'multipart/x-mixed-replace',
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
  'text/css',
  'application/wasm',
]);

/** Any XML type (`+xml` suffix) can carry an XSLT stylesheet that turns it into a page; the list names the common ones. */
const XML_SUFFIX = /\+xml$/;

/** A type/subtype pair of RFC 9110 tokens, without parameters. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/;

export const DOWNLOAD_ONLY_TYPE = 'application/octet-stream';

/**
 * The declared type's essence, or application/octet-stream for an active type and for anything that is not a
 * well-formed type/subtype (Koa would read a bare word such as `html` as a file extension and answer text/html).
 */
export function servedContentType(declared: string): string {
  const essence = declared.split(';')[0]!.trim().toLowerCase();
  if (!MEDIA_TYPE.test(essence) || ACTIVE_CONTENT_TYPES.has(essence) || XML_SUFFIX.test(essence)) return DOWNLOAD_ONLY_TYPE;
  return essence;
}
