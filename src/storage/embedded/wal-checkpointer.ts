// Copies the WAL back into the database on a thread of its own (wal-checkpoint-thread.ts), so checkpoints never
// block the event loop or a capture's commit; see README.md.
import { Worker } from 'node:worker_threads';
import { workerFile } from '../../worker-file.js';

/** How often the checkpoint thread runs a passive checkpoint; the WAL grows by at most what is written meanwhile. */
const CHECKPOINT_EVERY_MS = 250;

/** What the checkpoint thread is started with. */
export interface CheckpointSettings {
  file: string;
  /** Bytes the WAL is truncated back to after a checkpoint (journal_size_limit). */
  journalSizeLimit: number;
  everyMs: number;
}

/**
 * SQLite checkpoints inside the commit that crosses its threshold, on the committing thread: with raw messages in
 * the WAL that would mean copying and fsyncing megabytes inside a capture's commit now and then. Every other
 * connection turns automatic checkpoints off and this thread runs passive checkpoints, which never wait for or
 * block a writer.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, journalSizeLimit: number, onError: (message: string) => void) {
    const settings: CheckpointSettings = { file, journalSizeLimit, everyMs: CHECKPOINT_EVERY_MS };
    this.worker = new Worker(workerFile(import.meta.url, 'wal-checkpoint-thread'), { workerData: settings });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.on('message', (message: string) => onError(`WAL checkpoint failed: ${message}`));
    this.worker.on('error', (error) => onError(`WAL checkpoint thread failed: ${error.message}`));
    // Housekeeping only: it must never keep a process alive that is otherwise done.
    this.worker.unref();
  }

  /** Stops the thread; the server's connection checkpoints what is left when it closes. */
  async close(): Promise<void> {
    // Held open until it has let go of the database, which must happen before the server's connection closes.
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }
}
