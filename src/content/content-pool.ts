// The bounded worker pool for content work: every parse and analysis of a message's bytes runs here, off the
// event loop, with a time and a memory limit per task. A task that overruns has its worker terminated and
// replaced; the caller hears why and decides what to answer (capture stores the message anyway).
// Tasks are let onto the workers by workspace, in two lanes: captures, which may use every worker, and reads, which
// leave one free for captures and take turns between workspaces, each workspace with a cap of its own. Large
// captures leave one free for small ones, so everyday mail never waits behind another tenant's 20 MB messages; large
// reads have a worker of their own beside them, so a detail read never waits behind another tenant's 10 MB parse.
// Thumbnails are made in processes of their own, under a memory limit, a few at once (see thumbnail-processes.ts).
import { Piscina } from 'piscina';
import { AppError } from '../errors.js';
import type { Config } from '../config.js';
import { POOL_EXEC_ARGV, workerFile } from '../worker-file.js';
import { FairGate, GateRefusal } from '../domain/fair-gate.js';
import type { HeaderSummary } from '../mime/header-summary.js';
import { noHeaderAddresses } from '../domain/mailbox-key.js';
import type { AttachmentContent, MessageParts, MessageView } from '../domain/message-view.js';
import type { ComposedBody, SendDialect } from '../mime/compose-message.js';
import { cutShortSentence } from '../domain/analysis-outcome.js';
import type { AnalyzeTagRules, ContentResults, ContentStep, ContentTask, ThumbnailOutcome, WarmTask } from './content-tasks.js';
import { NOT_A_RASTER_IMAGE, rasterFormatOf } from './raster-format.js';
import { ThumbnailProcesses } from './thumbnail-processes.js';

export interface ContentPoolOptions {
  /** Worker threads (SANDBOX_CONTENT_THREADS). */
  threads: number;
  /** A worker stops after this long without a task; the next task starts one (SANDBOX_THREAD_IDLE_MS). */
  idleMs: number;
  /** Longest one task may run (SANDBOX_PARSE_TIMEOUT_MS); time spent queued does not count. */
  taskTimeoutMs: number;
  /** Heap limit of each worker (SANDBOX_PARSE_MEMORY_MB). */
  memoryMb: number;
  /** Reads (every task but a capture's) one workspace may have running and waiting (SANDBOX_CONTENT_READS_PER_WORKSPACE). */
  readsPerWorkspace: number;
  /** Largest image, in pixels, a thumbnail is made of (SANDBOX_THUMBNAIL_MAX_PIXELS). */
  thumbnailMaxPixels: number;
  /** Thumbnails made at once, over every workspace (SANDBOX_THUMBNAIL_CONCURRENCY). */
  thumbnailConcurrency: number;
  /** Memory limit of each thumbnail's process, in MB (SANDBOX_THUMBNAIL_MEMORY_MB). */
  thumbnailMemoryMb: number;
}

/** Captures, and reads, waiting for a free worker before new ones are refused as busy (each holds a message's bytes). */
const MAX_QUEUED_TASKS = 1000;
/**
 * A message this large takes a parse of a second or more: its capture goes through the large-capture gate first, and
 * its reads through the large-read lane rather than the one small reads take.
 */
const LARGE_MESSAGE_BYTES = 1024 * 1024;
/** Workers for large reads, beside the threads setting's. */
const LARGE_READ_WORKERS = 1;
/** Longest edge of a thumbnail, in pixels. */
const THUMBNAIL_EDGE = 240;
/** The lanes: a capture goes through the capture lane, anything else through the read lane. */
type Lane = 'capture' | 'read';
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

/** Why a task produced no result. */
export class ContentTaskFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ContentTaskFailure';
  }
}

/** A read refused because its workspace has its share of the read lane already (429 rate_limited). */
export class ReadShareFull extends AppError {
  constructor(readsPerWorkspace: number) {
    super('rate_limited', `this workspace has ${readsPerWorkspace} content reads running or waiting already (SANDBOX_CONTENT_READS_PER_WORKSPACE); retry after 1s`, {
      headers: { 'Retry-After': '1' },
    });
  }
}

interface Watched {
  started: BigInt64Array;
  controller: AbortController;
  timeoutMs: number;
}

type TaskInput<K extends ContentTask['kind']> = Omit<Extract<ContentTask, { kind: K }>, 'raw' | 'started' | 'kind'>;

/**
 * A message's bytes, or its size and how to read them: a read given the way is let in first and reads them then, so
 * the reads waiting their turn hold no message in memory and the bytes are read at the pace the lane lets reads in.
 * The size picks the lane.
 */
export type MessageBytes = Buffer | { size: number; read: () => Promise<Buffer> };

const sizeOf = (raw: MessageBytes): number => (Buffer.isBuffer(raw) ? raw.byteLength : raw.size);

const WORKER_FILE = workerFile(import.meta.url, 'content-worker').href;

/** The pool as the configuration sizes it. */
export const contentPoolFor = (
  config: Pick<Config, 'contentThreads' | 'threadIdleMs' | 'parseTimeoutMs' | 'parseMemoryMb' | 'contentReadsPerWorkspace' | 'thumbnailMaxPixels' | 'thumbnailConcurrency' | 'thumbnailMemoryMb'>,
): ContentPool =>
  new ContentPool({
    threads: config.contentThreads,
    idleMs: config.threadIdleMs,
    taskTimeoutMs: config.parseTimeoutMs,
    memoryMb: config.parseMemoryMb,
    readsPerWorkspace: config.contentReadsPerWorkspace,
    thumbnailMaxPixels: config.thumbnailMaxPixels,
    thumbnailConcurrency: config.thumbnailConcurrency,
    thumbnailMemoryMb: config.thumbnailMemoryMb,
  });

export class ContentPool {
  private readonly pool: Piscina<ContentTask | WarmTask, unknown>;
  private readonly running = new Set<Watched>();
  /** A worker is being started ahead of need (keepSpareWorker). */
  private warming = false;
  private watchdog: NodeJS.Timeout | null = null;
  /** Captures may use every worker; they take turns between workspaces, without a cap per workspace. */
  private readonly captures: FairGate;
  /**
   * Reads leave one worker to captures (when there are two or more), so a capture waits behind captures only, however
   * slow the reads; they take turns between workspaces, each with its cap of reads running and waiting.
   */
  private readonly reads: FairGate;
  /**
   * Reads of large messages (LARGE_MESSAGE_BYTES) take turns on workers of their own, one more than the threads
   * setting: a first parse of a 10 MB message holds a worker for a second or more, and a small read let in beside it
   * finds a worker free rather than waiting for that parse. The same cap per workspace as small reads.
   */
  private readonly largeReads: FairGate;
  /**
   * Large captures leave one worker to small ones (when there are two or more), and take turns between workspaces:
   * a burst of large messages costs its sender time, not every other sender's, and only so many are parsed at once.
   */
  private readonly largeCaptures: FairGate;
  /**
   * Decoding images is the costliest read there is: only this many at once, over every workspace. A thumbnail holds
   * its place until its process has exited, killed or not, so no more than this many processes' memory is ever held.
   */
  private readonly thumbnails: FairGate;
  private readonly thumbnailProcesses = new ThumbnailProcesses();
  /** Tasks handed to a worker (or, for thumbnails, a process) since the start, by kind, for operators' metrics. */
  private readonly startedByKind = new Map<ContentTask['kind'] | 'thumbnail', number>();

  constructor(private readonly options: ContentPoolOptions) {
    this.captures = new FairGate({ concurrency: options.threads, queueLimit: MAX_QUEUED_TASKS, perKeyLimit: MAX_QUEUED_TASKS + options.threads });
    const readWorkers = Math.max(1, options.threads - 1);
    this.largeCaptures = new FairGate({ concurrency: readWorkers, queueLimit: MAX_QUEUED_TASKS, perKeyLimit: MAX_QUEUED_TASKS });
    this.reads = new FairGate({ concurrency: readWorkers, queueLimit: MAX_QUEUED_TASKS, perKeyLimit: options.readsPerWorkspace });
    this.largeReads = new FairGate({ concurrency: LARGE_READ_WORKERS, queueLimit: MAX_QUEUED_TASKS, perKeyLimit: options.readsPerWorkspace });
    this.thumbnails = new FairGate({ concurrency: options.thumbnailConcurrency, queueLimit: MAX_QUEUED_TASKS, perKeyLimit: options.readsPerWorkspace });
    this.pool = new Piscina({
      filename: WORKER_FILE,
      execArgv: [...POOL_EXEC_ARGV],
      // Started by the first task and kept while tasks come: starting one (loading the MIME stack) costs far more than
      // a typical parse. An idle server lets them go, and their memory (about 25 MB each) with them.
      minThreads: 0,
      maxThreads: options.threads + LARGE_READ_WORKERS,
      idleTimeout: options.idleMs,
      // The lanes above hold what waits; piscina's own queue holds at most the reads let in while captures fill it.
      maxQueue: options.threads + readWorkers + LARGE_READ_WORKERS,
      resourceLimits: { maxOldGenerationSizeMb: options.memoryMb, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      niceIncrement: WORKER_NICE_INCREMENT,
    });
    // A worker that dies between tasks is replaced by piscina; the error has no task to fail and is noise here.
    this.pool.on('error', () => undefined);
  }

  /**
   * Tasks running on a worker or in a thumbnail process now (a killed process until it is gone), and tasks submitted
   * but not yet started (in a lane or on piscina's queue).
   */
  stats(): { running: number; waiting: number } {
    let running = 0;
    for (const watched of this.running) if (Atomics.load(watched.started, 0) !== 0n) running++;
    const queued = [this.captures, this.largeCaptures, this.reads, this.largeReads, this.thumbnails].reduce((sum, gate) => sum + gate.stats().waiting, 0);
    return { running: running + this.thumbnailProcesses.running, waiting: this.running.size - running + queued };
  }

  /** Tasks handed to a worker (or a thumbnail process) since the start, by kind. */
  tasksStarted(): ReadonlyMap<string, number> {
    return this.startedByKind;
  }

  /** The worker threads, for operators' tooling and for tests that terminate one from outside mid-task. */
  get threads(): readonly { threadId: number; terminate(): Promise<number> }[] {
    return this.pool.threads;
  }

  /**
   * The searchable fields of a message. Never fails for the message's sake: when the analysis overruns or crashes
   * its worker, the message keeps what a header-only read gives, analysisCutShort is set and parseError says which
   * limit stopped it.
   * Only a full queue refuses (server_busy: the sender retries).
   */
  async analyze(workspaceId: string, raw: Buffer, tagRules?: AnalyzeTagRules): Promise<ContentResults['analyze']> {
    try {
      const analysis = () => this.run('capture', workspaceId, 'analyze', raw, tagRules ? { tagRules } : {}, this.options.taskTimeoutMs);
      return await (raw.byteLength >= LARGE_MESSAGE_BYTES ? this.admit(this.largeCaptures, workspaceId, analysis) : analysis());
    } catch (error) {
      if (!(error instanceof ContentTaskFailure)) throw error;
      const headers = await this.run('capture', workspaceId, 'headers', raw, {}, FALLBACK_TIMEOUT_MS)
        .catch((): HeaderSummary => ({ from: '', to: '', cc: '', bcc: '', replyTo: '', subject: '', messageId: '', headerAddresses: noHeaderAddresses() }));
      return {
        ...headers, hasText: false, hasHtml: false, attachmentCount: 0, inlineCount: 0, linkCount: 0, searchBody: '', snippet: '', codes: [], linkDetails: [],
        parseError: `${error.message}; parts may be missing (only the header fields From, To, Cc, Bcc, Reply-To, Subject and Message-ID were read)`,
        analysisCutShort: true,
      };
    }
  }

  /**
   * A send request's message, composed from its JSON body (see compose-message.ts). It is a capture: it goes through
   * the capture lane, and a body that overruns the limits is refused as unreadable.
   */
  async composeMessage(workspaceId: string, body: Buffer, dialect: SendDialect = 'sandbox'): Promise<ComposedBody> {
    return this.run('capture', workspaceId, 'composeMessage', body, { dialect }, this.options.taskTimeoutMs).catch((error: unknown) => {
      if (error instanceof ContentTaskFailure) throw new AppError('analysis_limit', `the send body could not be read: ${error.message}`, { cause: error });
      throw error;
    });
  }

  /** Bodies, headers, links and attachments as a reader sees them, within the view's limits; or why the message has none. */
  async view(workspaceId: string, raw: MessageBytes): Promise<MessageView | ContentTaskFailure> {
    return this.run('read', workspaceId, 'view', raw, {}, this.options.taskTimeoutMs).catch((error: unknown) => {
      if (error instanceof ContentTaskFailure) return error;
      throw error;
    });
  }

  async html(workspaceId: string, raw: MessageBytes): Promise<string | null> {
    return this.run('read', workspaceId, 'html', raw, {}, this.options.taskTimeoutMs).catch(unreadable);
  }

  async attachment(workspaceId: string, raw: MessageBytes, index: number): Promise<{ attachment: AttachmentContent | null; count: number }> {
    return this.run('read', workspaceId, 'attachment', raw, { index }, this.options.taskTimeoutMs).catch(unreadable);
  }

  /** The HTML body and every attachment, from one parse, to be kept. */
  async parts(workspaceId: string, raw: MessageBytes): Promise<MessageParts> {
    return this.run('read', workspaceId, 'parts', raw, {}, this.options.taskTimeoutMs).catch(unreadable);
  }

  /**
   * A PNG of at most 240 pixels on either side, made of an image's bytes, or why there is none. Only PNG, JPEG, GIF and
   * WebP, by the bytes' own signature, are decoded: anything else is refused here, without a process. At most
   * thumbnailConcurrency are made at once, each in a process within the memory, time and pixel limits. A thumbnail
   * holds no worker, so it takes turns in a lane of its own, with the same cap per workspace as reads: a decode running
   * for seconds never keeps another tenant's detail read from the read lane's worker.
   */
  async thumbnail(workspaceId: string, image: Buffer): Promise<ThumbnailOutcome> {
    if (!rasterFormatOf(image)) return { refused: NOT_A_RASTER_IMAGE };
    const limits = {
      edge: THUMBNAIL_EDGE,
      maxPixels: this.options.thumbnailMaxPixels,
      memoryMb: this.options.thumbnailMemoryMb,
      timeoutMs: this.options.taskTimeoutMs,
      timeoutSeconds: Math.max(1, Math.floor(this.options.taskTimeoutMs / 1000)),
    };
    return this.admit(this.thumbnails, workspaceId, () => {
      this.startedByKind.set('thumbnail', (this.startedByKind.get('thumbnail') ?? 0) + 1);
      return this.thumbnailProcesses.make(image, limits);
    });
  }

  /** The message as a page, its cid: images inlined. */
  async renderHtml(workspaceId: string, raw: MessageBytes): Promise<string> {
    return this.run('read', workspaceId, 'renderHtml', raw, {}, this.options.taskTimeoutMs).catch(unreadable);
  }

  /** The text part, or text made from the HTML. */
  async renderText(workspaceId: string, raw: MessageBytes): Promise<string> {
    return this.run('read', workspaceId, 'renderText', raw, {}, this.options.taskTimeoutMs).catch(unreadable);
  }

  /** A message check's step on the message's bytes, a read like any other, within the limits per task. */
  async checkStep<Args extends unknown[], Output>(workspaceId: string, raw: Buffer, step: ContentStep<Args, Output>, ...args: Args): Promise<Output> {
    const input = { module: step.module, exportName: step.exportName, args };
    // The step's own signature says what its function answers; the worker cannot know it.
    return this.run('read', workspaceId, 'checkStep', raw, input, this.options.taskTimeoutMs).catch(unreadable) as Promise<Output>;
  }

  /**
   * Resolves once the workspace has room in the read lane of a message of `size` bytes: a read asked for then is let
   * in, unless the workspace's other reads take the room first (it is refused with ReadShareFull, and the caller waits
   * for room again).
   */
  readRoom(workspaceId: string, size: number, signal?: AbortSignal): Promise<void> {
    return this.readGate(size).whenRoom(workspaceId, signal);
  }

  /** Stops every worker and thumbnail process; tasks still running or queued fail. */
  async close(): Promise<void> {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    await Promise.all([this.pool.destroy(), this.thumbnailProcesses.close()]);
  }

  /** Runs the task in its lane, once it is its workspace's turn there and the lane has a worker for it. */
  private run<K extends ContentTask['kind']>(lane: Lane, workspaceId: string, kind: K, raw: MessageBytes, input: TaskInput<K>, timeoutMs: number): Promise<ContentResults[K]> {
    return this.admit(lane === 'capture' ? this.captures : this.readGate(sizeOf(raw)), workspaceId, async () =>
      this.runOnWorker(kind, Buffer.isBuffer(raw) ? raw : await raw.read(), input, timeoutMs));
  }

  private readGate(size: number): FairGate {
    return size >= LARGE_MESSAGE_BYTES ? this.largeReads : this.reads;
  }

  /** Words a lane's refusal: a workspace past its own cap is told to slow down, a full lane that the server is busy. */
  private async admit<T>(gate: FairGate, workspaceId: string, task: () => Promise<T>): Promise<T> {
    try {
      return await gate.run(workspaceId, task);
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      if (error.reason === 'key_full') throw new ReadShareFull(this.options.readsPerWorkspace);
      const what = gate === this.captures || gate === this.largeCaptures ? 'messages' : gate === this.thumbnails ? 'thumbnails' : 'content reads';
      throw new AppError('server_busy', `the server has ${MAX_QUEUED_TASKS} ${what} waiting already; retry after 1s`, { headers: { 'Retry-After': '1' } });
    }
  }

  private async runOnWorker<K extends ContentTask['kind']>(kind: K, raw: Buffer, input: TaskInput<K>, timeoutMs: number): Promise<ContentResults[K]> {
    this.startedByKind.set(kind, (this.startedByKind.get(kind) ?? 0) + 1);
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
    if (watched.controller.signal.aborted) {
      return new ContentTaskFailure(cutShortSentence(`stopped after ${watched.timeoutMs / 1000} s (the limit per message)`), { cause: error });
    }
    if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new ContentTaskFailure(cutShortSentence(`ran out of its ${this.options.memoryMb} MB of memory (the limit per message)`), { cause: error });
    }
    return new ContentTaskFailure(cutShortSentence(`failed: ${message}`), { cause: error });
  }

  private watch(watched: Watched): void {
    this.running.add(watched);
    this.watchdog ??= setInterval(() => this.enforceTimeLimits(), WATCHDOG_TICK_MS);
    this.keepSpareWorker();
  }

  /**
   * Starts a worker ahead of need once every started one has a task: a worker's start (it loads the MIME stack) takes
   * half a second or more on a busy machine, and the next task, a small read of one tenant behind another tenant's
   * captures say, would wait that out. Idle workers still stop after SANDBOX_THREAD_IDLE_MS.
   */
  private keepSpareWorker(): void {
    if (this.warming || this.running.size < this.pool.threads.length || this.pool.threads.length >= this.pool.options.maxThreads) return;
    this.warming = true;
    void this.pool.run({ kind: 'warm' }).catch(() => undefined).finally(() => {
      this.warming = false;
    });
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

/** A function of a message's bytes, as a content step may name one. */
type StepFunction = (raw: Buffer, ...args: never[]) => unknown;

/**
 * Names the function `exportName` of the module at `path` (relative to the caller's module, without an extension) as a
 * step for the content workers; `F` is its type (`typeof` of a type-only import, so the event loop never loads it).
 */
export const contentStep = <F extends StepFunction>(callerUrl: string, path: string, exportName: string): ContentStep<StepArgs<F>, Awaited<ReturnType<F>>> =>
  ({ module: workerFile(callerUrl, path).href, exportName });

type StepArgs<F> = F extends (raw: Buffer, ...args: infer Args) => unknown ? Args : never;

/** A read whose analysis overran answers with the limit it hit rather than hold a worker longer. */
function unreadable(error: unknown): never {
  if (error instanceof ContentTaskFailure) throw new AppError('analysis_limit', `this message's content could not be read: ${error.message}`, { cause: error });
  throw error;
}
