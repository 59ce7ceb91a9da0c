// The trigram index is written behind the captures, in batches. Inserting each message's trigrams in its own small
// transaction cost the writer thread ~0.6 ms and ~47 KB of WAL a message; a batch of 64 costs ~0.15 ms and ~15 KB
// (fresh segments merge far less). Rows up to trigram_progress.indexed_to are in the index; the newer ones, the tail,
// are not, and every search checks them row by row (compile-sql.ts, sqlite-message-search.ts), so a message is
// found from the moment its capture commits. The tail is kept short: a batch behind, plus what arrives meanwhile.
import type { SqliteDatabase } from './sqlite-database.js';

/** SQL: the last row the trigram index holds. Rows after it (seq greater) are the tail, which searches scan. */
export const INDEXED_TO = '(SELECT indexed_to FROM trigram_progress)';
/** SQL: the seq of every row of the tail, candidates of every index query beside its hits. */
export const TAIL_SEQS = `SELECT seq FROM messages WHERE seq > ${INDEXED_TO}`;

/** Rows of the tail at which the writer indexes them at once; fewer wait for the writer to fall idle. */
export const TRIGRAM_BATCH = 64;
/**
 * What one indexing transaction takes at most: this many rows, and this much search text (one row, however large,
 * always), so it holds the write lock, and the captures of every workspace behind it, for a bounded time.
 */
const BATCH_ROWS = 256;
const BATCH_TEXT_CHARS = 512 * 1024;

export interface TrigramTail {
  /** Rows not yet indexed, counted from the seq numbers (an upper bound: deleted rows are counted too). */
  length(): number;
  /** Indexes the oldest rows of the tail, one batch, in the caller's transaction; the tail left afterwards. */
  indexBatch(): number;
}

export function trigramTail(db: SqliteDatabase): TrigramTail {
  const tailLength = db.prepare(`SELECT coalesce((SELECT max(seq) FROM messages), 0) - ${INDEXED_TO}`).pluck();
  const oldestRows = db.prepare(`SELECT seq, length(search_subject) + length(search_sender) + length(search_recipients) + length(search_body)
        + length(search_reply_to) + length(search_message_id) AS chars
      FROM messages WHERE seq > ${INDEXED_TO} ORDER BY seq LIMIT ${BATCH_ROWS}`);
  const insert = db.prepare(`INSERT INTO messages_fts (rowid, search_subject, search_sender, search_recipients, search_body, search_reply_to, search_message_id)
      SELECT seq, search_subject, search_sender, search_recipients, search_body, search_reply_to, search_message_id FROM messages WHERE seq > ${INDEXED_TO} AND seq <= ?`);
  const advance = db.prepare('UPDATE trigram_progress SET indexed_to = ?');
  const length = () => Math.max(0, tailLength.get() as number);
  return {
    length,
    indexBatch() {
      let end: number | null = null;
      let chars = 0;
      for (const row of oldestRows.iterate() as IterableIterator<{ seq: number; chars: number }>) {
        if (end !== null && chars + row.chars > BATCH_TEXT_CHARS) break;
        end = row.seq;
        chars += row.chars;
      }
      if (end === null) return 0;
      insert.run(end);
      advance.run(end);
      return length();
    },
  };
}
