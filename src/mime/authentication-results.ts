// Authentication-Results fields (RFC 8601) read into the check's shape: who claims to have checked, and each method's
// result with its reason, comment and properties. The fields are claims of whoever wrote them, read as data only.
import { clipText, LISTED_AT_MOST, type AuthResultsFieldJson } from '../domain/auth-check.js';

/** Results read from one field; RFC 8601 sets no limit, so a stranger's field of thousands is cut here. */
const RESULTS_AT_MOST = 50;

/** Sticky, so reading a word never copies the rest of a long field. */
const WORD = /[^\s;="(]+/y;
const VALUE_WORD = /[^\s;"(]+/y;

type Token =
  | { kind: 'word' | 'quoted'; text: string }
  | { kind: 'comment'; text: string }
  | { kind: ';' | '=' };

/** Words, quoted strings, comments (nested, with escapes) and the two separators; an unclosed quote or comment runs to the end. */
function tokens(value: string): Token[] {
  const found: Token[] = [];
  for (let at = 0; at < value.length;) {
    const char = value[at]!;
    if (/\s/.test(char)) {
      at++;
    } else if (char === ';' || char === '=') {
      found.push({ kind: char });
      at++;
    } else if (char === '"' || char === '(') {
      let text = '';
      let depth = char === '(' ? 1 : 0;
      for (at++; at < value.length; at++) {
        const inner = value[at]!;
        if (inner === '\\' && at + 1 < value.length) text += value[++at];
        else if (char === '"' && inner === '"') break;
        else if (char === '(' && inner === ')' && --depth === 0) break;
        else {
          if (char === '(' && inner === '(') depth++;
          text += inner;
        }
      }
      at++;
      found.push({ kind: char === '"' ? 'quoted' : 'comment', text: text.replace(/\s+/g, ' ').trim() });
    } else {
      // A value may hold `=` (base64 padding in header.b=), as many writers put it unquoted.
      const word = found.at(-1)?.kind === '=' ? VALUE_WORD : WORD;
      word.lastIndex = at;
      const text = word.exec(value)![0];
      found.push({ kind: 'word', text });
      at += text.length;
    }
  }
  return found;
}

type Result = AuthResultsFieldJson['Results'][number];

const textOf = (token: Token | undefined): string | null => (token && (token.kind === 'word' || token.kind === 'quoted') ? token.text : null);

/** One `method=result [reason=...] [ptype.property=value ...]` with the comment after its result; null when it is not one. */
function resultOf(segment: Token[]): Result | null {
  const comment = segment.find((token) => token.kind === 'comment');
  const parts = segment.filter((token) => token.kind !== 'comment');
  const method = textOf(parts[0]);
  const result = textOf(parts[2]);
  if (method === null || parts[1]?.kind !== '=' || result === null) return null;
  let reason: string | null = null;
  const properties: Result['Properties'] = [];
  for (let at = 3; at + 2 < parts.length && parts[at + 1]?.kind === '='; at += 3) {
    const name = textOf(parts[at]);
    const value = textOf(parts[at + 2]);
    if (name === null || value === null) break;
    if (name.toLowerCase() === 'reason') reason = clipText(value);
    else if (name.includes('.') && properties.length < LISTED_AT_MOST) {
      const dot = name.indexOf('.');
      properties.push({ Type: clipText(name.slice(0, dot).toLowerCase()), Name: clipText(name.slice(dot + 1)), Value: clipText(value) });
    }
  }
  return {
    // A method may carry a version (`dkim/1`); the method is what a reader looks for.
    Method: clipText(method.split('/')[0]!.toLowerCase()),
    Result: clipText(result.toLowerCase()),
    Reason: reason,
    Comment: comment && comment.kind === 'comment' && comment.text !== '' ? clipText(comment.text) : null,
    Properties: properties,
  };
}

/** A field's value (unfolded) read: its authserv-id and results; a part that is not a result is left out, and Text keeps all of it. */
export function parseAuthenticationResults(value: string): AuthResultsFieldJson {
  const segments: Token[][] = [[]];
  for (const token of tokens(value)) {
    if (token.kind === ';') segments.push([]);
    else segments.at(-1)!.push(token);
  }
  const [head, ...rest] = segments;
  const servId = textOf(head!.find((token) => token.kind !== 'comment'));
  const results: Result[] = [];
  for (const segment of rest) {
    if (results.length === RESULTS_AT_MOST) break;
    const result = resultOf(segment);
    if (result) results.push(result);
  }
  return { AuthServId: servId === null ? null : clipText(servId), Results: results, Text: clipText(value.replace(/\s+/g, ' ').trim()) };
}
