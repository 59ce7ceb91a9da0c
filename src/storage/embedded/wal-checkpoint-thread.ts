// Entry of the checkpoint thread (see wal-checkpointer.ts and README.md): one passive WAL checkpoint per task, on a
// connection of its own.
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CheckpointSettings } from './wal-checkpointer.js';

const settings = workerData as CheckpointSettings;
const db = new Database(settings.file, { fileMustExist: true });
// A passive checkpoint waits for no writer; this only covers the brief lock of opening the WAL.
db.pragma('busy_timeout = 1000');
db.pragma(`journal_size_limit = ${settings.journalSizeLimit}`);

/** Resolves to why the checkpoint failed, or null. */
export default function checkpoint(): string | null {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
