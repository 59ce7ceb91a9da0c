// The text of an HTML body as a reader sees it, and the links in it with the words they stand on, from one walk of its
// markup (html-walk.ts): capture reads every HTML body this way (parse-email.ts), so search, snippets, codes and link
// details cost one lexing of the HTML rather than a formatter's DOM build and a second parse.
import { walkHtml } from './html-walk.js';

/** A link of the HTML body as written (href untrimmed, any scheme) and the words a reader clicks on, as written. */
export interface HtmlAnchor {
  href: string;
  /** The anchor's text, or else the alt text of its images (an area's alt text); whitespace as in the markup. */
  text: string;
}

export interface HtmlReading {
  /** The text, at most the `textLimit` characters read; see readHtml for its layout. */
  text: string;
  /** Every a[href] and area[href], in document order. */
  anchors: HtmlAnchor[];
}

/** Elements whose content is not text a reader sees: code, style sheets, the document's title, inert templates. */
const HIDDEN = new Set(['script', 'style', 'title', 'template']);
/** Elements that stand on lines of their own (CSS display: block, list-item, table rows and the like). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'caption', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr',
  'legend', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'tfoot', 'thead', 'tr', 'ul',
]);
/** The elements whose attributes are read: links, and images (alt text) inside links. */
const WITH_ATTRIBUTES = new Set(['a', 'area', 'img']);
/** Whitespace as HTML collapses it outside <pre>; the zero-width space too, which mail pads preheaders with. */
const COLLAPSIBLE = /[ \t\n\r\f\u200b]+/g;
/** Consecutive line breaks kept at most (a wall of <br>s reads as one blank line). */
const MAX_BREAKS = 2;
/**
 * Characters of an anchor's text kept while reading: its words are cut to a few hundred characters later
 * (extract-links.ts), and an anchor around a whole 20 MB body must not hold a copy of it.
 */
export const ANCHOR_TEXT_READ = 4096;
/**
 * Of one run of text, more characters are read than the text has room left for, as whitespace collapses; a 20 MB run
 * is not copied whole to keep its first few.
 */
const RUN_READ_FACTOR = 4;

/** What is written between two pieces of text: nothing, a space, a cell's tab, or line breaks. */
const enum Gap { None, Space, Cell, Break }

/**
 * Reads an HTML body once, in time linear in its length however deeply its elements nest (html-walk.ts). The text
 * is laid out as a browser's innerText would be, for search, snippets and codes: whitespace collapsed (kept inside
 * <pre>), block elements and <br> as line breaks, table cells apart by a tab, the content of script, style, title and
 * template left out (what a head holds besides them makes no text), entities decoded, image alt texts and link targets
 * left out (they are not words read in the flow). Hidden preheaders stay: mail clients show them in their previews.
 * Only the first `textLimit` characters of text are kept; the links are read to the end.
 *
 * No tree is built: an element's edges are where its tags are. A script, style, title or template left open hides
 * the rest, as in a browser; any other stray or missing end tag can at most join or part two pieces of text, or let a
 * link's words run on to the next link.
 */
export function readHtml(html: string, textLimit = Infinity): HtmlReading {
  const pieces: string[] = [];
  let length = 0;
  let gap = Gap.None;
  let breaks = 0;
  let hidden = 0;
  let preformatted = 0;

  const widen = (wider: Gap) => {
    if (wider > gap) gap = wider;
  };
  const lineBreak = () => {
    gap = Gap.Break;
    breaks = Math.min(MAX_BREAKS, breaks + 1);
  };
  const blockEdge = () => {
    if (gap !== Gap.Break) lineBreak();
  };
  const write = (text: string) => {
    if (text === '') return;
    if (length > 0) {
      const separator = gap === Gap.Break ? '\n'.repeat(breaks) : gap === Gap.Cell ? '\t' : gap === Gap.Space ? ' ' : '';
      pieces.push(separator);
      length += separator.length;
    }
    const kept = text.length > textLimit - length ? text.slice(0, Math.max(0, textLimit - length)) : text;
    pieces.push(kept);
    length += kept.length;
    gap = Gap.None;
    breaks = 0;
  };
  const readText = (run: string) => {
    if (hidden > 0 || length >= textLimit) return;
    const read = run.length > (textLimit - length) * RUN_READ_FACTOR ? run.slice(0, (textLimit - length) * RUN_READ_FACTOR) : run;
    if (preformatted > 0) {
      write(read);
      return;
    }
    const collapsed = read.replace(COLLAPSIBLE, ' ');
    if (collapsed === ' ') {
      widen(Gap.Space);
      return;
    }
    const leading = collapsed.startsWith(' ');
    const trailing = collapsed.endsWith(' ');
    if (leading) widen(Gap.Space);
    write(collapsed.slice(leading ? 1 : 0, trailing ? -1 : undefined));
    if (trailing) gap = Gap.Space;
  };

  const anchors: HtmlAnchor[] = [];
  // The anchor being read: its href, its text so far, and the alt text of the images inside it.
  let anchor: { href: string; text: string; alt: string } | null = null;
  const closeAnchor = () => {
    if (anchor) anchors.push({ href: anchor.href, text: anchor.text || anchor.alt });
    anchor = null;
  };
  const text = (run: string) => {
    if (anchor && anchor.text.length < ANCHOR_TEXT_READ) anchor.text += run.slice(0, ANCHOR_TEXT_READ - anchor.text.length);
    readText(run);
  };

  const opened = (name: string, attributes: Readonly<Record<string, string>>) => {
    if (HIDDEN.has(name)) hidden++;
    else if (name === 'br') lineBreak();
    else if (BLOCKS.has(name)) blockEdge();
    else if (name === 'td' || name === 'th') widen(Gap.Cell);
    if (name === 'pre') preformatted++;
    if (name === 'a' || name === 'area') {
      closeAnchor();
      if (!attributes.href) return;
      if (name === 'area') anchors.push({ href: attributes.href, text: attributes.alt ?? '' });
      else anchor = { href: attributes.href, text: '', alt: '' };
    } else if (name === 'img' && anchor && attributes.alt) {
      anchor.alt += ` ${attributes.alt}`;
    }
  };
  const closed = (name: string) => {
    if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
    // `</br>` is read as a <br>, as browsers do.
    else if (name === 'br') lineBreak();
    else if (BLOCKS.has(name)) blockEdge();
    if (name === 'pre') preformatted = Math.max(0, preformatted - 1);
    if (name === 'a') closeAnchor();
  };

  walkHtml(html, { open: opened, close: closed, text }, (name) => WITH_ATTRIBUTES.has(name));
  closeAnchor();
  return { text: pieces.join(''), anchors };
}
