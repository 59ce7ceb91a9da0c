// MessageIndex on SQLite: one row per message (its trigram entry written behind it, sqlite-trigram-tail.ts) and its tags.
import type Database from 'better-sqlite3';
import type { MessageRecord } from '../../domain/types.js';
import type { QueryNode } from '../../query/ast.js';
import type { ArrivalPage, ChangeResult, InboxCounts, MessageChange, MessageIndex, MessageListOptions, MessagePage, MessageSelection } from '../ports.js';
import { messageRowWriter, SELECT_MESSAGES, toMessage, type MessageRow } from './sqlite-message-rows.js';
import { guarded, statementCache, type SqliteDatabase } from './sqlite-database.js';
import { SqliteMessageSearch } from './sqlite-message-search.js';
import { trigramTail, type TrigramTail } from './sqlite-trigram-tail.js';

/** Where searches run: the reader threads (sqlite-readers.ts), or in place for lookups of listed ids. */
export interface MessageSearches {
  list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessagePage>;
  /** The next `limit` selected rows after row `afterSeq`, in row order. */
  selectChunk(selection: MessageSelection, afterSeq: number, limit: number): Promise<number[]>;
  count(workspaceId: string, inboxId: string, filter: QueryNode): Promise<InboxCounts>;
}

/** The searches of `search` run where they are called: for listed ids alone, an id index lookup that costs no search. */
const searchesInPlace = (search: SqliteMessageSearch): MessageSearches => ({
  list: (workspaceId, inboxId, options) => guarded(() => search.list(workspaceId, inboxId, options)),
  selectChunk: (selection, afterSeq, limit) => guarded(() => search.selectChunk(selection, afterSeq, limit)),
  count: (workspaceId, inboxId, filter) => guarded(() => search.count(workspaceId, inboxId, filter)),
});

/**
 * Captures are written by the writer thread (sqlite-capture-store.ts), quota charge and arrival included; this
 * index reads them, changes them and restores rebuilt ones, on the event loop's connection (see README.md).
 */
export class SqliteMessageIndex implements MessageIndex {
  private readonly writeMessage: (m: MessageRecord) => void;
  private readonly sql: (sql: string) => Database.Statement;
  private readonly idLookups: MessageSearches;
  private readonly trigramTail: TrigramTail;

  /** `batchChunk`: messages a change selects and writes per transaction (SANDBOX_BATCH_CHUNK_SIZE). */
  constructor(private readonly db: SqliteDatabase, private readonly searches: MessageSearches, private readonly batchChunk: number) {
    this.sql = statementCache(db);
    this.idLookups = searchesInPlace(new SqliteMessageSearch(db));
    this.writeMessage = messageRowWriter(db);
    this.trigramTail = trigramTail(db);
  }

  restore(message: MessageRecord): Promise<void> {
    return guarded(() => this.db.transaction(() => {
      // Tags go with the old row (ON DELETE CASCADE) and the trigger drops its trigram entry.
      this.sql('DELETE FROM messages WHERE workspace_id = ? AND id = ?').run(message.workspaceId, message.id);
      this.writeMessage(message);
      // A reindex writes no captures, so no writer thread indexes behind it: the restored row is indexed here.
      this.trigramTail.indexBatch();
    }).immediate());
  }

  arrivalsAfter(workspaceId: string, inboxId: string, after: number, limit: number): Promise<ArrivalPage> {
    return guarded(() => {
      const rows = this.sql('SELECT seq, message_id AS messageId FROM inbox_arrivals WHERE inbox_id = ? AND workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?')
        .all(inboxId, workspaceId, after, limit) as { seq: number; messageId: string }[];
      // Numbers have no gaps, so a first entry past after + 1 means the ones between were trimmed.
      return { arrivals: rows, complete: rows.length === 0 || rows[0]!.seq === after + 1 };
    });
  }

  latestArrival(workspaceId: string, inboxId: string): Promise<number> {
    return guarded(() => this.sql('SELECT coalesce(max(seq), 0) FROM inbox_arrivals WHERE inbox_id = ? AND workspace_id = ?').pluck().get(inboxId, workspaceId) as number);
  }

  dropArrivals(workspaceId: string, inboxId: string): Promise<void> {
    return guarded(() => {
      this.sql('DELETE FROM inbox_arrivals WHERE inbox_id = ? AND workspace_id = ?').run(inboxId, workspaceId);
    });
  }

  getMany(workspaceId: string, ids: string[]): Promise<MessageRecord[]> {
    return guarded(() => {
      if (ids.length === 0) return [];
      const rows = this.sql(`${SELECT_MESSAGES} WHERE m.workspace_id = ? AND m.id IN (SELECT value FROM json_each(?))`).all(workspaceId, JSON.stringify(ids));
      return (rows as MessageRow[]).map(toMessage);
    });
  }

  get(workspaceId: string, id: string): Promise<MessageRecord | null> {
    return guarded(() => {
      const row = this.sql(`${SELECT_MESSAGES} WHERE m.workspace_id = ? AND m.id = ?`).get(workspaceId, id) as MessageRow | undefined;
      return row ? toMessage(row) : null;
    });
  }

  list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessagePage> {
    return this.searches.list(workspaceId, inboxId, options);
  }

  count(workspaceId: string, inboxId: string, filter: QueryNode): Promise<InboxCounts> {
    return this.searches.count(workspaceId, inboxId, filter);
  }

  countByInbox(workspaceId: string, inboxIds: string[]): Promise<Map<string, InboxCounts>> {
    return guarded(() => {
      // Two counts, each answered from an index alone: messages_by_inbox, and the partial messages_unread_by_inbox.
      const total = this.sql('SELECT count(*) FROM messages WHERE workspace_id = ? AND inbox_id = ?').pluck();
      const unread = this.sql('SELECT count(*) FROM messages WHERE workspace_id = ? AND inbox_id = ? AND read = 0').pluck();
      return new Map(inboxIds.map((id) => [id, { messages: total.get(workspaceId, id) as number, unread: unread.get(workspaceId, id) as number }]));
    });
  }

  /**
   * Chunk by chunk: a chunk's rows are selected on a reader, then written in a short transaction of their own, so
   * neither the search nor a whole workspace's writes hold the write lock captures wait for.
   */
  async change(selection: MessageSelection, change: MessageChange): Promise<ChangeResult> {
    // Listed ids alone are looked up in the id index, at most a thousand of them (the API's cap): no search.
    const searches = selection.filter === undefined && selection.ids !== undefined ? this.idLookups : this.searches;
    const result: ChangeResult = { affected: 0, deletedIds: [] };
    for (let afterSeq = 0; ;) {
      const seqs = await searches.selectChunk(selection, afterSeq, this.batchChunk);
      if (seqs.length === 0) return result;
      const chunk = await guarded(() => this.changeRows(selection.workspaceId, seqs, change));
      result.affected += chunk.affected;
      result.deletedIds.push(...chunk.deletedIds);
      if (seqs.length < this.batchChunk) return result;
      afterSeq = seqs.at(-1)!;
    }
  }

  private changeRows(workspaceId: string, seqs: number[], change: MessageChange): ChangeResult {
    return this.db.transaction((): ChangeResult => {
      // Selected rows go through a temporary table so any number of them fits one statement.
      this.db.exec('CREATE TEMP TABLE IF NOT EXISTS selected_seqs (seq INTEGER PRIMARY KEY); DELETE FROM temp.selected_seqs;');
      const remember = this.sql('INSERT INTO temp.selected_seqs (seq) VALUES (?)');
      for (const seq of seqs) remember.run(seq);
      const tagList = (tags: string[]) => JSON.stringify([...new Set(tags)]);
      switch (change.kind) {
        case 'read': {
          const { changes } = this.sql('UPDATE messages SET read = ? WHERE seq IN (SELECT seq FROM temp.selected_seqs) AND read <> ?')
            .run(change.value ? 1 : 0, change.value ? 1 : 0);
          return { affected: changes, deletedIds: [] };
        }
        case 'delete': {
          const ids = this.sql('DELETE FROM messages WHERE seq IN (SELECT seq FROM temp.selected_seqs) RETURNING id').pluck().all() as string[];
          return { affected: ids.length, deletedIds: ids };
        }
        case 'add_tags': {
          const gaining = this.sql(`SELECT count(*) AS n FROM temp.selected_seqs s WHERE EXISTS (
              SELECT 1 FROM json_each(?) j WHERE NOT EXISTS (SELECT 1 FROM message_tags t WHERE t.message_seq = s.seq AND t.tag = j.value))`)
            .get(tagList(change.tags)) as { n: number };
          this.sql(`INSERT OR IGNORE INTO message_tags (message_seq, workspace_id, tag)
              SELECT s.seq, ?, j.value FROM temp.selected_seqs s, json_each(?) j`).run(workspaceId, tagList(change.tags));
          return { affected: gaining.n, deletedIds: [] };
        }
        case 'remove_tags': {
          const losing = this.sql(`SELECT count(DISTINCT message_seq) AS n FROM message_tags
              WHERE message_seq IN (SELECT seq FROM temp.selected_seqs) AND tag IN (SELECT value FROM json_each(?))`).get(tagList(change.tags)) as { n: number };
          this.sql('DELETE FROM message_tags WHERE message_seq IN (SELECT seq FROM temp.selected_seqs) AND tag IN (SELECT value FROM json_each(?))')
            .run(tagList(change.tags));
          return { affected: losing.n, deletedIds: [] };
        }
        case 'set_tags': {
          const wanted = tagList(change.tags);
          const differing = this.sql(`SELECT count(*) AS n FROM temp.selected_seqs s WHERE
              (SELECT coalesce(json_group_array(tag ORDER BY tag), '[]') FROM message_tags WHERE message_seq = s.seq)
              <> (SELECT coalesce(json_group_array(value ORDER BY value), '[]') FROM json_each(?))`).get(wanted) as { n: number };
          this.sql('DELETE FROM message_tags WHERE message_seq IN (SELECT seq FROM temp.selected_seqs) AND tag NOT IN (SELECT value FROM json_each(?))').run(wanted);
          this.sql(`INSERT OR IGNORE INTO message_tags (message_seq, workspace_id, tag)
              SELECT s.seq, ?, j.value FROM temp.selected_seqs s, json_each(?) j`).run(workspaceId, wanted);
          return { affected: differing.n, deletedIds: [] };
        }
      }
    }).immediate();
  }

  existingIds(workspaceId: string, ids: string[]): Promise<Set<string>> {
    return guarded(() => new Set(this.sql('SELECT id FROM messages WHERE workspace_id = ? AND id IN (SELECT value FROM json_each(?))')
      .pluck().all(workspaceId, JSON.stringify(ids)) as string[]));
  }

  tagCounts(workspaceId: string, inboxId?: string): Promise<Map<string, number>> {
    return guarded(() => {
      const rows = (inboxId === undefined
        ? this.sql('SELECT tag, count(*) AS n FROM message_tags WHERE workspace_id = ? GROUP BY tag').all(workspaceId)
        : this.sql(`SELECT t.tag, count(*) AS n FROM message_tags t CROSS JOIN messages m ON m.seq = t.message_seq
            WHERE t.workspace_id = ? AND m.inbox_id = ? GROUP BY t.tag`).all(workspaceId, inboxId)) as { tag: string; n: number }[];
      return new Map(rows.map((row) => [row.tag, row.n]));
    });
  }

  renameTag(workspaceId: string, from: string, to: string): Promise<number> {
    if (from === to) return this.tagCounts(workspaceId).then((counts) => counts.get(from) ?? 0);
    return guarded(() => this.db.transaction(() => {
      const { changes } = this.sql(`INSERT OR IGNORE INTO message_tags (message_seq, workspace_id, tag)
          SELECT message_seq, workspace_id, ? FROM message_tags WHERE workspace_id = ? AND tag = ?`).run(to, workspaceId, from);
      const removed = this.sql('DELETE FROM message_tags WHERE workspace_id = ? AND tag = ?').run(workspaceId, from).changes;
      return Math.max(changes, removed);
    }).immediate());
  }
}
