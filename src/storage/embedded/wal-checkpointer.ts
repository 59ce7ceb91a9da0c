// Copies the WAL back into the database on a thread of its own, so checkpoints never block the event loop.
import { Worker } from 'node:worker_threads';
import { workerFile } from '../../worker-file.js';

/** How often the checkpoint thread runs a passive checkpoint; the WAL grows by at most what is written meanwhile. */
const CHECKPOINT_EVERY_MS = 250;

/**
 * SQLite checkpoints inside the commit that crosses its threshold, on the committing thread: with raw messages in
 * the WAL that would mean copying and fsyncing megabytes on the event loop now and then. The server's connection
 * turns automatic checkpoints off and this thread, with a connection of its own, runs passive checkpoints, which
 * never wait for or block a writer.
 */
export class WalCheckpointer {
  private readonly worker: Worker;

  constructor(file: string, onError: (message: string) => void) {
    this.worker = new Worker(workerFile(import.meta.url, 'wal-checkpoint-thread'), { workerData: { file, everyMs: CHECKPOINT_EVERY_MS } });
    this.worker.on('message', (message: string) => onError(`WAL checkpoint failed: ${message}`));
    this.worker.on('error', (error) => onError(`WAL checkpoint thread failed: ${error.message}`));
    // Housekeeping only: it must never keep a process alive that is otherwise done.
    this.worker.unref();
  }

  /** Stops the thread; the server's connection checkpoints what is left when it closes. */
  async close(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage('close');
    await exited;
  }
}
