// The embedded trigram index written behind the rows (sqlite-trigram-tail.ts): a row is found by every kind of search
// before its batch is indexed and after, once; deleting rows on either side of the mark leaves the index sound; a
// batch is bounded by rows and by text.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseQuery } from '../../../src/query/parse-query.js';
import { openSqlite, type SqliteDatabase } from '../../../src/storage/embedded/sqlite-database.js';
import { SqliteMessageSearch } from '../../../src/storage/embedded/sqlite-message-search.js';
import { messageRowWriter } from '../../../src/storage/embedded/sqlite-message-rows.js';
import { trigramTail, type TrigramTail } from '../../../src/storage/embedded/sqlite-trigram-tail.js';
import { aMessage } from '../../contract/fixtures.js';
import { noAddresses } from '../../../src/domain/mailbox-key.js';

describe('the embedded trigram index behind the rows', () => {
  let dir: string;
  let db: SqliteDatabase;
  let tail: TrigramTail;
  let search: SqliteMessageSearch;
  let write: ReturnType<typeof messageRowWriter>;
  const WORKSPACE = 'wsp_tail';
  const INBOX = 'inb_tail';

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trigram-tail-'));
    db = openSqlite(dir);
    tail = trigramTail(db);
    search = new SqliteMessageSearch(db);
    write = messageRowWriter(db);
  });
  afterEach(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  let written = 0;
  const store = (subjects: string[], body = 'a short body') => {
    db.transaction(() => {
      subjects.forEach((subject) => write(aMessage(WORKSPACE, INBOX, {
        subject, receivedAt: new Date(Date.UTC(2026, 0, 1) + 1000 * written++),
        search: { subject: subject.toLowerCase(), sender: 'app@example.com', recipients: 'user@example.com', body, to: 'user@example.com', cc: '', bcc: '', replyTo: '', messageId: '', addresses: noAddresses() },
      })));
    })();
  };
  const indexAll = () => {
    while (db.transaction(() => tail.indexBatch())() > 0);
  };
  const subjects = (q: string, scanLimit?: number) =>
    search.list(WORKSPACE, INBOX, { filter: parseQuery(q), limit: 50, after: null, ...(scanLimit ? { scanLimit } : {}) }).records.map((m) => m.subject);
  const selected = (q: string) => search.selectChunk({ workspaceId: WORKSPACE, inboxId: INBOX, filter: parseQuery(q) }, 0, 100).length;
  const indexSound = () => db.exec("INSERT INTO messages_fts (messages_fts) VALUES ('integrity-check')");
  const indexedRows = () => db.prepare("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH '\"ldo\"'").pluck().get() as number;

  it('finds rows the index does not hold yet, and each row once after it does', () => {
    store(['Seldom seen one', 'Chaff', 'Seldom seen two']);
    assert.equal(tail.length(), 3, 'a written row waits for its batch');
    assert.equal(indexedRows(), 0, 'nothing is indexed yet');
    // The rare-phrase plan starts from index hits, the selection filters with the index: both see the tail.
    assert.deepEqual(subjects('subject:"seldom seen"'), ['Seldom seen two', 'Seldom seen one']);
    assert.deepEqual(subjects('subject:"seldom seen"', 2), ['Seldom seen two', 'Seldom seen one']);
    assert.equal(selected('seldom'), 2);
    indexAll();
    assert.equal(tail.length(), 0);
    assert.equal(indexedRows(), 2, 'the batch indexed both rows holding the trigram');
    assert.deepEqual(subjects('subject:"seldom seen"'), ['Seldom seen two', 'Seldom seen one'], 'indexed rows are not also taken from the tail');
    assert.equal(selected('seldom'), 2);
    store(['Seldom seen three']);
    assert.deepEqual(subjects('subject:"seldom seen"'), ['Seldom seen three', 'Seldom seen two', 'Seldom seen one'], 'index hits and tail together');
    indexSound();
  });

  it('deletes rows on either side of the mark without unsettling the index', () => {
    store(['Seldom old', 'Plain old']);
    indexAll();
    store(['Seldom new', 'Plain new']);
    // One indexed row and one of the tail: the tail's has no entry to delete, and deleting one must not be tried.
    db.prepare("DELETE FROM messages WHERE subject IN ('Seldom old', 'Seldom new')").run();
    indexSound();
    assert.deepEqual(subjects('seldom'), []);
    indexAll();
    indexSound();
    assert.deepEqual(subjects('plain'), ['Plain new', 'Plain old']);
    assert.equal(indexedRows(), 0, 'the deleted rows left no entries behind');
  });

  it('indexes a batch of at most 256 rows and about 512K characters, one large row always', () => {
    store(Array.from({ length: 300 }, (_, n) => `row ${n}`));
    assert.equal(db.transaction(() => tail.indexBatch())(), 44, 'the first batch takes 256 rows');
    indexAll();
    const large = 'x'.repeat(300 * 1024);
    store(['large one', 'large two', 'large three'], large);
    assert.equal(db.transaction(() => tail.indexBatch())(), 2, 'two large rows pass the text bound: one goes');
    assert.equal(db.transaction(() => tail.indexBatch())(), 1);
    assert.equal(db.transaction(() => tail.indexBatch())(), 0);
    assert.deepEqual(subjects('"large t"'), ['large three', 'large two']);
    indexSound();
  });
});
