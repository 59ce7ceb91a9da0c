// Finds the http(s) links of a message: the clickable ones (hrefs in the HTML body, URLs written in the text body), and
// for the link check every URL the HTML makes a mail client fetch too (images, srcset, backgrounds, stylesheets, CSS).
import { LinkifyIt } from 'linkify-it';
import type { LinkDetail } from '../domain/types.js';
import type { HtmlAnchor } from './html-text.js';
import { walkHtml } from './html-walk.js';

const linkify = new LinkifyIt();
const isWebLink = (url: string): boolean => /^https?:\/\//i.test(url);

/** url(...) in CSS, quoted or not, and @import's string form (`@import "x.css"`), which names a stylesheet without url(). */
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;

function urlsInCss(css: string): string[] {
  return [...css.matchAll(CSS_URL)].map((match) => match.slice(1).find((group) => group !== undefined) ?? '');
}

/**
 * The URLs of a srcset attribute: comma-separated candidates of a URL and optional descriptors (`1x`, `480w`), read
 * as the HTML standard does, so a comma inside a URL (common in image CDNs' paths) does not split it.
 */
function urlsInSrcset(srcset: string): string[] {
  const urls: string[] = [];
  let position = 0;
  while (position < srcset.length) {
    while (position < srcset.length && /[\s,]/.test(srcset[position]!)) position++;
    let end = position;
    while (end < srcset.length && !/\s/.test(srcset[end]!)) end++;
    const candidate = srcset.slice(position, end);
    position = end;
    if (candidate.endsWith(',')) {
      urls.push(candidate.replace(/,+$/, ''));
      continue;
    }
    if (candidate) urls.push(candidate);
    const comma = srcset.indexOf(',', position);
    position = comma === -1 ? srcset.length : comma + 1;
  }
  return urls;
}

const isStylesheet = (rel: string | undefined): boolean => (rel ?? '').toLowerCase().split(/\s+/).includes('stylesheet');

/** What linksInHtml collects: the links a reader clicks, or every URL the HTML refers to. */
type HtmlLinkKinds = 'clickable' | 'all';

function linksInHtml(html: string, kinds: HtmlLinkKinds): string[] {
  const links: string[] = [];
  // A style sheet's text can come in several pieces; a url() is only read once the element's text is whole.
  let styleText: string | null = null;
  walkHtml(html, {
    open(name, attributes) {
      if ((name === 'a' || name === 'area') && attributes.href) links.push(attributes.href);
      if (kinds === 'clickable') return;
      if (name === 'img' && attributes.src) links.push(attributes.src);
      if (name === 'link' && attributes.href && isStylesheet(attributes.rel)) links.push(attributes.href);
      if (attributes.srcset) links.push(...urlsInSrcset(attributes.srcset));
      if (attributes.background) links.push(attributes.background);
      if (attributes.style) links.push(...urlsInCss(attributes.style));
      if (name === 'style') styleText = '';
    },
    text(piece) {
      if (styleText !== null) styleText += piece;
    },
    close(name) {
      if (name !== 'style' || styleText === null) return;
      links.push(...urlsInCss(styleText));
      styleText = null;
    },
  }, (name) => kinds === 'all' || name === 'a' || name === 'area');
  // A style sheet left open runs to the end of the markup.
  const unclosed = styleText as string | null;
  if (unclosed !== null) links.push(...urlsInCss(unclosed));
  return links;
}

function linksInText(text: string): string[] {
  return (linkify.match(text) ?? []).map((match) => match.url);
}

const uniqueWebLinks = (links: string[]): string[] => [...new Set(links.map((link) => link.trim()).filter(isWebLink))];

/** Unique http(s) links a reader can follow, in order of first appearance, HTML first. */
export function extractLinks(html: string, text: string): string[] {
  return uniqueWebLinks([...linksInHtml(html, 'clickable'), ...linksInText(text)]);
}

/**
 * Unique http(s) URLs the message refers to, in order of first appearance, HTML first: a[href], area[href],
 * img[src], srcset (img, source), background attributes, stylesheet links, CSS url() and @import in <style> and
 * style="", and URLs written in the text body.
 */
export function extractCheckableLinks(html: string, text: string): string[] {
  return uniqueWebLinks([...linksInHtml(html, 'all'), ...linksInText(text)]);
}

/** Links kept with their details per message (parse-email.ts), and characters of anchor text kept per link. */
export const LINK_DETAILS_KEPT = 200;
const ANCHOR_TEXT_LENGTH = 200;

/**
 * The links a reader can follow, each once (HTML first), with what the reader sees of it: the anchor's text (an
 * image's alt text when the anchor holds only an image) for an HTML link, and nothing for a URL written in the text
 * body, where the URL is what the reader sees. The same links as extractLinks, in the same order; the HTML's anchors
 * come from the one reading of the HTML a capture makes (html-text.ts).
 */
export function linkDetails(htmlAnchors: HtmlAnchor[], text: string): LinkDetail[] {
  const details: LinkDetail[] = [];
  const seen = new Set<string>();
  const add = (url: string, anchorText: string, source: LinkDetail['source']) => {
    const trimmed = url.trim();
    if (!isWebLink(trimmed) || seen.has(trimmed)) return;
    seen.add(trimmed);
    details.push({ url: trimmed, text: anchorText.replace(/\s+/g, ' ').trim().slice(0, ANCHOR_TEXT_LENGTH), source });
  };
  for (const anchor of htmlAnchors) add(anchor.href, anchor.text, 'html');
  for (const url of linksInText(text)) add(url, '', 'text');
  return details;
}
