// Entry of a reader thread (see sqlite-readers.ts; its connection among the others: README.md): runs one search on a
// read-only connection of its own.
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { translateSqliteError } from './sqlite-database.js';
import { SqliteMessageSearch } from './sqlite-message-search.js';
import type { ReaderReply, ReaderSettings, ReaderTask } from './sqlite-readers.js';

const settings = workerData as ReaderSettings;
const db = new Database(settings.file, { readonly: true, fileMustExist: true });
// A reader waits for a checkpoint's brief lock rather than fail the search.
db.pragma('busy_timeout = 5000');
const search = new SqliteMessageSearch(db, settings.search);

export default function runSearch(task: ReaderTask): ReaderReply {
  Atomics.store(new BigInt64Array(task.started), 0, BigInt(Date.now()));
  try {
    if (task.kind === 'list') return { page: search.list(task.workspaceId, task.inboxId, task.options) };
    if (task.kind === 'count') return { counts: search.count(task.workspaceId, task.inboxId, task.filter) };
    return { seqs: search.selectChunk(task.selection, task.afterSeq, task.limit) };
  } catch (error) {
    const appError = translateSqliteError(error);
    return { failure: { code: appError.code, message: appError.message, component: appError.component } };
  }
}
