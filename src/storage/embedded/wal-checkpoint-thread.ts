// Entry of the checkpoint thread (see wal-checkpointer.ts and README.md): one passive WAL checkpoint per task, on a
// connection of its own.
import { workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CheckpointOutcome, CheckpointSettings } from './wal-checkpointer.js';

const settings = workerData as CheckpointSettings;
const db = new Database(settings.file, { fileMustExist: true });
// A passive checkpoint waits for no writer; this only covers the brief lock of opening the WAL.
db.pragma('busy_timeout = 1000');
db.pragma(`journal_size_limit = ${settings.journalSizeLimit}`);

/** Whether the checkpoint copied the whole WAL back (a reader's snapshot can hold part of it), or why it failed. */
export default function checkpoint(): CheckpointOutcome {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    return { whole: result !== undefined && result.checkpointed >= result.log };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}
