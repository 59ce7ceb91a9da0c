// The reader threads of the embedded profile: every search whose cost a tenant chooses (list pages, waits' lookups,
// batch selections) runs on one of them, on a read-only connection, and is stopped when it overruns its time budget.
import { Piscina } from 'piscina';
import { AppError } from '../../errors.js';
import { queryTooExpensive } from '../../query/query-budget.js';
import { POOL_EXEC_ARGV, workerFile } from '../../worker-file.js';
import { SearchTurns } from '../search-turns.js';
import type { InboxCounts, MessageListOptions, MessagePage, MessageSelection } from '../ports.js';
import type { QueryNode } from '../../query/ast.js';
import type { SentFailure } from './sqlite-capture-store.js';
import type { SqliteMessageSearchOptions } from './sqlite-message-search.js';

/** What each reader thread is started with. */
export interface ReaderSettings {
  /** The database file, already migrated. */
  file: string;
  search: SqliteMessageSearchOptions;
}

type ReaderSearch =
  | { kind: 'list'; workspaceId: string; inboxId: string; options: MessageListOptions }
  | { kind: 'select'; selection: MessageSelection; afterSeq: number; limit: number }
  | { kind: 'count'; workspaceId: string; inboxId: string; filter: QueryNode };

/**
 * One search, as it crosses to a reader thread; `started` is one BigInt64 where the thread writes when it began (ms
 * since the epoch), so the budget counts running time, not queueing.
 */
export type ReaderTask = ReaderSearch & { started: SharedArrayBuffer };

/** A search's answer, or its failure as it crosses back (cloning keeps no class). */
export type ReaderReply = { page: MessagePage } | { seqs: number[] } | { counts: InboxCounts } | { failure: SentFailure };

export interface SqliteReadersOptions {
  /** Reader threads (SANDBOX_QUERY_THREADS). */
  threads: number;
  /** A thread stops after this long without a search; the next search starts one (SANDBOX_THREAD_IDLE_MS). */
  idleMs: number;
  /** Longest one search may run (SANDBOX_QUERY_TIMEOUT_MS); time spent queued does not count. */
  timeoutMs: number;
  /** Searches one workspace may have waiting for a thread (SANDBOX_QUERY_QUEUE_PER_WORKSPACE). */
  queuePerWorkspace: number;
}

/** Searches waiting over every workspace before new ones are refused as busy. */
const MAX_QUEUED_SEARCHES = 1000;
/** A search's rows are short-lived; V8's default young generation would let each thread hold tens of MB of them. */
const READER_YOUNG_GENERATION_MB = 8;
/** Below the event loop's priority, as the content workers are: a hostile search must not take the loop's CPU share. */
const READER_NICE_INCREMENT = 10;

const received = (failure: SentFailure): AppError => new AppError(failure.code, failure.message, failure.component ? { component: failure.component } : {});

/**
 * better-sqlite3 cannot interrupt a statement, so a search that overruns has its thread terminated (piscina starts
 * another). Threads are shared fairly: a workspace runs at most all threads but one at a time (one when there are
 * one or two), so another workspace's search always finds a thread within one budget at worst, and waiting searches
 * start in turns between workspaces.
 */
export class SqliteReaders {
  private readonly pool: Piscina<ReaderTask, ReaderReply>;
  private readonly turns: SearchTurns;

  constructor(settings: ReaderSettings, private readonly options: SqliteReadersOptions) {
    this.pool = new Piscina({
      filename: workerFile(import.meta.url, 'sqlite-reader-thread').href,
      execArgv: [...POOL_EXEC_ARGV],
      // Started by the first search and kept while searches come; the time a thread takes to start does not count
      // against a search's budget (the budget starts when the thread takes the search).
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: options.idleMs,
      workerData: settings,
      resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
      niceIncrement: READER_NICE_INCREMENT,
    });
    // A thread terminated for its budget is replaced by piscina; the error belongs to the search, answered already.
    this.pool.on('error', () => undefined);
    this.turns = new SearchTurns({
      concurrency: options.threads,
      perWorkspace: Math.max(1, options.threads - 1),
      queuePerWorkspace: options.queuePerWorkspace,
      queueLimit: MAX_QUEUED_SEARCHES,
    });
  }

  async list(workspaceId: string, inboxId: string, options: MessageListOptions): Promise<MessagePage> {
    const reply = await this.run(workspaceId, { kind: 'list', workspaceId, inboxId, options });
    if (!('page' in reply)) throw new AppError('internal_error', 'a reader thread answered a list with something else');
    return reply.page;
  }

  /** The next `limit` selected rows after `afterSeq`, in row order. */
  async selectChunk(selection: MessageSelection, afterSeq: number, limit: number): Promise<number[]> {
    const reply = await this.run(selection.workspaceId, { kind: 'select', selection, afterSeq, limit });
    if (!('seqs' in reply)) throw new AppError('internal_error', 'a reader thread answered a selection with something else');
    return reply.seqs;
  }

  async count(workspaceId: string, inboxId: string, filter: QueryNode): Promise<InboxCounts> {
    const reply = await this.run(workspaceId, { kind: 'count', workspaceId, inboxId, filter });
    if (!('counts' in reply)) throw new AppError('internal_error', 'a reader thread answered a count with something else');
    return reply.counts;
  }

  /** Reader threads running now. */
  threadCount(): number {
    return this.pool.threads.length;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }

  /** Runs the search on a reader thread once it is its workspace's turn; refuses at once when it may not wait. */
  private run(workspaceId: string, search: ReaderSearch): Promise<Exclude<ReaderReply, { failure: SentFailure }>> {
    return this.turns.run(workspaceId, () => this.runOnThread(search));
  }

  private async runOnThread(search: ReaderSearch): Promise<Exclude<ReaderReply, { failure: SentFailure }>> {
    const started = new BigInt64Array(new SharedArrayBuffer(8));
    const controller = new AbortController();
    let timer: NodeJS.Timeout;
    // Armed for the whole budget, then again for what is left once the thread has said when it started.
    const watch = (delayMs: number) => {
      timer = setTimeout(() => {
        const startedAt = Number(Atomics.load(started, 0));
        const left = startedAt === 0 ? this.options.timeoutMs : startedAt + this.options.timeoutMs - Date.now();
        if (startedAt !== 0 && left <= 0) controller.abort();
        else watch(left);
      }, delayMs);
    };
    watch(this.options.timeoutMs);
    let reply: ReaderReply;
    try {
      reply = await this.pool.run({ ...search, started: started.buffer }, { signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) throw queryTooExpensive(this.options.timeoutMs);
      throw new AppError('storage_unavailable', `embedded storage failed: a reader thread stopped (${(error as Error).message})`, { component: 'sqlite', cause: error });
    } finally {
      clearTimeout(timer!);
    }
    if ('failure' in reply) throw received(reply.failure);
    return reply;
  }
}
