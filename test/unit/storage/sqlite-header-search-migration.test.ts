// The SQLite migration for Mailpit's header operators: rows an older build wrote keep being found by what they hold,
// match none of the new fields until reindexed, and the trigram index it rebuilds serves old and new columns.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite } from '../../../src/storage/embedded/sqlite-database.js';
import { messageRowWriter } from '../../../src/storage/embedded/sqlite-message-rows.js';
import { trigramTail } from '../../../src/storage/embedded/sqlite-trigram-tail.js';
import { compileSql } from '../../../src/storage/embedded/compile-sql.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { searchFields } from '../../../src/domain/search-text.js';
import { noHeaderAddresses } from '../../../src/domain/mailbox-key.js';
import { aMessage } from '../../contract/fixtures.js';
import { HEADER_SEARCH_MIGRATIONS_UNDONE, undoHeaderSearchMigration } from '../../support/sqlite-older-schema.js';

describe('SQLite header search migration', () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-header-search-'));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps older rows findable by their old fields, and indexes new rows\' headers', () => {
    const latest = openSqlite(dataDir);
    const version = latest.pragma('user_version', { simple: true }) as number;
    latest.close();
    const older = new Database(path.join(dataDir, 'sandbox.sqlite3'));
    undoHeaderSearchMigration(older);
    older.pragma(`user_version = ${version - HEADER_SEARCH_MIGRATIONS_UNDONE}`);
    older.prepare(`INSERT INTO messages (id, workspace_id, inbox_id, received_at, envelope_from, recipients, from_header, to_header, cc_header, subject,
        message_id, size, has_text, has_html, attachment_count, link_count, tls, parse_error, read, raw_key, search_subject, search_sender, search_recipients, search_body)
      VALUES ('msg_old', 'ws_m', 'inb_m', 1000, 'a@x.test', '["bob@x.test"]', 'a@x.test', 'bob@x.test', '', 'Old invoice', '<old@x.test>', 10, 1, 0, 1, 0, 0, NULL, 0,
        'raw/old', 'old invoice', 'a@x.test', 'bob@x.test', 'pay now')`).run();
    older.exec(`INSERT INTO messages_fts (messages_fts) VALUES ('rebuild'); UPDATE trigram_progress SET indexed_to = (SELECT max(seq) FROM messages);`);
    older.close();

    const db = openSqlite(dataDir);
    try {
      const base = aMessage('ws_m', 'inb_m', { id: 'msg_new', subject: 'New invoice', to: 'Bob <bob@x.test>', messageId: '<new@x.test>', recipients: ['bob@x.test'], inlineCount: 1 });
      messageRowWriter(db)({ ...base, search: searchFields({ ...base, bcc: '', replyTo: 'Help <help@x.test>', headerAddresses: noHeaderAddresses() }, 'pay later') });
      trigramTail(db).indexBatch();
      const found = (query: string) => {
        const { where, params } = compileSql(parseQuery(query), { workspaceId: 'ws_m' });
        return (db.prepare(`SELECT m.id FROM messages m WHERE ${where} ORDER BY m.id`).pluck().all(...params) as string[]);
      };
      assert.deepEqual(found('invoice'), ['msg_new', 'msg_old']);
      assert.deepEqual(found('to:bob'), ['msg_new', 'msg_old'], 'to: reads the recipients both hold');
      assert.deepEqual(found('to-header:bob'), ['msg_new'], 'the older row holds no To field of its own until reindexed');
      assert.deepEqual(found('reply-to:help'), ['msg_new']);
      assert.deepEqual(found('message-id:new@x'), ['msg_new']);
      assert.deepEqual(found('has:inline'), ['msg_new']);
      assert.deepEqual(found('-has:inline'), ['msg_old']);
      const indexed = db.prepare(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH '{search_reply_to} : "hel"'`).pluck().all();
      assert.equal(indexed.length, 1, 'Reply-To has an index column of its own');
    } finally {
      db.close();
    }
  });
});
