// MessageIndex on SQLite: one row per message plus its trigram full-text entry, written in one transaction.
import type { MessageRecord } from '../../domain/types.js';
import type { MessageIndex, MessageListOptions } from '../ports.js';
import { guarded, type SqliteDatabase } from './sqlite-database.js';

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
  tags: string;
  text_body: string;
  html_text: string;
  raw_key: string;
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
  textBody: row.text_body,
  htmlText: row.html_text,
  rawKey: row.raw_key,
});

export class SqliteMessageIndex implements MessageIndex {
  private readonly insertRow;
  private readonly insertFts;
  private readonly insertBoth;

  constructor(private readonly db: SqliteDatabase) {
    this.insertRow = db.prepare(`INSERT INTO messages (
        id, workspace_id, inbox_id, received_at, envelope_from, recipients, from_header, to_header, cc_header, subject,
        message_id, size, has_text, has_html, attachment_count, link_count, tls, parse_error, read, tags, text_body, html_text, raw_key)
      VALUES (@id, @workspace_id, @inbox_id, @received_at, @envelope_from, @recipients, @from_header, @to_header, @cc_header, @subject,
        @message_id, @size, @has_text, @has_html, @attachment_count, @link_count, @tls, @parse_error, @read, @tags, @text_body, @html_text, @raw_key)`);
    this.insertFts = db.prepare('INSERT INTO messages_fts (rowid, subject, sender, recipients, body) VALUES (?, ?, ?, ?, ?)');
    this.insertBoth = db.transaction((m: MessageRecord) => {
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
        tags: JSON.stringify(m.tags),
        text_body: m.textBody,
        html_text: m.htmlText,
        raw_key: m.rawKey,
      });
      this.insertFts.run(
        lastInsertRowid,
        m.subject,
        `${m.from}\n${m.envelopeFrom}`,
        `${m.to}\n${m.cc}\n${m.recipients.join('\n')}`,
        `${m.textBody}\n${m.htmlText}`,
      );
    });
  }

  insert(message: MessageRecord): Promise<void> {
    return guarded(() => this.insertBoth.immediate(message));
  }

  get(workspaceId: string, id: string): Promise<MessageRecord | null> {
    return guarded(() => {
      const row = this.db.prepare('SELECT * FROM messages WHERE workspace_id = ? AND id = ?').get(workspaceId, id) as MessageRow | undefined;
      return row ? toMessage(row) : null;
    });
  }

  list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessageRecord[]> {
    return guarded(() => {
      const after = options.after;
      const rows = after
        ? this.db.prepare(`SELECT * FROM messages WHERE workspace_id = ? AND inbox_id = ?
              AND (received_at < ? OR (received_at = ? AND id < ?))
              ORDER BY received_at DESC, id DESC LIMIT ?`)
          .all(workspaceId, inboxId, after.receivedAt.getTime(), after.receivedAt.getTime(), after.id, options.limit)
        : this.db.prepare('SELECT * FROM messages WHERE workspace_id = ? AND inbox_id = ? ORDER BY received_at DESC, id DESC LIMIT ?')
          .all(workspaceId, inboxId, options.limit);
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
      const rows = this.db.prepare('DELETE FROM messages WHERE workspace_id = ? AND inbox_id = ? RETURNING seq, raw_key')
        .all(workspaceId, inboxId) as { seq: number; raw_key: string }[];
      const deleteFts = this.db.prepare('DELETE FROM messages_fts WHERE rowid = ?');
      for (const row of rows) deleteFts.run(row.seq);
      return rows.map((row) => row.raw_key);
    }).immediate());
  }
}
