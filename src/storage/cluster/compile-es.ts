// Compiles a q syntax tree to an Elasticsearch query (filter context) over the fields of search-mappings/messages.template.json.
import type { estypes } from '@elastic/elasticsearch';
import { requiredAddresses, requiredText, type AddressField, type QueryNode, type TextField } from '../../query/ast.js';

type EsQuery = estypes.QueryDslQueryContainer;

/** Document fields holding the normalised search text (the `search` object of a MessageRecord). */
export const SEARCH_FIELD: Record<TextField, string> = {
  subject: 'search_subject',
  sender: 'search_sender',
  recipients: 'search_recipients',
  body: 'search_body',
  to: 'search_to',
  cc: 'search_cc',
  bcc: 'search_bcc',
  replyTo: 'search_reply_to',
  messageId: 'search_message_id',
};

/** Keyword fields holding each address list's keys (the `addresses` object of the document). */
export const ADDRESS_FIELD: Record<AddressField, string> = {
  from: 'addresses.from', envelopeFrom: 'addresses.envelope_from', to: 'addresses.to', cc: 'addresses.cc', bcc: 'addresses.bcc', replyTo: 'addresses.reply_to',
};

/**
 * Search fields are indexed as trigrams at consecutive positions (every character counts, separators and
 * white space included), so a phrase of the needle's trigrams matches exactly where the needle is a
 * substring. A shorter needle has no trigram of its own; it is a substring exactly where some trigram begins
 * with it, the last characters included because every stored text ends in padding (search-document-format.ts).
 */
const TRIGRAM = 3;

/**
 * Elasticsearch refuses queries nested deeper than indices.query.bool.max_nested_depth (30 by default,
 * counting every compound level, plus the caller's own bool around this filter). The parser allows q
 * groups and negations 100 deep, so a subtree that would pass this depth travels as a `wrapper` query,
 * whose content Elasticsearch parses on its own, starting again from depth zero.
 */
const MAX_DEPTH = 20;

const MATCH_ALL: EsQuery = { match_all: {} };
const MATCH_NONE: EsQuery = { match_none: {} };

/** Sizes are whole bytes; beyond this a bound is outside any stored size (and outside what a long range accepts). */
const LARGEST_BOUND = Number.MAX_SAFE_INTEGER;

interface Compiled {
  query: EsQuery;
  /** Compound levels Elasticsearch counts while parsing `query`. */
  depth: number;
}

const leaf = (query: EsQuery): Compiled => ({ query, depth: 0 });

const isConstant = (c: Compiled, constant: EsQuery) => c.query === constant;

/** Keeps a child within the depth budget of the bool that is about to hold it. */
function bounded(child: Compiled): Compiled {
  if (child.depth < MAX_DEPTH) return child;
  return leaf({ wrapper: { query: Buffer.from(JSON.stringify(child.query)).toString('base64') } });
}

function bool(parts: { filter?: Compiled[]; should?: Compiled[]; mustNot?: Compiled[] }): Compiled {
  const take = (list: Compiled[] | undefined) => (list && list.length > 0 ? list.map(bounded) : undefined);
  const [filter, should, mustNot] = [take(parts.filter), take(parts.should), take(parts.mustNot)];
  const body: estypes.QueryDslBoolQuery = {};
  if (filter) body.filter = filter.map((c) => c.query);
  if (should) {
    body.should = should.map((c) => c.query);
    body.minimum_should_match = 1;
  }
  if (mustNot) body.must_not = mustNot.map((c) => c.query);
  const depth = 1 + Math.max(0, ...[...(filter ?? []), ...(should ?? []), ...(mustNot ?? [])].map((c) => c.depth));
  return { query: { bool: body }, depth };
}

/** Identical clauses (a query of a thousand `a`s) count once against Elasticsearch's clause limit. */
function distinct(children: Compiled[]): Compiled[] {
  const seen = new Map<string, Compiled>();
  for (const child of children) seen.set(JSON.stringify(child.query), child);
  return [...seen.values()];
}

function textQuery(fields: TextField[], needle: string): Compiled {
  // Every string contains the empty string, as String.prototype.includes has it.
  if (needle === '') return leaf(MATCH_ALL);
  const short = [...needle].length < TRIGRAM;
  const perField = fields.map((field): Compiled => leaf(short
    ? { prefix: { [SEARCH_FIELD[field]]: { value: needle } } }
    : { match_phrase: { [SEARCH_FIELD[field]]: { query: needle } } }));
  if (perField.length === 0) return leaf(MATCH_NONE);
  return perField.length === 1 ? perField[0]! : bool({ should: perField });
}

/** A key is a term of its fields, which hold keys as they are (no analysis): an exact match. */
function addressQuery(fields: AddressField[], key: string): Compiled {
  const perField = fields.map((field): Compiled => leaf({ term: { [ADDRESS_FIELD[field]]: { value: key } } }));
  if (perField.length === 0) return leaf(MATCH_NONE);
  return perField.length === 1 ? perField[0]! : bool({ should: perField });
}

function sizeQuery(op: 'gt' | 'lt', bytes: number): Compiled {
  // Stored sizes are whole numbers, so a fractional bound (2.5k of a decimal unit) becomes the nearest whole one inside it.
  if (op === 'gt') return leaf(bytes >= LARGEST_BOUND ? MATCH_NONE : { range: { size: { gte: Math.floor(bytes) + 1 } } });
  return leaf(bytes > LARGEST_BOUND ? MATCH_ALL : { range: { size: { lte: Math.ceil(bytes) - 1 } } });
}

function walk(node: QueryNode): Compiled {
  switch (node.kind) {
    case 'and': {
      const children = node.children.flatMap((child) => (child.kind === 'and' ? child.children : [child]));
      const positive: Compiled[] = [];
      const negated: Compiled[] = [];
      for (const child of children) {
        // A negated child goes straight into this bool's must_not, saving a level.
        const compiled = child.kind === 'not' ? walk(child.child) : walk(child);
        const list = child.kind === 'not' ? negated : positive;
        if (isConstant(compiled, child.kind === 'not' ? MATCH_NONE : MATCH_ALL)) continue;
        if (isConstant(compiled, child.kind === 'not' ? MATCH_ALL : MATCH_NONE)) return leaf(MATCH_NONE);
        list.push(compiled);
      }
      const [filter, mustNot] = [distinct(positive), distinct(negated)];
      if (filter.length === 0 && mustNot.length === 0) return leaf(MATCH_ALL);
      if (filter.length === 1 && mustNot.length === 0) return filter[0]!;
      return bool({ filter, mustNot });
    }
    case 'or': {
      const options: Compiled[] = [];
      for (const child of node.children.flatMap((c) => (c.kind === 'or' ? c.children : [c]))) {
        const compiled = walk(child);
        if (isConstant(compiled, MATCH_ALL)) return leaf(MATCH_ALL);
        if (!isConstant(compiled, MATCH_NONE)) options.push(compiled);
      }
      const should = distinct(options);
      if (should.length === 0) return leaf(MATCH_NONE);
      return should.length === 1 ? should[0]! : bool({ should });
    }
    case 'not': {
      if (node.child.kind === 'not') return walk(node.child.child);
      const inner = walk(node.child);
      if (isConstant(inner, MATCH_ALL)) return leaf(MATCH_NONE);
      if (isConstant(inner, MATCH_NONE)) return leaf(MATCH_ALL);
      return bool({ mustNot: [inner] });
    }
    case 'text':
      return textQuery(node.fields, node.needle);
    case 'address':
      return addressQuery(node.fields, node.key);
    case 'read':
      return leaf({ term: { read: { value: node.value } } });
    case 'tagged':
      return leaf({ exists: { field: 'tags' } });
    case 'tag':
      return leaf({ term: { tags: { value: node.name } } });
    case 'has_attachment':
      return leaf({ range: { attachment_count: { gt: 0 } } });
    case 'has_inline':
      return leaf({ range: { inline_count: { gt: 0 } } });
    case 'has_code':
      return leaf({ term: { has_code: true } });
    case 'size':
      return sizeQuery(node.op, node.bytes);
    case 'received':
      return leaf({ range: { received_at: { [node.op]: node.at.getTime(), format: 'epoch_millis' } } });
  }
}

/** The Elasticsearch filter selecting exactly the messages `matches(node, message)` accepts. */
export function compileEs(node: QueryNode): EsQuery {
  return bounded(walk(node)).query;
}

/**
 * The index lookups every match needs, or null when there are none: the phrase queries of its text clauses (needles
 * of a trigram or more; shorter ones are prefix queries, never cheap) and the term queries of its address clauses.
 * The index finds their hits directly.
 */
export function requiredLookupsEs(node: QueryNode): EsQuery | null {
  const lookups = [...requiredText(node).filter((clause) => [...clause.needle].length >= TRIGRAM), ...requiredAddresses(node)].map((clause) => walk(clause));
  return lookups.length === 0 ? null : bool({ filter: lookups }).query;
}
