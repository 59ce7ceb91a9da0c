// The searches of the messages table: list pages and batch selections. They run on reader threads
// (sqlite-readers.ts), never on the event loop, since their cost is whatever query a tenant writes.
import type Database from 'better-sqlite3';
import type { InboxCounts, MessagePage, MessageListOptions, MessagePosition, MessageSelection } from '../ports.js';
import type { QueryNode } from '../../query/ast.js';
import { statementCache, type SqliteDatabase } from './sqlite-database.js';
import { compileSql, requiredAddressHits, requiredPhrases } from './compile-sql.js';
import { MESSAGE_COLUMNS, SELECT_MESSAGES, toMessage, type MessageRow } from './sqlite-message-rows.js';
import { TAIL_SEQS } from './sqlite-trigram-tail.js';

export interface SqliteMessageSearchOptions {
  /**
   * A text or exact-address clause every match needs, with fewer index hits than this, drives a page from its hits; otherwise
   * the page walks the inbox newest first and stops once full. See list().
   */
  indexDrivenBelow?: number;
}

/** Written as a range on received_at so the inbox index can start at the cursor. */
const AFTER_POSITION = 'AND m.received_at <= ? AND NOT (m.received_at = ? AND m.id >= ?)';
/** The same range's other end: the scan budget's last message, itself included. */
const UP_TO_POSITION = 'AND m.received_at >= ? AND NOT (m.received_at = ? AND m.id < ?)';

const positionParams = (position: MessagePosition | null): (string | number)[] =>
  position ? [position.receivedAt.getTime(), position.receivedAt.getTime(), position.id] : [];

export class SqliteMessageSearch {
  private readonly sql: (sql: string) => Database.Statement;
  private readonly indexDrivenBelow: number;

  constructor(private readonly db: SqliteDatabase, options: SqliteMessageSearchOptions = {}) {
    this.sql = statementCache(db);
    this.indexDrivenBelow = options.indexDrivenBelow ?? 2000;
  }

  /**
   * A page costs what it reads, so the plan depends on how common the searched text is. Rare text (or a rare exact
   * address): start from the index hits of the rarest required phrase or address and sort those few rows. Common
   * text (or none): walk the inbox newest first, checking each row with instr() and its own address rows, and stop
   * when the page is full, which is soon. With a
   * scan limit, a walk only considers the next `scanLimit` messages of the inbox, found from its index alone;
   * hits fewer than the limit, with the few rows not indexed yet, are all the rows a page examines, so a rare
   * phrase is answered whole, however deep in the inbox its matches are.
   */
  list(workspaceId: string, inboxId: string, options: MessageListOptions): MessagePage {
    return this.db.transaction((): MessagePage => {
      const filter = compileSql(options.filter, { workspaceId, inboxId }, { indexes: false });
      const after = options.after;
      const driver = this.rarestLookup(options.filter, workspaceId, inboxId);
      const withinBudget = options.scanLimit === undefined || (driver !== null && driver.hits < options.scanLimit);
      const scannedTo = withinBudget ? null : this.scanEnd(workspaceId, inboxId, after, options.scanLimit!);
      const conditions = `m.workspace_id = ? AND m.inbox_id = ? ${after ? AFTER_POSITION : ''} ${scannedTo ? UP_TO_POSITION : ''}
          AND ${filter.where} ORDER BY m.received_at DESC, m.id DESC LIMIT ?`;
      const params = [workspaceId, inboxId, ...positionParams(after), ...positionParams(scannedTo), ...filter.params, options.limit];
      // The hits are sorted by their keys alone and only the page's rows are read whole: sorting whole rows
      // (bodies included) of a thousand hits to keep fifty cost most of such a query.
      const rows = driver === null
        ? this.sql(`${SELECT_MESSAGES} WHERE ${conditions}`).all(...params)
        : this.sql(`WITH hits(seq) AS MATERIALIZED (${driver.select}),
            page(seq) AS MATERIALIZED (SELECT m.seq FROM hits CROSS JOIN messages m ON m.seq = hits.seq WHERE ${conditions})
            SELECT ${MESSAGE_COLUMNS} FROM page CROSS JOIN messages m ON m.seq = page.seq ORDER BY m.received_at DESC, m.id DESC`).all(...driver.params, ...params);
      const records = (rows as MessageRow[]).map(toMessage);
      return { records, scannedTo: records.length < options.limit ? scannedTo : null };
    })();
  }

  /** The `scanLimit`th message after `after`, or null when fewer are left. */
  private scanEnd(workspaceId: string, inboxId: string, after: MessagePosition | null, scanLimit: number): MessagePosition | null {
    const row = this.sql(`SELECT m.received_at, m.id FROM messages m WHERE m.workspace_id = ? AND m.inbox_id = ? ${after ? AFTER_POSITION : ''}
        ORDER BY m.received_at DESC, m.id DESC LIMIT 1 OFFSET ?`).get(workspaceId, inboxId, ...positionParams(after), scanLimit - 1) as { received_at: number; id: string } | undefined;
    return row ? { receivedAt: new Date(row.received_at), id: row.id } : null;
  }

  /**
   * Of the lookups every match needs (a text clause's trigram phrase, an address clause's addresses), the one with the
   * fewest hits, and their count, if it has fewer than indexDrivenBelow; counting stops there. A phrase's hits come
   * with the trigram tail, which is not counted: it is a batch or so long however large the inbox
   * (sqlite-trigram-tail.ts), and counting it would make a phrase's plan depend on how far the indexing behind the
   * captures has got. Addresses are written with their row, so they have no tail.
   */
  private rarestLookup(filter: QueryNode, workspaceId: string, inboxId: string): { select: string; params: (string | number)[]; hits: number } | null {
    const lookups = [
      ...requiredPhrases(filter).map((phrase) => ({ select: `SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? UNION ALL ${TAIL_SEQS}`, params: [phrase], counted: 'SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?' })),
      ...requiredAddressHits(filter, { workspaceId, inboxId }).map((lookup) => ({ ...lookup, counted: lookup.select })),
    ];
    let rarest: { select: string; params: (string | number)[]; hits: number } | null = null;
    for (const { select, params, counted } of lookups) {
      const hits = this.sql(`SELECT count(*) FROM (${counted} LIMIT ?)`).pluck().get(...params, this.indexDrivenBelow) as number;
      if (hits < this.indexDrivenBelow && (rarest === null || hits < rarest.hits)) rarest = { select, params, hits };
    }
    return rarest;
  }

  /** How many of the inbox's messages the filter selects, and how many of them are unread, from the index where it can. */
  count(workspaceId: string, inboxId: string, filter: QueryNode): InboxCounts {
    return this.db.transaction((): InboxCounts => {
      // As a page does: a rare lookup's few hits are all the rows counted; otherwise the inbox's rows, narrowed by the indexes.
      const driver = this.rarestLookup(filter, workspaceId, inboxId);
      const compiled = compileSql(filter, { workspaceId, inboxId }, { indexes: driver === null });
      const counted = 'count(*) AS messages, coalesce(sum(m.read = 0), 0) AS unread';
      const conditions = `m.workspace_id = ? AND m.inbox_id = ? AND ${compiled.where}`;
      const row = (driver === null
        ? this.sql(`SELECT ${counted} FROM messages m WHERE ${conditions}`).get(workspaceId, inboxId, ...compiled.params)
        : this.sql(`WITH hits(seq) AS MATERIALIZED (${driver.select}) SELECT ${counted} FROM hits CROSS JOIN messages m ON m.seq = hits.seq WHERE ${conditions}`)
          .get(...driver.params, workspaceId, inboxId, ...compiled.params)) as InboxCounts;
      return { messages: row.messages, unread: row.unread };
    })();
  }

  /** The next `limit` selected messages after row `afterSeq`, in row order: one chunk of a batch change. */
  selectChunk(selection: MessageSelection, afterSeq: number, limit: number): number[] {
    const clauses = ['m.workspace_id = ?', 'm.seq > ?'];
    const params: (string | number)[] = [selection.workspaceId, afterSeq];
    if (selection.inboxId !== undefined) {
      clauses.push('m.inbox_id = ?');
      params.push(selection.inboxId);
    }
    if (selection.ids !== undefined) {
      clauses.push('m.id IN (SELECT value FROM json_each(?))');
      params.push(JSON.stringify(selection.ids));
    }
    if (selection.filter !== undefined) {
      const filter = compileSql(selection.filter, { workspaceId: selection.workspaceId, inboxId: selection.inboxId });
      clauses.push(filter.where);
      params.push(...filter.params);
    }
    return this.sql(`SELECT m.seq FROM messages m WHERE ${clauses.join(' AND ')} ORDER BY m.seq LIMIT ?`).pluck().all(...params, limit) as number[];
  }
}
