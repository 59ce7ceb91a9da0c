// How the messages index stores search text: which format this version writes, and the step from the older one.
/**
 * The format of search documents this version writes, kept in the mapping's `_meta.search_document_format` of
 * search-mappings/messages.template.json; an index holding another format is rebuilt by scripts/reindex.
 * 1: search text as normalised, with a `.short` sub-field of every 1- and 2-gram for short needles.
 * 2: search text followed by END_PADDING, no `.short` sub-field (indexing it cost about a third of the CPU).
 * 3: format 2's documents in an index sorted newest first (`received_at` desc, then `id` desc), the order every list
 *    and search page reads, so a page stops after its first matches in each segment instead of sorting them all.
 */
export const SEARCH_DOCUMENT_FORMAT = 3;

/**
 * Appended to every indexed search text so that each of its characters, the last two included, begins a trigram:
 * a needle of one or two characters is then a prefix of some trigram exactly where it is a substring. The
 * normalisation removes this character from every text and needle (and it is not the field separator), so a needle
 * of three or more characters, searched as a phrase of its own trigrams, never matches the padding.
 */
export const PADDING_CHARACTER = '\u0001';
export const END_PADDING = PADDING_CHARACTER.repeat(2);

export const padSearchText = (text: string): string => text + END_PADDING;

/** The search text a stored field holds; the padding is the index's business, not part of the message. */
export function unpadSearchText(stored: string): string {
  if (!stored.endsWith(END_PADDING)) throw new Error(`a search text in the messages index lacks the end padding of document format ${SEARCH_DOCUMENT_FORMAT}`);
  return stored.slice(0, -END_PADDING.length);
}

/** Search text fields of the stored document. */
export const SEARCH_TEXT_FIELDS = ['search_subject', 'search_sender', 'search_recipients', 'search_body'] as const;

/** A format 1 document's `_source` as format 2 stores it (the upgrade copy's one change). */
export function fromFormat1(source: Record<string, unknown>): Record<string, unknown> {
  const upgraded = { ...source };
  for (const field of SEARCH_TEXT_FIELDS) upgraded[field] = padSearchText(String(source[field] ?? ''));
  return upgraded;
}
