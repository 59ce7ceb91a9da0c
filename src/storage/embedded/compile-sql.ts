// Compiles a q syntax tree to an SQLite WHERE clause over `messages m`: the trigram index narrows, instr() decides;
// exact addresses are looked up in message_addresses.
import { requiredAddresses, requiredText, type AddressNode, type QueryNode, type TextField } from '../../query/ast.js';
import { INDEXED_TO } from './sqlite-trigram-tail.js';
import { ADDRESS_FIELD_NAME } from './sqlite-message-rows.js';

export interface SqlFilter {
  where: string;
  params: (string | number)[];
}

/** A SELECT of message seqs, with its parameters. */
export interface SqlSelect {
  select: string;
  params: (string | number)[];
}

const COLUMN: Record<TextField, string> = {
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

/** The messages a search may select: a workspace's, or one inbox's. Address lookups stay within it. */
export interface SqlScope {
  workspaceId: string;
  inboxId?: string;
}

/**
 * The seqs of the scope's messages that name the address in one of the fields, each once (a message may name it in
 * two), from the index on (workspace_id, address, field, inbox_id): its cost is the address's own messages in the
 * workspace, never another tenant's.
 */
export function addressHits(node: AddressNode, scope: SqlScope): SqlSelect {
  const fields = node.fields.map((field) => ADDRESS_FIELD_NAME[field]);
  return {
    select: `SELECT DISTINCT message_seq FROM message_addresses WHERE workspace_id = ? AND address = ? AND field IN (${fields.map(() => '?').join(', ')})${scope.inboxId === undefined ? '' : ' AND inbox_id = ?'}`,
    params: [scope.workspaceId, node.key, ...fields, ...(scope.inboxId === undefined ? [] : [scope.inboxId])],
  };
}

/** The address clauses every match must satisfy, as lookups a page can start from. */
export const requiredAddressHits = (node: QueryNode, scope: SqlScope): SqlSelect[] => requiredAddresses(node).map((clause) => addressHits(clause, scope));

/**
 * The trigram index column holding each field's text: its own, or for To, Cc and Bcc the recipients column, whose
 * values they are (domain/search-text.ts). Indexing those again would only repeat the recipients' trigrams.
 */
const INDEX_COLUMN: Record<TextField, string> = { ...COLUMN, to: COLUMN.recipients, cc: COLUMN.recipients, bcc: COLUMN.recipients };
const INDEX_COLUMNS = new Set(Object.values(INDEX_COLUMN));

/** The trigram tokenizer can only use the index for needles of at least three characters. */
const TRIGRAM = 3;

/**
 * The index query for a needle: rows holding trigrams that cover every character of it, which every row holding
 * the needle does. The index keeps no positions (detail=column: half the size and far cheaper to write), so it
 * cannot match a phrase; it narrows to candidates and instr() decides. Non-overlapping trigrams plus the last one
 * cover the needle with the fewest terms.
 */
function ftsPhrase(fields: TextField[], needle: string): string {
  const chars = [...needle];
  const starts = new Set<number>();
  for (let start = 0; start + TRIGRAM <= chars.length; start += TRIGRAM) starts.add(start);
  starts.add(chars.length - TRIGRAM);
  const terms = [...starts].map((start) => `"${chars.slice(start, start + TRIGRAM).join('').replace(/"/g, '""')}"`).join(' AND ');
  const columns = new Set(fields.map((field) => INDEX_COLUMN[field]));
  return columns.size === INDEX_COLUMNS.size ? `(${terms})` : `{${[...columns].join(' ')}} : (${terms})`;
}

/** Index phrases of the text clauses every match must satisfy that the trigram index can find. */
export function requiredPhrases(node: QueryNode): string[] {
  return requiredText(node).flatMap((clause) => ([...clause.needle].length >= TRIGRAM ? [ftsPhrase(clause.fields, clause.needle)] : []));
}

/**
 * SQLite parses `a AND b AND c …` as a left-deep tree and refuses depths over 1000; halving keeps a query of a
 * thousand terms about ten levels deep.
 */
function balanced(clauses: string[], operator: 'AND' | 'OR'): string {
  if (clauses.length === 1) return clauses[0]!;
  const middle = Math.ceil(clauses.length / 2);
  return `(${balanced(clauses.slice(0, middle), operator)} ${operator} ${balanced(clauses.slice(middle), operator)})`;
}

/**
 * `indexes: false` leaves text clauses to instr() alone and looks each row's addresses up by its own key: right when
 * the rows are already few (a page walk that stops early, or rows driven by one index lookup), where materialising
 * index hits would cost more. With indexes, address clauses take the scope's hits (addressHits).
 */
export function compileSql(node: QueryNode, scope: SqlScope, options: { indexes?: boolean } = {}): SqlFilter {
  const indexes = options.indexes ?? true;
  const params: (string | number)[] = [];
  const walk = (n: QueryNode): string => {
    switch (n.kind) {
      case 'and':
        return n.children.length === 0 ? '1' : balanced(n.children.map(walk), 'AND');
      case 'or':
        return n.children.length === 0 ? '0' : balanced(n.children.map(walk), 'OR');
      case 'not':
        return `NOT ${walk(n.child)}`;
      case 'text': {
        const exact = n.fields.map((field) => {
          params.push(n.needle);
          return `instr(m.${COLUMN[field]}, ?) > 0`;
        });
        const decide = `(${exact.join(' OR ')})`;
        if (!indexes || [...n.needle].length < TRIGRAM) return decide;
        params.push(ftsPhrase(n.fields, n.needle));
        // Parameters are consumed in text order, so the index clause's parameter must come after instr's: put it second.
        // Rows the index does not hold yet (the tail) are candidates too.
        return `(${decide} AND (m.seq IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?) OR m.seq > ${INDEXED_TO}))`;
      }
      case 'address': {
        if (indexes) {
          const hits = addressHits(n, scope);
          params.push(...hits.params);
          return `m.seq IN (${hits.select})`;
        }
        const fields = n.fields.map((field) => ADDRESS_FIELD_NAME[field]);
        params.push(...fields, n.key);
        return `EXISTS (SELECT 1 FROM message_addresses a WHERE a.message_seq = m.seq AND a.field IN (${fields.map(() => '?').join(', ')}) AND a.address = ?)`;
      }
      case 'read':
        return n.value ? 'm.read = 1' : 'm.read = 0';
      case 'tagged':
        return 'EXISTS (SELECT 1 FROM message_tags t WHERE t.message_seq = m.seq)';
      case 'tag':
        params.push(n.name);
        return 'EXISTS (SELECT 1 FROM message_tags t WHERE t.message_seq = m.seq AND t.tag = ?)';
      case 'has_attachment':
        return 'm.attachment_count > 0';
      case 'has_inline':
        return 'm.inline_count > 0';
      case 'has_code':
        return "m.codes <> '[]'";
      case 'size':
        params.push(n.bytes);
        return n.op === 'gt' ? 'm.size > ?' : 'm.size < ?';
      case 'received':
        params.push(n.at.getTime());
        return n.op === 'gte' ? 'm.received_at >= ?' : 'm.received_at < ?';
    }
  };
  const where = walk(node);
  return { where, params };
}
