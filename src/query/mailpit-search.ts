// Mailpit's search language (its `query` parameter) read into the q syntax tree, so it runs on q's plans and bounds.
// Mailpit is lenient: a term with nothing to search for, or a date it cannot read, is dropped rather than refused.
import { normalizeSearchText } from '../domain/search-text.js';
import { AppError } from '../errors.js';
import { ADDRESS_FIELDS, ALL_TEXT_FIELDS, and, matchAll, type QueryNode, type TextField } from './ast.js';
import { knownTimeZone, parseMailpitDate } from './mailpit-dates.js';
import { MAX_QUERY_LENGTH, withinQueryLimits } from './parse-query.js';

export interface MailpitSearchOptions {
  /** The time zone before: and after: dates are read in (an IANA name); an unknown one is ignored. UTC by default. */
  tz?: string;
  /** Reserved for relative dates; Mailpit reads none, so neither does this. */
  now?: Date;
}

/**
 * Terms are separated by spaces; a double quote starts or ends a stretch in which spaces do not separate, and the
 * quotes themselves are then removed, so `subject:"two words"` and `"from:someone"` are single operator terms.
 */
function splitTerms(query: string): string[] {
  const terms: string[] = [];
  let current = '';
  let quoted = false;
  const finish = () => {
    const term = current.replace(/"/g, '').trim();
    if (term !== '') terms.push(term);
    current = '';
  };
  for (const c of query) {
    if (c === '"') quoted = !quoted;
    if (!quoted && c === ' ') finish();
    else current += c;
  }
  finish();
  return terms;
}

/** Mailpit's cleaning of a value: punctuation that cannot be part of an address becomes space, then lower case, single spaces. */
function cleaned(value: string): string {
  return value.replace(/[\uFEFF\r\n\t<>",;()]/g, ' ').trim().split(/\s+/u).filter(Boolean).join(' ').toLowerCase();
}

/** Sizes as Mailpit reads them: bytes, k or kb, m or mb (1024-based), decimals allowed; null for anything else or 0. */
const SIZE = /^(\d+(?:\.\d+)?)\s?(k|kb|m|mb)?$/;
const SIZE_UNIT: Record<string, number> = { k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2 };

function sizeInBytes(value: string): number | null {
  const match = SIZE.exec(value.toLowerCase());
  if (!match) return null;
  const bytes = Math.floor(Number(match[1]) * (match[2] ? SIZE_UNIT[match[2]]! : 1));
  return bytes > 0 ? bytes : null;
}

const text = (fields: TextField[], value: string): QueryNode | null => {
  const needle = normalizeSearchText(value);
  return needle === '' ? null : { kind: 'text', fields, needle };
};

const ADDRESS_OPERATORS: [prefix: string, fields: TextField[]][] = [
  ['to:', ['to']],
  ['from:', ['sender']],
  ['cc:', ['cc']],
  ['bcc:', ['bcc']],
  ['reply-to:', ['replyTo']],
  ['addressed:', ADDRESS_FIELDS],
  ['message-id:', ['messageId']],
];

const STATES: Record<string, QueryNode> = {
  'is:read': { kind: 'read', value: true },
  'is:unread': { kind: 'read', value: false },
  'is:tagged': { kind: 'tagged' },
  'has:attachment': { kind: 'has_attachment' },
  'has:attachments': { kind: 'has_attachment' },
  'has:inline': { kind: 'has_inline' },
  'has:inlines': { kind: 'has_inline' },
};

/**
 * One term, its negation already taken off: null when Mailpit would drop it. A term that looks like an operator
 * but is not one Mailpit reads (is:starred, larger:huge) is searched for as words, as Mailpit does.
 */
function termNode(term: string, timeZone: string | undefined): QueryNode | null {
  const lower = term.toLowerCase();
  for (const [prefix, fields] of ADDRESS_OPERATORS) {
    if (lower.startsWith(prefix)) return text(fields, cleaned(term.slice(prefix.length)));
  }
  if (lower.startsWith('subject:')) return text(['subject'], term.slice('subject:'.length));
  if (lower.startsWith('tag:')) {
    const name = cleaned(term.slice('tag:'.length));
    return name === '' ? null : { kind: 'tag', name };
  }
  const state = STATES[lower];
  if (state) return state;
  for (const [prefix, op] of [['after:', 'gte'], ['before:', 'lt']] as const) {
    if (!lower.startsWith(prefix)) continue;
    const at = parseMailpitDate(cleaned(term.slice(prefix.length)), timeZone);
    if (!at) return null;
    // Mailpit's before: includes the instant it names; q's bound excludes it, so the bound is the next millisecond.
    return { kind: 'received', op, at: op === 'lt' ? new Date(at.getTime() + 1) : at };
  }
  for (const [prefix, op] of [['larger:', 'gt'], ['smaller:', 'lt']] as const) {
    const bytes = lower.startsWith(prefix) ? sizeInBytes(cleaned(term.slice(prefix.length))) : null;
    if (bytes !== null) return { kind: 'size', op, bytes };
  }
  return text(ALL_TEXT_FIELDS, cleaned(term));
}

/**
 * Every term must hold (Mailpit has no OR and no groups); a leading - or ! negates a term. The result is bounded
 * exactly as a q query is: its length and its text terms (QUERY_TEXT_LIMITS), refused with invalid_query.
 */
export function parseMailpitSearch(query: string, options: MailpitSearchOptions = {}): QueryNode {
  if ([...query].length > MAX_QUERY_LENGTH) throw new AppError('invalid_query', `invalid query: longer than ${MAX_QUERY_LENGTH} characters`);
  const timeZone = knownTimeZone(options.tz);
  const clauses: QueryNode[] = [];
  for (const raw of splitTerms(query)) {
    if (cleaned(raw) === '') continue;
    const negated = raw.length > 1 && (raw.startsWith('-') || raw.startsWith('!'));
    const node = termNode(negated ? raw.slice(1) : raw, timeZone);
    if (node) clauses.push(negated ? { kind: 'not', child: node } : node);
  }
  return clauses.length === 0 ? matchAll() : withinQueryLimits(and(...clauses));
}
