// CaptureStore on the embedded database: a whole group of captures, blobs and documents, in one transaction,
// written and fsynced on a thread of its own (capture-writer-thread.ts) so the event loop only hands it over.
import { Piscina } from 'piscina';
import { AppError, type ErrorCode } from '../../errors.js';
import { workerFile } from '../../worker-file.js';
import type { CaptureStore, CapturedMessage, InsertOutcome } from '../ports.js';

/** What the writer thread is started with. */
export interface CaptureWriterSettings {
  /** The database file, already migrated. */
  file: string;
  /** Arrivals kept per inbox (SANDBOX_STREAM_RESUME_LIMIT). */
  arrivalLogLength: number;
}

/** An AppError as it crosses from the thread: cloning keeps no class. */
export interface SentFailure {
  code: ErrorCode;
  message: string;
  component: string | null;
}

/** One outcome per message of the group, or the failure of the whole group. */
export type WriteReply = { outcomes: ('stored' | 'quota_reached' | SentFailure)[] } | { failure: SentFailure };

const WRITER_YOUNG_GENERATION_MB = 2;

const received = (failure: SentFailure): AppError => new AppError(failure.code, failure.message, failure.component ? { component: failure.component } : {});

/**
 * The transaction (the trigram index insert above all) and the WAL's fdatasync were most of the event loop's work
 * per capture, and a 25 MB message's insert held it for tens of ms. On the writer thread they overlap the event
 * loop's SMTP and HTTP work instead; the thread replaces the libuv hop the fdatasync took before, so a capture
 * crosses no more threads than it did. Group commit stays with the caller (one group in flight at a time), and a
 * group is one transaction and one fdatasync. A pool of one thread: piscina replaces it should it die.
 */
export class SqliteCaptureStore implements CaptureStore {
  private readonly writer: Piscina<CapturedMessage[], WriteReply>;

  constructor(settings: CaptureWriterSettings) {
    this.writer = new Piscina({
      filename: workerFile(import.meta.url, 'capture-writer-thread').href,
      minThreads: 1,
      maxThreads: 1,
      // Started now and kept: the first capture must not wait for the thread to load.
      idleTimeout: Infinity,
      workerData: settings,
      // What it allocates (a group's clone, its outcomes) is short-lived; V8's default young generation would let
      // the thread hold tens of MB of it, as the content workers did before theirs was capped.
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB },
    });
    // A thread that dies between groups is replaced by piscina; with no group to fail the error is noise.
    this.writer.on('error', () => undefined);
  }

  async storeAll(group: CapturedMessage[]): Promise<InsertOutcome[]> {
    let reply: WriteReply;
    try {
      reply = await this.writer.run(group);
    } catch (error) {
      // The thread died with the group unanswered: it may or may not be committed. The senders hear a temporary
      // failure and retry; a message stored twice is never worse than one lost.
      throw new AppError('storage_unavailable', `embedded storage failed: the capture writer stopped (${(error as Error).message})`, { component: 'sqlite', cause: error });
    }
    if ('failure' in reply) throw received(reply.failure);
    return reply.outcomes.map((outcome) => (typeof outcome === 'string' ? outcome : received(outcome)));
  }

  /** Stops the thread; captures are drained before storage closes, so no group is being written. */
  close(): Promise<void> {
    return this.writer.destroy();
  }
}
