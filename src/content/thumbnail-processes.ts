// Each thumbnail is made in a process of its own (thumbnail-child.ts) under a hard memory limit: libvips' memory is
// native, which no worker thread's limit reaches and which a terminated thread does not give back, while a process's
// is capped by the kernel and returned the moment it exits. A process past the time limit is killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { AppError } from '../errors.js';
import { workerFile } from '../worker-file.js';
import type { ThumbnailChildMessage, ThumbnailRequest } from './thumbnail-child.js';
import type { ThumbnailLimits } from './thumbnail.js';
import type { ThumbnailOutcome } from './content-tasks.js';

const CHILD_FILE = workerFile(import.meta.url, 'thumbnail-child').pathname;
/** The sources run through tsx in the tests; a child process does not inherit the loader, so it is named. */
const NODE_ARGS = CHILD_FILE.endsWith('.ts') ? ['--import', 'tsx', CHILD_FILE] : [CHILD_FILE];
/**
 * The shell sets RLIMIT_DATA (private writable memory: every heap, malloc and anonymous mapping) for itself and execs
 * node in its place, so the limit holds from node's first allocation on and the process's pid is node's. A decode past
 * it fails to allocate: libvips answers an error, or the process dies. Both leave its memory to the system at once.
 */
const LIMITED_EXEC = 'ulimit -d "$0" && exec "$@"';


export interface ThumbnailProcessLimits extends ThumbnailLimits {
  /** The process is killed this long after it was started (SANDBOX_PARSE_TIMEOUT_MS). */
  timeoutMs: number;
}

const shuttingDown = () => new AppError('shutting_down', 'the server is shutting down; retry the thumbnail later', { headers: { 'Retry-After': '1' } });

/** The thumbnail processes of one content pool. */
export class ThumbnailProcesses {
  private readonly live = new Set<ChildProcess>();
  private closed = false;

  /** Processes started and not yet exited, killed ones included until they are gone. */
  get running(): number {
    return this.live.size;
  }

  /**
   * A thumbnail, or why there is none, made in a new process. Settles only once the process has exited, whatever
   * the outcome, so a caller counting thumbnails running counts each until its memory is back.
   */
  make(image: Uint8Array, limits: ThumbnailProcessLimits): Promise<ThumbnailOutcome> {
    const { timeoutMs, ...childLimits } = limits;
    return new Promise<ThumbnailOutcome>((resolve, reject) => {
      if (this.closed) {
        reject(shuttingDown());
        return;
      }
      const child = spawn('/bin/sh', ['-c', LIMITED_EXEC, String(limits.memoryMb * 1024), process.execPath, ...NODE_ARGS], {
        // Nothing of the server's environment (its secrets among it) is the decoder's business.
        env: {},
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'advanced',
      });
      let ready = false;
      let timedOut = false;
      let outcome: ThumbnailOutcome | undefined;
      const deadline = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
      child.on('error', (error) => {
        // Not started at all (no process slot, say); once started, 'close' settles.
        if (child.pid !== undefined) return;
        clearTimeout(deadline);
        reject(new AppError('server_busy', `no thumbnail process could be started (${error.message}); retry after 1s`, { headers: { 'Retry-After': '1' }, cause: error }));
      });
      if (child.pid === undefined) return;
      this.live.add(child);
      child.on('message', (message: ThumbnailChildMessage) => {
        if ('ready' in message && !ready) {
          ready = true;
          const request: ThumbnailRequest = { image, limits: childLimits };
          // A child that dies meanwhile fails the send; 'close' says what became of it.
          child.send(request, (error) => error && child.kill('SIGKILL'));
        } else if ('outcome' in message) {
          outcome = message.outcome;
        }
      });
      child.on('close', (code, signal) => {
        clearTimeout(deadline);
        this.live.delete(child);
        // Killed for the shutdown, not for anything the image did: nothing to keep of it.
        if (this.closed && !outcome) reject(shuttingDown());
        else if (outcome) resolve(outcome);
        else if (timedOut) resolve({ refused: `was not made within ${timeoutMs / 1000} s (the time limit per task, SANDBOX_PARSE_TIMEOUT_MS): its decode was stopped`, transient: true });
        // A decode that ends its process is the image's doing: with allocations failing at the limit, most often that.
        else if (ready) resolve({ refused: `stopped its decoder (${signal ?? `exit code ${code}`}): decoding it needs more than the ${limits.memoryMb} MB of memory a thumbnail may use (SANDBOX_THUMBNAIL_MEMORY_MB), or it is malformed` });
        else reject(new AppError('internal_error', `the thumbnail process stopped before it was ready (${signal ?? `exit code ${code}`})`));
      });
    });
  }

  /** Kills every process still running and resolves once they are gone. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.live].map((child) => new Promise<void>((resolve) => {
      child.once('close', () => resolve());
      child.kill('SIGKILL');
    })));
  }
}
