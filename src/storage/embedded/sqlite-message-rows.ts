// The messages table's rows as every read selects them (tags gathered alongside) and as records.
import type { MessageRecord } from '../../domain/types.js';

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
  link_count: number;
  tls: number;
  parse_error: string | null;
  read: number;
  /** JSON array, gathered from message_tags by the select. */
  tags: string;
  raw_key: string;
  search_subject: string;
  search_sender: string;
  search_recipients: string;
  search_body: string;
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
  linkCount: row.link_count,
  tls: row.tls === 1,
  parseError: row.parse_error,
  read: row.read === 1,
  tags: JSON.parse(row.tags) as string[],
  rawKey: row.raw_key,
  search: { subject: row.search_subject, sender: row.search_sender, recipients: row.search_recipients, body: row.search_body },
});

/** Every message read selects these, so tags always come along. */
export const MESSAGE_COLUMNS = `m.*, (SELECT coalesce(json_group_array(tag ORDER BY tag), '[]') FROM message_tags WHERE message_seq = m.seq) AS tags`;
export const SELECT_MESSAGES = `SELECT ${MESSAGE_COLUMNS} FROM messages m`;
