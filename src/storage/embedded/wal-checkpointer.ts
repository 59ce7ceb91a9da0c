// Copies the WAL back into the database on a thread of its own, so checkpoints never block the event loop.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpoint thread runs a passive checkpoint; the WAL grows by at most what is written meanwhile. */
const CHECKPOINT_EVERY_MS = 250;

/**
 * The thread's whole program. It is this small and plain JavaScript, so it runs from a string: a file of its own
 * would need a build step of its own, and under test the TypeScript loader is not in place for a thread's entry.
 */
const CHECKPOINT_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
db.pragma('journal_size_limit = ' + workerData.journalSizeLimit);
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage(String(error && error.message || error));
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * SQLite checkpoints inside the commit that crosses its threshold, on the committing thread: with raw messages in
 * the WAL that would mean copying and fsyncing megabytes on the event loop now and then. The server's connection
 * turns automatic checkpoints off and this thread, with a connection of its own, runs passive checkpoints, which
 * never wait for or block a writer.
 */
export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(file: string, journalSizeLimit: number, onError: (message: string) => void) {
    this.worker = new Worker(CHECKPOINT_THREAD, {
      eval: true,
      workerData: { file, journalSizeLimit, everyMs: CHECKPOINT_EVERY_MS, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
    });
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
