// Takes a migrated test database back to the schema before the header search migration, as an older build left it,
// so a test of that migration (or of one before it) can run it again on rows such a build wrote. The migrations after
// it are undone too: HEADER_SEARCH_MIGRATIONS_UNDONE says how many user_version goes back.
import type { SqliteDatabase } from '../../src/storage/embedded/sqlite-database.js';

const OLD_COLUMNS = 'search_subject, search_sender, search_recipients, search_body';

/** The header search migration and the exact-address one after it. */
export const HEADER_SEARCH_MIGRATIONS_UNDONE = 2;

export function undoHeaderSearchMigration(db: SqliteDatabase): void {
  db.exec(`
    DROP TABLE message_addresses;
    DROP TRIGGER messages_fts_delete;
    DROP TABLE messages_fts;
    ALTER TABLE messages DROP COLUMN inline_count;
    ALTER TABLE messages DROP COLUMN search_to;
    ALTER TABLE messages DROP COLUMN search_cc;
    ALTER TABLE messages DROP COLUMN search_bcc;
    ALTER TABLE messages DROP COLUMN search_reply_to;
    ALTER TABLE messages DROP COLUMN search_message_id;
    CREATE VIRTUAL TABLE messages_fts USING fts5(${OLD_COLUMNS}, content='messages', content_rowid='seq', tokenize='trigram', detail='column');
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.seq <= (SELECT indexed_to FROM trigram_progress) BEGIN
      INSERT INTO messages_fts (messages_fts, rowid, ${OLD_COLUMNS})
      VALUES ('delete', old.seq, old.search_subject, old.search_sender, old.search_recipients, old.search_body);
    END;
  `);
}
