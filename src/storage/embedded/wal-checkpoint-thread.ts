// Entry of the checkpoint thread (see wal-checkpointer.ts and README.md): passive WAL checkpoints on a timer, on a
// connection of its own.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CheckpointSettings } from './wal-checkpointer.js';

const settings = workerData as CheckpointSettings;
const port = parentPort!;
const db = new Database(settings.file);
// A passive checkpoint waits for no writer; this only covers the brief lock of opening the WAL.
db.pragma('busy_timeout = 1000');
db.pragma(`journal_size_limit = ${settings.journalSizeLimit}`);

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    port.postMessage(error instanceof Error ? error.message : String(error));
  }
}, settings.everyMs);

port.once('message', () => {
  clearInterval(timer);
  db.close();
  port.close();
});
