// Reads List-Unsubscribe and List-Unsubscribe-Post (RFC 2369, RFC 8058) into the API's list_unsubscribe field.
import type { ListUnsubscribe } from '../domain/message-view.js';

/** Raw header values in the order they appear in the message; several entries mean the header repeats. */
export interface ListUnsubscribeHeaders {
  listUnsubscribe: string[];
  listUnsubscribePost: string[];
}

const ONE_CLICK_VALUE = 'List-Unsubscribe=One-Click';
const ONE_CLICK_HTTPS_MISSING = 'List-Unsubscribe-Post needs an https URI in List-Unsubscribe';
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);
// RFC 3986 scheme syntax; WHATWG URL alone cannot say whether a failed parse was relative or just broken.
const ABSOLUTE_URI = /^[a-z][a-z0-9+.-]*:/i;
const EXCERPT_LENGTH = 80;

interface Link {
  text: string;
  protocol: string;
}

// RFC 5322: a line break followed by whitespace is folding, not content.
const unfold = (value: string): string => value.replace(/\r?\n(?=[ \t])/g, '').trim();

// Header values can be arbitrarily long; an error message only needs enough to recognise the spot.
const excerpt = (text: string): string =>
  text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;

/** Index just past the comment opening at `start` (comments nest, backslash quotes), or -1 if it never closes. */
function commentEnd(value: string, start: number): number {
  let depth = 0;
  for (let index = start; index < value.length; index += 1) {
    const char = value[index];
    if (char === '\\') index += 1;
    else if (char === '(') depth += 1;
    else if (char === ')' && --depth === 0) return index + 1;
  }
  return -1;
}

/** Splits the value into the contents of its <...> parts, reporting anything else that is not a comma, space or comment. */
function bracketedParts(value: string, errors: string[]): string[] {
  const parts: string[] = [];
  let outside = '';
  let afterPart = false;
  const flushOutside = (): void => {
    const text = outside.replace(/\s+/g, ' ').trim();
    if (text) errors.push(`text outside angle brackets: "${excerpt(text)}"`);
    outside = '';
  };
  let index = 0;
  while (index < value.length) {
    const char = value[index];
    if (char === '<') {
      flushOutside();
      const close = value.indexOf('>', index + 1);
      // Where the URI was meant to end is unknowable, so nothing from here on is trusted as a link.
      if (close === -1) {
        errors.push(`"<" without a closing ">": "${excerpt(value.slice(index))}"`);
        return parts;
      }
      const part = value.slice(index + 1, close);
      // The brackets still delimit the URI unambiguously, so this is reported but the URI is kept.
      if (afterPart) errors.push(`missing comma before <${excerpt(part)}>`);
      parts.push(part);
      afterPart = true;
      index = close + 1;
    } else if (char === '(') {
      const end = commentEnd(value, index);
      if (end === -1) {
        errors.push(`unclosed comment: "${excerpt(value.slice(index))}"`);
        break;
      }
      index = end;
    } else {
      if (char === ',') {
        flushOutside();
        afterPart = false;
      } else {
        outside += char;
      }
      index += 1;
    }
  }
  flushOutside();
  return parts;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** RFC 6068 allows the address in the path, in `to=` header fields, or both. */
function mailtoProblem(url: URL, shown: string): string | null {
  // URLSearchParams would turn '+' into a space, which is wrong for mailto addresses.
  const toFields = url.search.slice(1).split('&')
    .filter((field) => decode(field.split('=', 1)[0] ?? '')?.toLowerCase() === 'to')
    .map((field) => field.slice(field.indexOf('=') + 1));
  const addresses: string[] = [];
  for (const encoded of [url.pathname, ...toFields]) {
    const decoded = decode(encoded);
    if (decoded === null) return `malformed percent-encoding in <${shown}>`;
    addresses.push(...decoded.split(',').map((address) => address.trim()).filter(Boolean));
  }
  if (addresses.length === 0) return `mailto URI without an address: <${shown}>`;
  const invalid = addresses.find((address) => !/^.+@[^@\s]+$/.test(address));
  return invalid === undefined ? null : `mailto URI with an invalid address "${excerpt(invalid)}": <${shown}>`;
}

/**
 * A URI becomes a link only if a client could act on it. Other schemes (javascript:, ftp:, data: ...) are
 * reported and dropped: they are no way to unsubscribe, and a javascript: link would be dangerous in any UI
 * that renders `links` as clickable.
 */
function toLink(part: string, errors: string[]): Link | null {
  // RFC 2369: whitespace inside the brackets (usually folding of a long URI) is ignored.
  const text = part.replace(/\s+/g, '');
  const shown = excerpt(text);
  if (text === '') {
    errors.push('empty <>');
    return null;
  }
  if (!ABSOLUTE_URI.test(text)) {
    errors.push(`relative URI <${shown}>: must be absolute`);
    return null;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    errors.push(`not a valid URI: <${shown}>`);
    return null;
  }
  if (!ALLOWED_SCHEMES.has(url.protocol)) {
    errors.push(`unsupported scheme "${url.protocol}" in <${shown}>: only http, https and mailto are allowed`);
    return null;
  }
  const problem = url.protocol === 'mailto:' ? mailtoProblem(url, shown) : null;
  if (problem) {
    errors.push(problem);
    return null;
  }
  return { text, protocol: url.protocol };
}

function readLinks(header: string, errors: string[]): Link[] {
  if (header === '') {
    errors.push('List-Unsubscribe header is empty');
    return [];
  }
  // A Map keyed by text drops duplicates while keeping each link where it first appeared.
  const links = new Map<string, Link>();
  for (const part of bracketedParts(header, errors)) {
    const link = toLink(part, errors);
    if (link) links.set(link.text, link);
  }
  if (links.size === 0) errors.push('List-Unsubscribe has no usable URI');
  return [...links.values()];
}

/** RFC 8058: the exact key/value pair, and an https URI for the client to POST to. */
function oneClickProblems(headerPost: string, links: Link[] | null): string[] {
  const problems: string[] = [];
  const separator = headerPost.indexOf('=');
  const name = separator === -1 ? headerPost : headerPost.slice(0, separator);
  const value = separator === -1 ? null : headerPost.slice(separator + 1);
  if (name.toLowerCase() !== 'list-unsubscribe' || value !== 'One-Click') {
    problems.push(`List-Unsubscribe-Post must be "${ONE_CLICK_VALUE}", not "${excerpt(headerPost)}"`);
  }
  if (links === null) return [...problems, 'List-Unsubscribe-Post without List-Unsubscribe'];
  for (const link of links.filter((entry) => entry.protocol === 'http:')) {
    problems.push(`List-Unsubscribe-Post with an http URI <${excerpt(link.text)}>: one-click needs https`);
  }
  if (!links.some((link) => link.protocol === 'https:')) problems.push(ONE_CLICK_HTTPS_MISSING);
  return problems;
}

/** The list_unsubscribe field of a message, or null when it has neither header. Never throws. */
export function parseListUnsubscribe(headers: ListUnsubscribeHeaders): ListUnsubscribe | null {
  const [rawHeader, ...extraHeaders] = headers.listUnsubscribe;
  const [rawPost, ...extraPosts] = headers.listUnsubscribePost;
  if (rawHeader === undefined && rawPost === undefined) return null;
  const errors: string[] = [];
  const result: ListUnsubscribe = {};
  let links: Link[] | null = null;
  if (rawHeader !== undefined) {
    result.header = unfold(rawHeader);
    // Which copy a client would honour is undefined, so the repeat is reported and the first one shown.
    if (extraHeaders.length > 0) errors.push('multiple List-Unsubscribe headers');
    links = readLinks(result.header, errors);
  }
  if (rawPost !== undefined) {
    result.header_post = unfold(rawPost);
    if (extraPosts.length > 0) errors.push('multiple List-Unsubscribe-Post headers');
    errors.push(...oneClickProblems(result.header_post, links));
  }
  if (links && links.length > 0) result.links = links.map((link) => link.text);
  if (errors.length > 0) result.errors = errors.join('; ');
  return result;
}
