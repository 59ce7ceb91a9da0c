// The SQLite migration that gives people an origin: accounts older builds made through invitations are found by the
// instant their invitation was accepted, the rest read as an operator's, and none as proved.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite } from '../../../src/storage/embedded/sqlite-database.js';
import { SqliteAccountStore } from '../../../src/storage/embedded/sqlite-account-store.js';
import { HEADER_SEARCH_MIGRATIONS_UNDONE, undoHeaderSearchMigration } from '../../support/sqlite-older-schema.js';

describe('SQLite people origins migration', () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-origins-'));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('marks the people accepted invitations made or set the password of, as older builds stored them', async () => {
    const latest = openSqlite(dataDir);
    const version = latest.pragma('user_version', { simple: true }) as number;
    latest.close();
    // Back to the schema before the migration, with what an older build wrote.
    const older = new Database(path.join(dataDir, 'sandbox.sqlite3'));
    for (const column of ['origin_kind', 'origin_workspace_id', 'origin_invitation_id', 'origin_invited_by', 'proved_at']) older.exec(`ALTER TABLE people DROP COLUMN ${column}`);
    // The header search migration (and the ones after it) came after it.
    undoHeaderSearchMigration(older);
    older.pragma(`user_version = ${version - 1 - HEADER_SEARCH_MIGRATIONS_UNDONE}`);
    const person = older.prepare('INSERT INTO people (id, email, password_hash, created_at, password_changed_at) VALUES (?, ?, ?, ?, ?)');
    const invitation = older.prepare(`INSERT INTO invitations (id, workspace_id, email, role, token_hash, invited_by, created_at, expires_at, accepted_at)
                                      VALUES (?, 'ws_evil', ?, 'member', ?, 'eve@evil.test', 100, 9999999, ?)`);
    person.run('psn_made', 'made@x.test', 'scrypt$a', 5000, 5000);
    invitation.run('inv_made', 'made@x.test', 'hash-1', 5000);
    person.run('psn_set', 'set@x.test', 'scrypt$b', 1000, 6000);
    invitation.run('inv_set', 'set@x.test', 'hash-2', 6000);
    person.run('psn_operator', 'operator@x.test', 'scrypt$c', 1000, 2000);
    invitation.run('inv_joined', 'operator@x.test', 'hash-3', 7000);
    older.close();

    const upgraded = openSqlite(dataDir);
    try {
      const accounts = new SqliteAccountStore(upgraded);
      assert.deepEqual((await accounts.findPersonByEmail('made@x.test'))?.origin, { kind: 'invitation', workspaceId: 'ws_evil', invitationId: 'inv_made', invitedBy: 'eve@evil.test' });
      assert.deepEqual((await accounts.findPersonByEmail('set@x.test'))?.origin, { kind: 'invitation', workspaceId: 'ws_evil', invitationId: 'inv_set', invitedBy: 'eve@evil.test' });
      assert.deepEqual((await accounts.findPersonByEmail('operator@x.test'))?.origin, { kind: 'operator' }, 'joining with an existing password made nothing');
      assert.equal((await accounts.findPersonByEmail('made@x.test'))?.provedAt, null);
    } finally {
      upgraded.close();
    }
  });
});
