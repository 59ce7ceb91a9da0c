// The one line of a message a list shows under its subject: the start of its text, as a mail client previews it.

/** Characters of a snippet at most, its ellipsis included: one line of a message list. */
export const SNIPPET_LENGTH = 140;

/**
 * Characters mail puts in a preheader only to pad it, so that a client's preview shows nothing after the intended
 * line (combining grapheme joiner, zero-width space and joiners, word joiner, soft hyphen, byte order mark).
 */
const PADDING = /[\u034F\u200B-\u200D\u2060\u00AD\uFEFF]/g;

/** More of the text than a snippet can hold after whitespace is collapsed, so a huge body costs no more than this. */
const READ_AHEAD = SNIPPET_LENGTH * 16;

/**
 * The start of `text` on one line: padding removed, runs of whitespace as one space, at most SNIPPET_LENGTH
 * characters; a longer text is cut at a word boundary where one is near, and ends with an ellipsis.
 */
export function snippetOf(text: string): string {
  const line = text.slice(0, READ_AHEAD).replace(PADDING, '').replace(/\s+/g, ' ').trim();
  if (line.length <= SNIPPET_LENGTH) return line;
  let cut = line.slice(0, SNIPPET_LENGTH - 1);
  const lastSpace = cut.lastIndexOf(' ');
  // A word boundary in the last quarter keeps the last word whole; a long unbroken run (a URL) is cut where it falls.
  if (lastSpace >= SNIPPET_LENGTH * 0.75) cut = cut.slice(0, lastSpace);
  // Never end on half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
