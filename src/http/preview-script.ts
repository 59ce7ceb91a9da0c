// The dashboard viewer's script in a page of mail (files.html with report_height=1 or a scheme): it tells the page
// framing it how tall the mail is, so the frame can be sized to it, and shows the mail light or as a dark-mode client
// would, whatever the reader's system prefers.
// Both need a script inside the page: its origin is opaque, so the dashboard can neither measure nor restyle it. Only
// that script may run: it carries a nonce made for this one response, which the mail, written before the response,
// cannot know, and the policy admits scripts with that nonce and no others (no script, inline handler or javascript:
// URL of the mail's), still in a sandbox without allow-same-origin.
import { randomBytes } from 'node:crypto';

export interface PreviewOptions {
  reportHeight: boolean;
  /** The colour scheme the page is shown in whatever the reader's system prefers; null: as the page is. */
  scheme: 'light' | 'dark' | null;
}

/**
 * The script, for the options given (constants: nothing of the request or the mail is written into it).
 *
 * Height: posts { mailFrameHeight, mailFrameWidth } to the embedding window whenever the page's size may have changed
 * (as it is parsed, as its images load, when the frame is resized): the viewport's scrolling area plus a horizontal
 * scroll bar, if any, so a frame set to it scrolls neither way, and the width it was measured at. Posting to any origin tells a framing page only a number, and only
 * our own pages may frame this one (frame-ancestors 'self').
 *
 * Scheme: a framing page cannot set the prefers-color-scheme a frame's page sees (it follows the reader's system),
 * so the page's own media queries are rewritten once it is parsed (and again when its linked stylesheets have
 * loaded), in style sheets and in media attributes (<picture><source media>, <link media>). Dark:
 * (prefers-color-scheme: dark) becomes always true and (… light) always false, and a page that declares dark support
 * (color-scheme in a <meta> or its CSS) is given a dark canvas, as a dark-mode client does. Light: the other way
 * round, and a light canvas, so a reader whose system is dark still sees the light mail.
 *
 * The DOM methods are taken from the prototypes before any of the mail is parsed: mail could otherwise shadow
 * document.body and the like with named elements (<img name=body>).
 */
function previewScript(options: PreviewOptions): string {
  return `(() => {
  const documentGetter = (name) => Object.getOwnPropertyDescriptor(Document.prototype, name).get.bind(document);
  const scrollingElement = documentGetter('scrollingElement');
  const body = documentGetter('body');
  const styleSheets = documentGetter('styleSheets');
  const querySelectorAll = Document.prototype.querySelectorAll.bind(document);
  const root = document.documentElement;
  const view = window;
  const embedder = view.parent;
  const on = (target, type, listener) => EventTarget.prototype.addEventListener.call(target, type, listener);
  const { getAttribute, setAttribute } = Element.prototype;
  if (${options.reportHeight}) {
    const report = () => {
      const scroller = scrollingElement();
      if (scroller) embedder.postMessage({ mailFrameHeight: Math.ceil(scroller.scrollHeight + view.innerHeight - scroller.clientHeight), mailFrameWidth: view.innerWidth }, '*');
    };
    const observer = new ResizeObserver(report);
    observer.observe(root);
    on(document, 'DOMContentLoaded', () => { const element = body(); if (element) observer.observe(element); });
    on(view, 'load', report);
  }
  if (${options.scheme !== null}) {
    const dark = ${options.scheme === 'dark'};
    const always = '(min-width: 0px)';
    const never = '(max-width: 0px)';
    const forced = (media) => media
      .replace(/\\(\\s*prefers-color-scheme\\s*:\\s*dark\\s*\\)/gi, dark ? always : never)
      .replace(/\\(\\s*prefers-color-scheme\\s*:\\s*light\\s*\\)/gi, dark ? never : always);
    const forceRules = (rules) => {
      for (const rule of rules) {
        if (rule.media && rule.media.mediaText !== forced(rule.media.mediaText)) rule.media.mediaText = forced(rule.media.mediaText);
        if (rule.styleSheet) forceSheet(rule.styleSheet);
        if (rule.cssRules) forceRules(rule.cssRules);
      }
    };
    const forceSheet = (sheet) => {
      try {
        forceRules(sheet.cssRules);
      } catch {
        // A remote stylesheet's rules are not readable from the page (no CORS): it keeps the system's choice.
      }
    };
    const force = () => {
      for (const element of querySelectorAll('[media]')) setAttribute.call(element, 'media', forced(getAttribute.call(element, 'media')));
      for (const sheet of styleSheets()) forceSheet(sheet);
      if (!dark) {
        root.style.setProperty('color-scheme', 'light');
        return;
      }
      const declared = [...querySelectorAll('meta[name="color-scheme" i], meta[name="supported-color-schemes" i]')].map((meta) => getAttribute.call(meta, 'content') || '');
      if ([...declared, getComputedStyle(root).colorScheme].some((schemes) => /\\bdark\\b/i.test(schemes))) root.style.setProperty('color-scheme', 'dark');
    };
    on(document, 'DOMContentLoaded', force);
    on(view, 'load', force);
  }
})();`;
}

/** The bytes of a UTF-8 byte order mark, read as Latin-1. */
const UTF8_BOM = '\xef\xbb\xbf';

/**
 * How much of a page's start is searched for its doctype: a doctype further in (after more comments than any mail
 * has) is treated as none, and the script goes first.
 */
const DOCTYPE_SEARCH_BYTES = 64 * 1024;

/**
 * Where the script goes: first, so no markup of the mail comes before it (an unclosed tag before a nonce'd script
 * could take the nonce as its own), but after a leading doctype and the comments before it, which must stay first
 * for the mail to keep its rendering mode. `html` is the page's start, byte for byte (Latin-1): what is looked for
 * is ASCII, so an index in it is an offset in the page's bytes.
 */
function afterDoctype(html: string): number {
  // A UTF-8 byte order mark is taken as one only at the very start, so the script goes after it too.
  let at = html.startsWith(UTF8_BOM) ? UTF8_BOM.length : 0;
  while (/\s/.test(html.charAt(at))) at++;
  if (at === html.length) return 0;
  while (html.startsWith('<!--', at)) {
    const end = html.indexOf('-->', at + 4);
    if (end === -1) return 0;
    at = end + 3;
    while (/\s/.test(html.charAt(at))) at++;
  }
  const doctype = /^<!doctype[^>]*>/i.exec(html.slice(at, at + 1024));
  return doctype ? at + doctype[0].length : 0;
}

/** The page (UTF-8) with the preview script in it, and the nonce that lets that script, and only it, run. */
export function withPreviewScript(html: Buffer, options: PreviewOptions): { html: Buffer; nonce: string } {
  const nonce = randomBytes(16).toString('base64');
  const at = afterDoctype(html.subarray(0, DOCTYPE_SEARCH_BYTES).toString('latin1'));
  const script = Buffer.from(`<script nonce="${nonce}">${previewScript(options)}</script>`, 'utf8');
  return { html: Buffer.concat([html.subarray(0, at), script, html.subarray(at)]), nonce };
}
