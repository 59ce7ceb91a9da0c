// The words a search looks for, marked where a list row shows them: the q expression's plain words and phrases and
// its subject: terms, and the subject filter. Negated terms and other fields (from:, tag:, is:, …) mark nothing: what
// they match is not in the row's subject or snippet, or not as words.

/** At most this many words are marked: a row stays cheap to draw however long the search. */
const MAX_MARKED = 12;

const OPERATORS = new Set(['OR', 'AND', 'NOT']);

/** The search's q and subject filter (MessageFilters, which this module does not import: unit tests load it in Node). */
export function matchedWords(filters: { q?: string; subject?: string }): string[] {
  const words: string[] = [];
  for (const [token] of (filters.q ?? '').matchAll(/-?[a-z-]+:"[^"]*"|-?"[^"]*"|[^\s()]+/gi)) {
    if (token.startsWith('-') || OPERATORS.has(token)) continue;
    const field = /^([a-z-]+):(.*)$/i.exec(token);
    const value = field ? (field[1]!.toLowerCase() === 'subject' ? field[2]! : '') : token;
    words.push(value.replace(/^"|"$/g, ''));
  }
  if (filters.subject) words.push(filters.subject);
  return [...new Set(words.map((word) => word.trim()).filter((word) => word.length >= 2))].slice(0, MAX_MARKED);
}

/** A pattern finding any of the words, case aside; null for none. */
export function wordsPattern(words: string[]): RegExp | null {
  if (words.length === 0) return null;
  return new RegExp(`(${words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
}
