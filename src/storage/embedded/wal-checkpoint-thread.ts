// Entry of the WAL checkpoint thread (see wal-checkpointer.ts): a passive checkpoint every few hundred ms.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, everyMs } = workerData as { file: string; everyMs: number };
const db = new Database(file);
db.pragma('busy_timeout = 1000');
// Whichever connection resets the WAL after a checkpoint truncates it to this (see openSqlite).
db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort?.postMessage((error as Error).message);
  }
}, everyMs);
parentPort?.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
