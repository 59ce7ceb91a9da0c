// The bounded worker pool for content work: every parse and analysis of a message's bytes runs here, off the
// event loop, with a time and a memory limit per task. A task that overruns has its worker terminated and
// replaced; the caller hears why and decides what to answer (capture stores the message anyway).
import { Piscina } from 'piscina';
import { AppError } from '../errors.js';
import type { Config } from '../config.js';
import { workerFile } from '../worker-file.js';
import type { ParsedEmail } from '../mime/parse-email.js';
import type { HeaderSummary } from '../mime/header-summary.js';
import type { AttachmentContent, MessageView } from '../domain/message-view.js';
import type { HtmlCheckOutcome, LinkedStylesheet } from '../domain/html-check.js';
import type { AnalyzeTagRules, ContentResults, ContentTask } from './content-tasks.js';

export interface ContentPoolOptions {
  /** Worker threads (SANDBOX_CONTENT_THREADS). */
  threads: number;
  /** Longest one task may run (SANDBOX_PARSE_TIMEOUT_MS); time spent queued does not count. */
  taskTimeoutMs: number;
  /** Heap limit of each worker (SANDBOX_PARSE_MEMORY_MB). */
  memoryMb: number;
}

/** Tasks waiting for a free worker before new ones are refused as busy (each holds a message's bytes). */
const MAX_QUEUED_TASKS = 1000;
/** How often running tasks are checked against the time limit; a task may overrun it by this much. */
const WATCHDOG_TICK_MS = 50;
/**
 * A parse's garbage is short-lived and small; V8's default young generation let each worker hold tens of MB of it.
 * Measured at 16 clients: server RSS after 4,000 captures 299 MB by default, 257 MB with 8, at the same rate.
 */
const WORKER_YOUNG_GENERATION_MB = 8;
/**
 * The workers run at a lower scheduling priority than the event loop (Linux nice, per thread). With as many
 * workers as cores, a hostile message's parse on every worker would otherwise take the event loop's share of the
 * CPU too, and every request would wait its turn behind the parse.
 */
const WORKER_NICE_INCREMENT = 10;
/** The header-only fallback reads a bounded prefix, so a far shorter limit is plenty. */
const FALLBACK_TIMEOUT_MS = 1000;

/** Every failure of a task is worded from here, so a stored parse_error tells a cut-short analysis apart. */
const FAILURE_PREFIX = 'analysis ';

/** Whether a stored parse_error says the message's analysis at capture was cut short by a limit or a crash. */
export const analysisCutShort = (parseError: string | null): boolean => parseError?.startsWith(FAILURE_PREFIX) ?? false;

/** Why a task produced no result. */
export class ContentTaskFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ContentTaskFailure';
  }
}

interface Watched {
  started: BigInt64Array;
  controller: AbortController;
  timeoutMs: number;
}

type TaskInput<K extends ContentTask['kind']> = Omit<Extract<ContentTask, { kind: K }>, 'raw' | 'started' | 'kind'>;

const WORKER_FILE = workerFile(import.meta.url, 'content-worker').href;

/** The pool as the configuration sizes it. */
export const contentPoolFor = (config: Pick<Config, 'contentThreads' | 'parseTimeoutMs' | 'parseMemoryMb'>): ContentPool =>
  new ContentPool({ threads: config.contentThreads, taskTimeoutMs: config.parseTimeoutMs, memoryMb: config.parseMemoryMb });

export class ContentPool {
  private readonly pool: Piscina<ContentTask, unknown>;
  private readonly running = new Set<Watched>();
  private watchdog: NodeJS.Timeout | null = null;

  constructor(private readonly options: ContentPoolOptions) {
    this.pool = new Piscina({
      filename: WORKER_FILE,
      minThreads: options.threads,
      maxThreads: options.threads,
      // Workers load the MIME stack once and stay warm; starting one costs far more than a typical parse.
      idleTimeout: Infinity,
      maxQueue: MAX_QUEUED_TASKS,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      niceIncrement: WORKER_NICE_INCREMENT,
    });
    // A worker that dies between tasks is replaced by piscina; the error has no task to fail and is noise here.
    this.pool.on('error', () => undefined);
  }

  /** Tasks running on a worker now, and tasks submitted but not yet started. */
  stats(): { running: number; waiting: number } {
    let running = 0;
    for (const watched of this.running) if (Atomics.load(watched.started, 0) !== 0n) running++;
    return { running, waiting: this.running.size - running };
  }

  /** The worker threads, for operators' tooling and for tests that terminate one from outside mid-task. */
  get threads(): readonly { threadId: number; terminate(): Promise<number> }[] {
    return this.pool.threads;
  }

  /**
   * The searchable fields of a message. Never fails for the message's sake: when the analysis overruns or crashes
   * its worker, the message keeps what a header-only read gives, and parseError says which limit stopped it.
   * Only a full queue refuses (server_busy: the sender retries).
   */
  async analyze(raw: Buffer, tagRules?: AnalyzeTagRules): Promise<ParsedEmail & Pick<ContentResults['analyze'], 'ruleTags'>> {
    try {
      return await this.run('analyze', raw, tagRules ? { tagRules } : {}, this.options.taskTimeoutMs);
    } catch (error) {
      if (!(error instanceof ContentTaskFailure)) throw error;
      const headers = await this.run('headers', raw, {}, FALLBACK_TIMEOUT_MS).catch((): HeaderSummary => ({ from: '', to: '', cc: '', subject: '', messageId: '' }));
      return {
        ...headers, hasText: false, hasHtml: false, attachmentCount: 0, linkCount: 0, textBody: '', htmlText: '',
        parseError: `${error.message}; parts may be missing (only the header fields From, To, Cc, Subject and Message-ID were read)`,
      };
    }
  }

  /** Bodies, headers, links and attachments as a reader sees them; a message whose analysis overruns shows none. */
  async view(raw: Buffer): Promise<MessageView | ContentTaskFailure> {
    return this.run('view', raw, {}, this.options.taskTimeoutMs).catch((error: unknown) => {
      if (error instanceof ContentTaskFailure) return error;
      throw error;
    });
  }

  async html(raw: Buffer): Promise<string | null> {
    return this.run('html', raw, {}, this.options.taskTimeoutMs).catch(unreadable);
  }

  async attachment(raw: Buffer, index: number): Promise<{ attachment: AttachmentContent | null; count: number }> {
    return this.run('attachment', raw, { index }, this.options.taskTimeoutMs).catch(unreadable);
  }

  /** The message as a page, its cid: images inlined. */
  async renderHtml(raw: Buffer): Promise<string> {
    return this.run('renderHtml', raw, {}, this.options.taskTimeoutMs).catch(unreadable);
  }

  /** The text part, or text made from the HTML. */
  async renderText(raw: Buffer): Promise<string> {
    return this.run('renderText', raw, {}, this.options.taskTimeoutMs).catch(unreadable);
  }

  /** The first `limit` of the URLs the link check requests, and how many unique ones the message has. */
  async checkableLinks(raw: Buffer, limit: number): Promise<{ links: string[]; found: number }> {
    return this.run('checkableLinks', raw, { limit }, this.options.taskTimeoutMs).catch(unreadable);
  }

  /**
   * The HTML check of a message. With `stylesheets` null the worker first looks for linked stylesheets and, when there
   * are any, answers with at most `stylesheetLimit` of them to fetch; asked again with their CSS, it checks.
   */
  async htmlCheck(raw: Buffer, stylesheets: LinkedStylesheet[] | null, stylesheetLimit: number): Promise<HtmlCheckOutcome> {
    return this.run('htmlCheck', raw, { stylesheets, stylesheetLimit }, this.options.taskTimeoutMs).catch(unreadable);
  }

  /** Stops every worker; tasks still running or queued fail. */
  async close(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    await this.pool.destroy();
  }

  private async run<K extends ContentTask['kind']>(kind: K, raw: Buffer, input: TaskInput<K>, timeoutMs: number): Promise<ContentResults[K]> {
    const watched: Watched = { started: new BigInt64Array(new SharedArrayBuffer(8)), controller: new AbortController(), timeoutMs };
    // Structured cloning copies a typed array's whole backing store; a Buffer sliced from a shared slab is copied
    // down to its own bytes first so only those travel.
    const bytes = raw.byteLength === raw.buffer.byteLength ? raw : new Uint8Array(raw);
    const task = { ...input, kind, raw: bytes, started: watched.started.buffer } as ContentTask;
    this.watch(watched);
    try {
      return (await this.pool.run(task, { signal: watched.controller.signal })) as ContentResults[K];
    } catch (error) {
      throw this.failure(error, watched);
    } finally {
      this.unwatch(watched);
    }
  }

  private failure(error: unknown, watched: Watched): Error {
    const message = (error as Error).message ?? String(error);
    if (message === 'Task queue is at limit') {
      return new AppError('server_busy', `the server is analysing ${MAX_QUEUED_TASKS} messages already; try again shortly`, { cause: error });
    }
    if (watched.controller.signal.aborted) {
      return new ContentTaskFailure(`${FAILURE_PREFIX}stopped after ${watched.timeoutMs / 1000} s (the limit per message)`, { cause: error });
    }
    if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ContentTaskFailure(`${FAILURE_PREFIX}ran out of its ${this.options.memoryMb} MB of memory (the limit per message)`, { cause: error });
    }
    return new ContentTaskFailure(`${FAILURE_PREFIX}failed: ${message}`, { cause: error });
  }

  private watch(watched: Watched): void {
    this.running.add(watched);
    this.watchdog ??= setInterval(() => this.enforceTimeLimits(), WATCHDOG_TICK_MS);
  }

  private unwatch(watched: Watched): void {
    this.running.delete(watched);
    if (this.running.size === 0 && this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = null;
    }
  }

  /** Aborting a running piscina task terminates its worker, which piscina then replaces. */
  private enforceTimeLimits(): void {
    const now = BigInt(Date.now());
    for (const watched of this.running) {
      const started = Atomics.load(watched.started, 0);
      if (started !== 0n && now - started >= BigInt(watched.timeoutMs)) watched.controller.abort();
    }
  }
}

/** A read whose analysis overran answers with the limit it hit rather than hold a worker longer. */
function unreadable(error: unknown): never {
  if (error instanceof ContentTaskFailure) throw new AppError('analysis_limit', `this message's content could not be read: ${error.message}`, { cause: error });
  throw error;
}
