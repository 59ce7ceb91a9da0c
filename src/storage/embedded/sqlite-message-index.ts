// MessageIndex on SQLite: one row per message (triggers keep its trigram entry in step) and its tags, written in one transaction.
import type { MessageRecord } from '../../domain/types.js';
import type { MessageIndex, MessageListOptions } from '../ports.js';
import { guarded, type SqliteDatabase } from './sqlite-database.js';
import { compileSql } from './compile-sql.js';

interface MessageRow {
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

const toMessage = (row: MessageRow): MessageRecord => ({
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

/** Every message read goes through this select so tags always come along. */
const SELECT_MESSAGES = `SELECT m.*, (SELECT coalesce(json_group_array(t.tag), '[]') FROM (SELECT tag FROM message_tags WHERE message_seq = m.seq ORDER BY tag) t) AS tags
  FROM messages m`;

export class SqliteMessageIndex implements MessageIndex {
  private readonly insertRow;
  private readonly insertTag;
  private readonly insertWithTags;

  constructor(private readonly db: SqliteDatabase) {
    this.insertRow = db.prepare(`INSERT INTO messages (
        id, workspace_id, inbox_id, received_at, envelope_from, recipients, from_header, to_header, cc_header, subject,
        message_id, size, has_text, has_html, attachment_count, link_count, tls, parse_error, read, raw_key,
        search_subject, search_sender, search_recipients, search_body)
      VALUES (@id, @workspace_id, @inbox_id, @received_at, @envelope_from, @recipients, @from_header, @to_header, @cc_header, @subject,
        @message_id, @size, @has_text, @has_html, @attachment_count, @link_count, @tls, @parse_error, @read, @raw_key,
        @search_subject, @search_sender, @search_recipients, @search_body)`);
    this.insertTag = db.prepare('INSERT OR IGNORE INTO message_tags (message_seq, workspace_id, tag) VALUES (?, ?, ?)');
    this.insertWithTags = db.transaction((m: MessageRecord) => {
      const { lastInsertRowid } = this.insertRow.run({
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
        link_count: m.linkCount,
        tls: m.tls ? 1 : 0,
        parse_error: m.parseError,
        read: m.read ? 1 : 0,
        raw_key: m.rawKey,
        search_subject: m.search.subject,
        search_sender: m.search.sender,
        search_recipients: m.search.recipients,
        search_body: m.search.body,
      });
      for (const tag of m.tags) this.insertTag.run(lastInsertRowid, m.workspaceId, tag);
    });
  }

  insert(message: MessageRecord): Promise<void> {
    return guarded(() => this.insertWithTags.immediate(message));
  }

  get(workspaceId: string, id: string): Promise<MessageRecord | null> {
    return guarded(() => {
      const row = this.db.prepare(`${SELECT_MESSAGES} WHERE m.workspace_id = ? AND m.id = ?`).get(workspaceId, id) as MessageRow | undefined;
      return row ? toMessage(row) : null;
    });
  }

  list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessageRecord[]> {
    return guarded(() => {
      const filter = compileSql(options.filter);
      const after = options.after;
      const position = after ? 'AND (m.received_at < ? OR (m.received_at = ? AND m.id < ?))' : '';
      const positionParams = after ? [after.receivedAt.getTime(), after.receivedAt.getTime(), after.id] : [];
      const rows = this.db.prepare(`${SELECT_MESSAGES} WHERE m.workspace_id = ? AND m.inbox_id = ? ${position} AND ${filter.where}
          ORDER BY m.received_at DESC, m.id DESC LIMIT ?`)
        .all(workspaceId, inboxId, ...positionParams, ...filter.params, options.limit);
      return (rows as MessageRow[]).map(toMessage);
    });
  }

  countByInbox(workspaceId: string, inboxIds: string[]): Promise<Map<string, number>> {
    return guarded(() => {
      const counts = new Map<string, number>(inboxIds.map((id) => [id, 0]));
      const statement = this.db.prepare('SELECT count(*) AS n FROM messages WHERE workspace_id = ? AND inbox_id = ?');
      for (const id of inboxIds) counts.set(id, (statement.get(workspaceId, id) as { n: number }).n);
      return counts;
    });
  }

  deleteByInbox(workspaceId: string, inboxId: string): Promise<string[]> {
    return guarded(() => this.db.transaction(() => {
      const rows = this.db.prepare('DELETE FROM messages WHERE workspace_id = ? AND inbox_id = ? RETURNING raw_key')
        .all(workspaceId, inboxId) as { raw_key: string }[];
      return rows.map((row) => row.raw_key);
    }).immediate());
  }
}
