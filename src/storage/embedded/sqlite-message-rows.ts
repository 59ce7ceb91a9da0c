// The messages table's rows: as every read selects them (tags gathered alongside), as records, and how one is written.
import type { AddressField, AddressKeys, MessageRecord } from '../../domain/types.js';
import { noAddresses } from '../../domain/mailbox-key.js';
import type { SqliteDatabase } from './sqlite-database.js';

export interface MessageRow {
  seq: number;
  id: string;
  workspace_id: string;
  inbox_id: string;
  received_at: number;
  envelope_from: string;
  recipients: string;
  from_header: string;
  to_header: string;
  cc_header: string;
  subject: string;
  message_id: string;
  size: number;
  has_text: number;
  has_html: number;
  attachment_count: number;
  inline_count: number;
  link_count: number;
  snippet: string;
  /** JSON array of OneTimeCode. */
  codes: string;
  /** JSON array of LinkDetail. */
  link_details: string;
  tls: number;
  parse_error: string | null;
  analysis_cut_short: number;
  read: number;
  /** JSON array, gathered from message_tags by the select. */
  tags: string;
  raw_key: string;
  search_subject: string;
  search_sender: string;
  search_recipients: string;
  search_body: string;
  search_to: string;
  search_cc: string;
  search_bcc: string;
  search_reply_to: string;
  search_message_id: string;
  /** JSON array of [field, address] pairs, gathered from message_addresses by the select. */
  addresses: string;
}

/** message_addresses.field for each address list. */
export const ADDRESS_FIELD_NAME: Record<AddressField, string> = {
  from: 'from', envelopeFrom: 'envelope_from', to: 'to', cc: 'cc', bcc: 'bcc', replyTo: 'reply_to',
};

const FIELD_OF = new Map(Object.entries(ADDRESS_FIELD_NAME).map(([field, name]) => [name, field as AddressField]));

/** The message's address keys from its rows, each field's in the order mailboxKeys gives them. */
function addressKeys(pairs: string): AddressKeys {
  const keys = noAddresses();
  for (const [name, address] of JSON.parse(pairs) as [string, string][]) {
    const field = FIELD_OF.get(name);
    if (field) keys[field].push(address);
  }
  for (const list of Object.values(keys)) list.sort();
  return keys;
}

export const toMessage = (row: MessageRow): MessageRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  inboxId: row.inbox_id,
  receivedAt: new Date(row.received_at),
  envelopeFrom: row.envelope_from,
  recipients: JSON.parse(row.recipients) as string[],
  from: row.from_header,
  to: row.to_header,
  cc: row.cc_header,
  subject: row.subject,
  messageId: row.message_id,
  size: row.size,
  hasText: row.has_text === 1,
  hasHtml: row.has_html === 1,
  attachmentCount: row.attachment_count,
  inlineCount: row.inline_count,
  linkCount: row.link_count,
  snippet: row.snippet,
  codes: JSON.parse(row.codes) as MessageRecord['codes'],
  linkDetails: JSON.parse(row.link_details) as MessageRecord['linkDetails'],
  tls: row.tls === 1,
  parseError: row.parse_error,
  analysisCutShort: row.analysis_cut_short === 1,
  read: row.read === 1,
  tags: JSON.parse(row.tags) as string[],
  rawKey: row.raw_key,
  search: {
    subject: row.search_subject, sender: row.search_sender, recipients: row.search_recipients, body: row.search_body,
    to: row.search_to, cc: row.search_cc, bcc: row.search_bcc, replyTo: row.search_reply_to, messageId: row.search_message_id,
    addresses: addressKeys(row.addresses),
  },
});

/** Every message read selects these, so tags and address keys always come along. */
export const MESSAGE_COLUMNS = `m.*, (SELECT coalesce(json_group_array(tag ORDER BY tag), '[]') FROM message_tags WHERE message_seq = m.seq) AS tags,
  (SELECT coalesce(json_group_array(json_array(field, address)), '[]') FROM message_addresses WHERE message_seq = m.seq) AS addresses`;
export const SELECT_MESSAGES = `SELECT ${MESSAGE_COLUMNS} FROM messages m`;

/**
 * Writes one message's row, its tags and its address keys inside the caller's transaction: the writer thread's for captures, and a
 * restore's. Its trigram entry is written later, with the tail's next batch (sqlite-trigram-tail.ts).
 */
export function messageRowWriter(db: SqliteDatabase): (m: MessageRecord) => void {
  const insertRow = db.prepare(`INSERT INTO messages (
      id, workspace_id, inbox_id, received_at, envelope_from, recipients, from_header, to_header, cc_header, subject,
      message_id, size, has_text, has_html, attachment_count, inline_count, link_count, snippet, codes, link_details, tls, parse_error, analysis_cut_short, read, raw_key,
      search_subject, search_sender, search_recipients, search_body, search_to, search_cc, search_bcc, search_reply_to, search_message_id)
    VALUES (@id, @workspace_id, @inbox_id, @received_at, @envelope_from, @recipients, @from_header, @to_header, @cc_header, @subject,
      @message_id, @size, @has_text, @has_html, @attachment_count, @inline_count, @link_count, @snippet, @codes, @link_details, @tls, @parse_error, @analysis_cut_short, @read, @raw_key,
      @search_subject, @search_sender, @search_recipients, @search_body, @search_to, @search_cc, @search_bcc, @search_reply_to, @search_message_id)`);
  const insertTag = db.prepare('INSERT OR IGNORE INTO message_tags (message_seq, workspace_id, tag) VALUES (?, ?, ?)');
  const insertAddress = db.prepare('INSERT OR IGNORE INTO message_addresses (message_seq, field, address, workspace_id, inbox_id) VALUES (?, ?, ?, ?, ?)');
  return (m) => {
    const { lastInsertRowid } = insertRow.run({
      id: m.id,
      workspace_id: m.workspaceId,
      inbox_id: m.inboxId,
      received_at: m.receivedAt.getTime(),
      envelope_from: m.envelopeFrom,
      recipients: JSON.stringify(m.recipients),
      from_header: m.from,
      to_header: m.to,
      cc_header: m.cc,
      subject: m.subject,
      message_id: m.messageId,
      size: m.size,
      has_text: m.hasText ? 1 : 0,
      has_html: m.hasHtml ? 1 : 0,
      attachment_count: m.attachmentCount,
      inline_count: m.inlineCount,
      link_count: m.linkCount,
      snippet: m.snippet,
      codes: JSON.stringify(m.codes),
      link_details: JSON.stringify(m.linkDetails),
      tls: m.tls ? 1 : 0,
      parse_error: m.parseError,
      analysis_cut_short: m.analysisCutShort ? 1 : 0,
      read: m.read ? 1 : 0,
      raw_key: m.rawKey,
      search_subject: m.search.subject,
      search_sender: m.search.sender,
      search_recipients: m.search.recipients,
      search_body: m.search.body,
      search_to: m.search.to,
      search_cc: m.search.cc,
      search_bcc: m.search.bcc,
      search_reply_to: m.search.replyTo,
      search_message_id: m.search.messageId,
    });
    for (const tag of m.tags) insertTag.run(lastInsertRowid, m.workspaceId, tag);
    for (const [field, keys] of Object.entries(m.search.addresses) as [AddressField, string[]][]) {
      for (const key of keys) insertAddress.run(lastInsertRowid, ADDRESS_FIELD_NAME[field], key, m.workspaceId, m.inboxId);
    }
  };
}
