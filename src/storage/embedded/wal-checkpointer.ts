// Copies the WAL back into the database on a thread of its own (wal-checkpoint-thread.ts), so checkpoints never
// block the event loop or a capture's commit; see README.md.
import fs from 'node:fs/promises';
import { Piscina } from 'piscina';
import { POOL_EXEC_ARGV, workerFile } from '../../worker-file.js';

/** How often the WAL is looked at; it grows by at most what is written meanwhile. */
const CHECKPOINT_EVERY_MS = 250;

/** What the checkpoint thread is started with. */
export interface CheckpointSettings {
  file: string;
  /** Bytes the WAL is truncated back to after a checkpoint (journal_size_limit). */
  journalSizeLimit: number;
}

/** One checkpoint: whether it copied the whole WAL back, or why it failed. */
export type CheckpointOutcome = { whole: boolean } | { failure: string };

/** The WAL file's size and modification time: what changes when anything is written to it. */
async function walStamp(file: string): Promise<string> {
  const stat = await fs.stat(`${file}-wal`, { bigint: true }).catch(() => null);
  return stat ? `${stat.size}:${stat.mtimeNs}` : 'none';
}

/**
 * SQLite checkpoints inside the commit that crosses its threshold, on the committing thread: with raw messages in
 * the WAL that would mean copying and fsyncing megabytes inside a capture's commit now and then. Every connection
 * that writes turns automatic checkpoints off and this thread runs passive checkpoints, which never wait for or
 * block a writer. A piscina pool of one, as the writer and the readers are, so the thread's entry is loaded as
 * theirs is (the TypeScript source under test, the compiled module from dist/). A checkpoint runs only when the WAL
 * changed since the last whole one, so an idle server checkpoints nothing and the thread stops (`idleMs`).
 */
export class WalCheckpointer {
  private readonly thread: Piscina<void, CheckpointOutcome>;
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  /** The WAL's stamp when the last whole checkpoint started, or null when the WAL may hold frames not copied back. */
  private settled: string | null = null;

  constructor(private readonly file: string, journalSizeLimit: number, idleMs: number, private readonly onError: (message: string) => void) {
    const settings: CheckpointSettings = { file, journalSizeLimit };
    this.thread = new Piscina({
      filename: workerFile(import.meta.url, 'wal-checkpoint-thread').href,
      execArgv: [...POOL_EXEC_ARGV],
      // Started by the first checkpoint, not here: a short-lived process (an admin command) that opens the database and
      // closes it at once need not start a thread; close() waits for a checkpoint under way, loading included.
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: idleMs,
      workerData: settings,
    });
    this.thread.on('error', (error: Error) => onError(`WAL checkpoint thread failed: ${error.message}`));
    this.timer = setInterval(() => {
      // One at a time: a checkpoint that takes longer than the period is not queued behind.
      this.running ??= this.checkpointIfWritten().catch((error: Error) => onError(`WAL checkpoint thread failed: ${error.message}`)).finally(() => {
        this.running = null;
      });
    }, CHECKPOINT_EVERY_MS);
    // Housekeeping only: it must never keep a process alive that is otherwise done.
    this.timer.unref();
  }

  /**
   * The stamp is taken before the checkpoint: a write during it changes the stamp, so the next look checkpoints
   * again, and so does the checkpoint's own truncation of the WAL, once.
   */
  private async checkpointIfWritten(): Promise<void> {
    const stamp = await walStamp(this.file);
    if (stamp === this.settled) return;
    const outcome = await this.thread.run();
    if ('failure' in outcome) {
      this.settled = null;
      this.onError(`WAL checkpoint failed: ${outcome.failure}`);
    } else {
      this.settled = outcome.whole ? stamp : null;
    }
  }

  /** 1 while the checkpoint thread runs, 0 once it has stopped for want of work. */
  threadCount(): number {
    return this.thread.threads.length;
  }

  /**
   * Stops the thread, which lets go of the database; that must happen before the server's connection closes, so
   * that connection, closing last, checkpoints what is left.
   */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
    await this.thread.destroy();
  }
}
