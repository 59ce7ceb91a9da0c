// What the embedded adapter makes of better-sqlite3's errors: driver errors are built here, one real one is provoked.
import { strict as assert } from 'node:assert';
import Database from 'better-sqlite3';
import { AppError } from '../../../src/errors.js';
import { guarded, translateSqliteError } from '../../../src/storage/embedded/sqlite-database.js';

describe('translateSqliteError', () => {
  it('turns a constraint failure into already_exists, keeping the driver error as the cause only', () => {
    const driverError = new Database.SqliteError('UNIQUE constraint failed: inboxes.smtp_username', 'SQLITE_CONSTRAINT_UNIQUE');
    const error = translateSqliteError(driverError);
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'already_exists');
    assert.equal(error.message, 'already exists', 'the table and column stay inside');
    assert.equal(error.cause, driverError);
  });

  it('turns any other SQLite failure into storage_unavailable named by its code', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR_FSYNC', 'SQLITE_CORRUPT']) {
      const error = translateSqliteError(new Database.SqliteError('something went wrong', code));
      assert.equal(error.code, 'storage_unavailable', code);
      assert.equal(error.component, 'sqlite', 'counted against SQLite in the metrics');
      assert.equal(error.message, `embedded storage failed: ${code}`);
      assert.equal(error.expose, true);
    }
  });

  it('names a failure without a code (a file system error of the WAL sync) by its code or message', () => {
    const noSpace = Object.assign(new Error('ENOSPC: no space left on device, fdatasync'), { code: 'ENOSPC' });
    assert.equal(translateSqliteError(noSpace).message, 'embedded storage failed: ENOSPC');
    assert.equal(translateSqliteError(new Error('The database connection is not open')).message, 'embedded storage failed: The database connection is not open');
  });

  it('passes an AppError through unchanged', () => {
    const original = new AppError('not_found', 'no inbox');
    assert.equal(translateSqliteError(original), original);
  });

  it('translates what the real driver throws, through guarded', async () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
      const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
      await guarded(() => insert.run('a'));
      await assert.rejects(guarded(() => insert.run('a')), (error: unknown) => {
        assert.ok(error instanceof AppError && error.code === 'already_exists');
        assert.ok(error.cause instanceof Database.SqliteError && error.cause.code === 'SQLITE_CONSTRAINT_PRIMARYKEY');
        return true;
      });
      await assert.rejects(guarded(() => db.prepare('SELECT * FROM missing').all()), { code: 'storage_unavailable', message: 'embedded storage failed: SQLITE_ERROR' });
    } finally {
      db.close();
    }
  });
});
