// The q language: tokens → syntax tree, with 400 invalid_query errors that name the term and its position.
import { AppError } from '../errors.js';
import { normalizeSearchText } from '../domain/search-text.js';
import { mailboxKey, whyNoKey } from '../domain/mailbox-key.js';
import { ADDRESS_FIELDS, ALL_TEXT_FIELDS, and, matchAll, type AddressField, type QueryNode, type TextField } from './ast.js';

type Token =
  | { type: 'open' | 'close' | 'or' | 'not'; position: number; raw: string }
  | { type: 'term'; position: number; raw: string };

/** Longest accepted query, in characters; keeps the work per query bounded. */
export const MAX_QUERY_LENGTH = 2000;

/** Deepest nesting of groups and negations; the compiled SQL (and any sane query) stays far below it. */
export const MAX_QUERY_DEPTH = 100;

/**
 * What one query may ask of the text index: each text term is a separate lookup (or, below three characters, a scan
 * row by row), so their number, not the query's length, sets its cost.
 */
export const QUERY_TEXT_LIMITS = {
  /** Text terms (words, phrases, from:, to:, subject: and the other header operators), the list parameters included. */
  terms: 16,
  /** Characters over all their needles. */
  needleCharacters: 512,
  /** Terms of one or two characters, which no index serves. */
  shortTerms: 4,
} as const;

/** Exact-address terms (`to:=…`) one query may hold: each is one lookup of the address index, far cheaper than a text term. */
export const QUERY_ADDRESS_TERMS = 64;

function invalid(position: number, message: string): AppError {
  return new AppError('invalid_query', `invalid query at position ${position}: ${message}`);
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const isSpace = (c: string | undefined) => c !== undefined && /\s/u.test(c);
  while (i < query.length) {
    const c = query[i]!;
    const position = i + 1;
    if (isSpace(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'open' : 'close', position, raw: c });
      i++;
    } else if (c === '-' || c === '!') {
      // Only reachable at the start of a token: inside a word, '-' and '!' are consumed as part of it.
      const next = query[i + 1];
      if (next === undefined || isSpace(next) || next === ')') throw invalid(position, `'${c}' must be followed by the term or group it negates`);
      tokens.push({ type: 'not', position, raw: c });
      i++;
    } else {
      let j = i;
      while (j < query.length && !isSpace(query[j]) && query[j] !== '(' && query[j] !== ')') {
        if (query[j] === '"') {
          const end = query.indexOf('"', j + 1);
          if (end === -1) throw invalid(j + 1, 'unbalanced double quote');
          j = end + 1;
        } else {
          j++;
        }
      }
      const raw = query.slice(i, j);
      tokens.push(raw === 'OR' ? { type: 'or', position, raw } : { type: 'term', position, raw });
      i = j;
    }
  }
  return tokens;
}

const SIZE = /^(\d+(?:\.\d+)?|\.\d+)([kmg]?)b?$/i;
const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;

function parseSize(value: string, position: number, term: string): number {
  const match = SIZE.exec(value);
  if (!match) throw invalid(position, `'${term}': '${value}' is not a size such as 5000, 10k, 1.5m or 2g`);
  return Number(match[1]) * SIZE_UNITS[match[2]!.toLowerCase()]!;
}

/** A calendar date means 00:00 UTC; a date-time must carry Z or an offset. */
export function parseQueryDate(value: string): Date | null {
  const date = DATE.exec(value);
  const dateTime = DATE_TIME.exec(value);
  const parts = date ?? dateTime;
  if (!parts) return null;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are.
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  if (date) return probe;
  const [hour, minute, second] = [Number(parts[4]), Number(parts[5]), Number(parts[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const at = new Date(value.replace(' ', 'T'));
  return Number.isNaN(at.getTime()) ? null : at;
}

function parseDate(value: string, position: number, term: string): Date {
  const at = parseQueryDate(value);
  if (!at) throw invalid(position, `'${term}': '${value}' is not a date (2026-11-20) or a date-time with offset (2026-11-20T14:00:00Z)`);
  return at;
}

/** Quotes around an operator value group words; they are not part of the value. */
function unquote(value: string): string {
  return value.replace(/"/g, '');
}

function textNode(fields: TextField[], value: string, position: number, term: string): QueryNode {
  const needle = normalizeSearchText(unquote(value));
  if (needle.trim() === '') throw invalid(position, `'${term}' has nothing to search for`);
  return { kind: 'text', fields, needle };
}

/** The operators that search one header's text (or, addressed:, every address header's). */
export const HEADER_OPERATORS: Record<string, TextField[]> = {
  from: ['sender'],
  to: ['recipients'],
  'to-header': ['to'],
  cc: ['cc'],
  bcc: ['bcc'],
  'reply-to': ['replyTo'],
  addressed: ADDRESS_FIELDS,
  'message-id': ['messageId'],
  subject: ['subject'],
};

/**
 * The address lists each address operator's exact form (`to:=alice@example.test`) compares: as its text form reads
 * (to: every recipient, from: the From header and the envelope sender), by address instead of by substring.
 */
export const ADDRESS_OPERATORS: Record<string, AddressField[]> = {
  from: ['from', 'envelopeFrom'],
  to: ['to', 'cc', 'bcc'],
  'to-header': ['to'],
  cc: ['cc'],
  bcc: ['bcc'],
  'reply-to': ['replyTo'],
  addressed: ['from', 'envelopeFrom', 'to', 'cc', 'bcc', 'replyTo'],
};

const OPERATORS = new Set([...Object.keys(HEADER_OPERATORS), 'is', 'tag', 'has', 'larger', 'smaller', 'after', 'before']);

/**
 * `to:=alice@example.test`: the value is one address, compared by its key. Quotes may enclose the whole value or its
 * local part (`"john smith"@example.test`), and angle brackets the whole address.
 */
function addressNode(fields: AddressField[], value: string, position: number, term: string): QueryNode {
  const address = /^<.*>$/su.test(value) ? value.slice(1, -1) : value;
  if (address === '') throw invalid(position, `'${term}' needs an address after '='`);
  const key = mailboxKey(address) ?? mailboxKey(unquote(address));
  if (key === null) throw invalid(position, `'${term}': '${address}' has no exact form: ${whyNoKey(unquote(address)) ?? whyNoKey(address)}`);
  return { kind: 'address', fields, key };
}

function termNode(raw: string, position: number): QueryNode {
  const colon = raw.indexOf(':');
  const name = colon > 0 ? raw.slice(0, colon).toLowerCase() : '';
  if (!OPERATORS.has(name) || raw.slice(0, colon).includes('"')) {
    return textNode(ALL_TEXT_FIELDS, raw, position, raw);
  }
  const written = raw.slice(colon + 1);
  if (written.startsWith('=') && HEADER_OPERATORS[name]) {
    const fields = ADDRESS_OPERATORS[name];
    if (!fields) throw invalid(position, `'${raw}': '=' (an exact address) follows only ${Object.keys(ADDRESS_OPERATORS).join(':, ')}:; quote a value that starts with '=' ("=…")`);
    return addressNode(fields, written.slice(1), position, raw);
  }
  const value = unquote(written);
  if (value.trim() === '') throw invalid(position, `'${raw}' needs a value after the colon`);
  const fields = HEADER_OPERATORS[name];
  if (fields) return textNode(fields, value, position, raw);
  switch (name) {
    case 'is': {
      const state = value.toLowerCase();
      if (state === 'read' || state === 'unread') return { kind: 'read', value: state === 'read' };
      if (state === 'tagged') return { kind: 'tagged' };
      throw invalid(position, `'${raw}': is: takes read, unread or tagged`);
    }
    case 'has': {
      const what = value.toLowerCase();
      if (what === 'attachment' || what === 'attachments') return { kind: 'has_attachment' };
      if (what === 'inline' || what === 'inlines') return { kind: 'has_inline' };
      if (what === 'code' || what === 'codes') return { kind: 'has_code' };
      throw invalid(position, `'${raw}': has: takes attachment, inline or code`);
    }
    case 'tag':
      return { kind: 'tag', name: value.toLowerCase() };
    case 'larger':
      return { kind: 'size', op: 'gt', bytes: parseSize(value, position, raw) };
    case 'smaller':
      return { kind: 'size', op: 'lt', bytes: parseSize(value, position, raw) };
    case 'after':
      return { kind: 'received', op: 'gte', at: parseDate(value, position, raw) };
    default:
      return { kind: 'received', op: 'lt', at: parseDate(value, position, raw) };
  }
}

/**
 * Grammar: query := sequence; sequence := disjunction*; disjunction := unary ('OR' unary)*;
 * unary := ('-' | '!') unary | '(' sequence ')' | term. Juxtaposition is AND and binds loosest.
 */
class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[], private readonly length: number) {}

  parse(): QueryNode {
    const node = this.sequence();
    const stray = this.tokens[this.index];
    if (stray) throw invalid(stray.position, "unbalanced ')': no '(' opens it");
    return node;
  }

  private sequence(): QueryNode {
    const clauses: QueryNode[] = [];
    while (this.index < this.tokens.length && this.tokens[this.index]!.type !== 'close') clauses.push(this.disjunction());
    return clauses.length === 0 ? matchAll() : and(...clauses);
  }

  private disjunction(): QueryNode {
    const first = this.tokens[this.index]!;
    if (first.type === 'or') throw invalid(first.position, 'OR needs a term on both sides');
    const options = [this.unary()];
    while (this.tokens[this.index]?.type === 'or') {
      const or = this.tokens[this.index++]!;
      const next = this.tokens[this.index];
      if (!next || next.type === 'or' || next.type === 'close') throw invalid(or.position, 'OR needs a term on both sides');
      options.push(this.unary());
    }
    return options.length === 1 ? options[0]! : { kind: 'or', children: options.flatMap((o) => (o.kind === 'or' ? o.children : [o])) };
  }

  private unary(): QueryNode {
    const token = this.tokens[this.index++];
    if (!token) throw invalid(this.length + 1, 'the query ends where a term was expected');
    if (token.type === 'not' || token.type === 'open') {
      if (++this.depth > MAX_QUERY_DEPTH) throw invalid(token.position, `groups and negations nest more than ${MAX_QUERY_DEPTH} deep`);
      try {
        return this.nested(token);
      } finally {
        this.depth--;
      }
    }
    return this.nested(token);
  }

  private nested(token: Token): QueryNode {
    switch (token.type) {
      case 'not': {
        const next = this.tokens[this.index];
        if (!next || next.type === 'or' || next.type === 'close') throw invalid(token.position, `'${token.raw}' must be followed by the term or group it negates`);
        return { kind: 'not', child: this.unary() };
      }
      case 'open': {
        if (this.tokens[this.index]?.type === 'close') throw invalid(token.position, 'empty parentheses');
        const inner = this.sequence();
        if (this.tokens[this.index]?.type !== 'close') throw invalid(token.position, "unbalanced '(': no ')' closes it");
        this.index++;
        return inner;
      }
      case 'close':
        throw invalid(token.position, "unbalanced ')': no '(' opens it");
      case 'or':
        throw invalid(token.position, 'OR needs a term on both sides');
      default:
        return termNode(token.raw, token.position);
    }
  }
}

function addressTerms(node: QueryNode): number {
  switch (node.kind) {
    case 'address':
      return 1;
    case 'and':
    case 'or':
      return node.children.reduce((sum, child) => sum + addressTerms(child), 0);
    case 'not':
      return addressTerms(node.child);
    default:
      return 0;
  }
}

function textNeedles(node: QueryNode): string[] {
  switch (node.kind) {
    case 'text':
      return [node.needle];
    case 'and':
    case 'or':
      return node.children.flatMap(textNeedles);
    case 'not':
      return textNeedles(node.child);
    default:
      return [];
  }
}

/**
 * Refuses a query whose text terms would cost more than QUERY_TEXT_LIMITS allows, or that holds more than
 * QUERY_ADDRESS_TERMS exact-address terms (Mailpit's dialect too).
 */
export function withinQueryLimits(node: QueryNode): QueryNode {
  const addresses = addressTerms(node);
  if (addresses > QUERY_ADDRESS_TERMS) throw new AppError('invalid_query', `invalid query: ${addresses} exact-address terms; at most ${QUERY_ADDRESS_TERMS} per query`);
  const needles = textNeedles(node);
  const { terms, needleCharacters, shortTerms } = QUERY_TEXT_LIMITS;
  if (needles.length > terms) throw new AppError('invalid_query', `invalid query: ${needles.length} text terms; at most ${terms} per query`);
  const characters = needles.reduce((sum, needle) => sum + [...needle].length, 0);
  if (characters > needleCharacters) throw new AppError('invalid_query', `invalid query: its text terms hold ${characters} characters; at most ${needleCharacters} per query`);
  const short = needles.filter((needle) => [...needle.trim()].length < 3).length;
  if (short > shortTerms) throw new AppError('invalid_query', `invalid query: ${short} text terms of one or two characters; at most ${shortTerms} per query`);
  return node;
}

export function parseQuery(query: string): QueryNode {
  if ([...query].length > MAX_QUERY_LENGTH) throw new AppError('invalid_query', `invalid query: longer than ${MAX_QUERY_LENGTH} characters`);
  return withinQueryLimits(new Parser(tokenize(query), query.length).parse());
}

/** The list parameters from, to, subject and since mean what the operators mean, ANDed with q. */
export function listFilter(params: { q?: string; from?: string; to?: string; subject?: string; since?: string }): QueryNode {
  const clauses: QueryNode[] = [];
  if (params.q !== undefined) clauses.push(parseQuery(params.q));
  const param = (name: string, fields: TextField[], value: string | undefined) => {
    if (value === undefined) return;
    const needle = normalizeSearchText(value);
    if (needle.trim() === '') throw new AppError('invalid_request', `query parameter '${name}' must not be empty`);
    clauses.push({ kind: 'text', fields, needle });
  };
  param('from', ['sender'], params.from);
  param('to', ['recipients'], params.to);
  param('subject', ['subject'], params.subject);
  if (params.since !== undefined) {
    const at = parseQueryDate(params.since);
    if (!at) throw new AppError('invalid_request', `query parameter 'since' must be a date-time with offset, got '${params.since}'`);
    clauses.push({ kind: 'received', op: 'gte', at });
  }
  return clauses.length === 0 ? matchAll() : withinQueryLimits(and(...clauses));
}
