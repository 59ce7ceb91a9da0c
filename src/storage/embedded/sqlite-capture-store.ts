// CaptureStore on the embedded database: each group of captures (blobs, documents, quota counts and arrivals) is
// one transaction and one fdatasync on the writer thread (sqlite-writer-thread.ts), so the event loop only hands it
// over. How that is durable, and what each connection does: README.md.
import { Piscina } from 'piscina';
import { AppError, type ErrorCode } from '../../errors.js';
import { POOL_EXEC_ARGV, workerFile } from '../../worker-file.js';
import type { BlobEntry, CaptureStore, CapturedMessage, InsertOutcome } from '../ports.js';
import { guarded, statementCache, type SqliteDatabase } from './sqlite-database.js';
import { TRIGRAM_BATCH } from './sqlite-trigram-tail.js';

/** What the writer thread is started with. */
export interface WriterSettings {
  /** The database file, already migrated. */
  file: string;
  /** Arrivals kept per inbox (SANDBOX_STREAM_RESUME_LIMIT). */
  arrivalLogLength: number;
}

/**
 * A task for the writer thread: a durable write (a group of captures, or blobs kept beside a stored message), or
 * indexing the oldest rows the trigram index does not hold yet (sqlite-trigram-tail.ts).
 */
export type WriterTask = { kind: 'captures'; group: CapturedMessage[] } | { kind: 'blobs'; entries: BlobEntry[] } | { kind: 'index' };

/** An AppError as it crosses from the thread: cloning keeps no class. */
export interface SentFailure {
  code: ErrorCode;
  message: string;
  component: string | null;
}

export type SentOutcome = 'stored' | 'quota_reached' | SentFailure;

/**
 * One outcome per capture of the task (none for the others) and the rows the trigram index does not hold yet, or
 * the failure of the whole task.
 */
export type WriteReply = { outcomes: SentOutcome[]; unindexed: number } | { failure: SentFailure };

const WRITER_YOUNG_GENERATION_MB = 2;
/** A tail shorter than a batch is indexed once no capture has come for this long. */
const TRIGRAM_IDLE_MS = 250;

const received = (failure: SentFailure): AppError => new AppError(failure.code, failure.message, failure.component ? { component: failure.component } : {});

/**
 * The transaction (the trigram index insert above all) and the WAL's fdatasync were most of the event loop's work
 * per capture, and a 25 MB message's insert held it for tens of ms. On the writer thread they overlap the event
 * loop's SMTP and HTTP work instead. Group commit stays with the caller (one group in flight at a time). A pool of
 * one thread: piscina replaces it should it die. The quota the thread charges is read here, on the event loop's
 * connection, so one port owns it.
 */
export class SqliteCaptureStore implements CaptureStore {
  private readonly writer: Piscina<WriterTask, WriteReply>;
  private readonly sql: ReturnType<typeof statementCache>;
  /** The trigram batch being indexed, if one is. */
  private indexing: Promise<void> | null = null;
  private indexTimer: NodeJS.Timeout | null = null;
  private closed = false;

  /** `idleMs`: the thread stops after this long without a write; the next write starts it (SANDBOX_THREAD_IDLE_MS). */
  constructor(private readonly db: SqliteDatabase, settings: WriterSettings, idleMs: number) {
    this.sql = statementCache(db);
    this.writer = new Piscina({
      filename: workerFile(import.meta.url, 'sqlite-writer-thread').href,
      execArgv: [...POOL_EXEC_ARGV],
      // Started by the first write and kept while writes come; an idle server lets it go (its connection and page
      // cache with it), and the next write starts it again, which costs that write the thread's start (tens of ms).
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: idleMs,
      workerData: settings,
      // What it allocates (a group's clone, its outcomes) is short-lived; V8's default young generation would let
      // the thread hold tens of MB of it, as the content workers did before theirs was capped.
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB },
    });
    // A thread that dies between tasks is replaced by piscina; with no task to fail the error is noise.
    this.writer.on('error', () => undefined);
  }

  async storeAll(group: CapturedMessage[]): Promise<InsertOutcome[]> {
    const { outcomes } = await this.write({ kind: 'captures', group });
    return outcomes.map((outcome) => (typeof outcome === 'string' ? outcome : received(outcome)));
  }

  quotaUsed(workspaceId: string, period: string): Promise<number> {
    return guarded(() => (this.sql('SELECT used FROM quota_usage WHERE workspace_id = ? AND period = ?').pluck().get(workspaceId, period) as number | undefined) ?? 0);
  }

  /** BlobStore.putMany's writes (the parts kept beside a stored message): durable the same way, on the same thread. */
  async writeBlobs(entries: BlobEntry[]): Promise<void> {
    await this.write({ kind: 'blobs', entries });
  }

  /** A durable write; then the trigram index is brought up behind it. */
  private async write(task: WriterTask): Promise<{ outcomes: SentOutcome[] }> {
    const reply = await this.run(task);
    this.indexLater(reply.unindexed);
    return reply;
  }

  /**
   * A full batch of unindexed rows is indexed at once, a shorter tail once writes pause for TRIGRAM_IDLE_MS. One
   * batch at a time: the writer thread takes it between groups, so a group waits at most for one batch.
   */
  private indexLater(unindexed: number): void {
    if (unindexed === 0 || this.indexing || this.closed) return;
    if (unindexed < TRIGRAM_BATCH) {
      // A batch that starts meanwhile (indexBatch) or close() clears the timer, so when it fires none is running.
      this.indexTimer ??= setTimeout(() => this.indexBatch(), TRIGRAM_IDLE_MS).unref();
      return;
    }
    this.indexBatch();
  }

  private indexBatch(): void {
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = null;
    this.indexing = this.run({ kind: 'index' }).then(
      (reply) => {
        this.indexing = null;
        this.indexLater(reply.unindexed);
      },
      // A batch that failed stays in the tail, which searches still scan; the next write's reply tries again.
      () => {
        this.indexing = null;
      },
    );
  }

  private async run(task: WriterTask): Promise<{ outcomes: SentOutcome[]; unindexed: number }> {
    let reply: WriteReply;
    try {
      reply = await this.writer.run(task);
    } catch (error) {
      // The thread died with the task unanswered: it may or may not be committed. Senders hear a temporary
      // failure and retry; a message stored twice is never worse than one lost.
      throw new AppError('storage_unavailable', `embedded storage failed: the writer thread stopped (${(error as Error).message})`, { component: 'sqlite', cause: error });
    }
    if ('failure' in reply) throw received(reply.failure);
    return reply;
  }

  /** 1 while the writer thread runs, 0 once it has stopped for want of work. */
  threadCount(): number {
    return this.writer.threads.length;
  }

  /** Stops the thread; captures are drained before storage closes, so nothing is being written. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = null;
    // What is left unindexed stays in the tail; the next start's first write indexes it.
    await this.indexing;
    await this.writer.destroy();
  }
}
