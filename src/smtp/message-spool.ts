// Where a message's DATA goes while it arrives: memory up to a threshold, a spool file beyond it, each byte charged
// to the transaction's admission ticket first. A slow or chaos-delayed large transaction then holds disk, not memory.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { CaptureTicket } from '../services/capture/capture-admission.js';

export class MessageSpool extends Writable {
  private chunks: Buffer[] = [];
  private size = 0;
  private file: { path: string; handle: fs.promises.FileHandle } | null = null;
  /** The ticket refused some bytes: nothing more is kept, and 'overCap' is emitted once. */
  overCap = false;

  constructor(
    private readonly spoolDir: string,
    private readonly thresholdBytes: number,
    private readonly ticket: CaptureTicket,
    /** Past the message size limit the rest is drained unkept (smtp-server answers 552 itself). */
    private readonly sizeExceeded: () => boolean,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.overCap || this.sizeExceeded()) return callback();
    if (!this.ticket.hold(chunk.length)) {
      // Refused whatever follows: what arrived so far is let go now, not when the client is done.
      this.overCap = true;
      this.emit('overCap');
      this.discard().then(() => callback(), callback);
      return;
    }
    const pauseMs = this.ticket.paceMs(chunk.length);
    if (pauseMs > 0) setTimeout(() => this.keep(chunk, callback), pauseMs);
    else this.keep(chunk, callback);
  }

  /** Keeps a chunk the ticket holds: in memory up to the threshold, in the spool file beyond it. */
  private keep(chunk: Buffer, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.file === null && this.size <= this.thresholdBytes) {
      this.chunks.push(chunk);
      return callback();
    }
    this.spool(chunk).then(() => callback(), callback);
  }

  /**
   * The whole message, read back from the spool file (then removed) when it went there. Its memory is shared: the
   * content worker that parses it and the writer thread that stores it see these bytes rather than copies of them,
   * so a large message is in memory once, not three times.
   */
  async bytes(): Promise<Buffer> {
    const whole = Buffer.from(new SharedArrayBuffer(this.size));
    if (this.file === null) {
      let offset = 0;
      for (const chunk of this.chunks) offset += chunk.copy(whole, offset);
      this.chunks = [];
      return whole;
    }
    await this.file.handle.read(whole, 0, this.size, 0);
    await this.discard();
    return whole;
  }

  /** Forgets what arrived: the spool file, if any, is closed and removed. */
  async discard(): Promise<void> {
    this.chunks = [];
    const file = this.file;
    this.file = null;
    if (file === null) return;
    await file.handle.close().catch(() => undefined);
    await fs.promises.rm(file.path, { force: true });
  }

  private async spool(chunk: Buffer): Promise<void> {
    if (this.file === null) {
      const filePath = path.join(this.spoolDir, `${randomUUID()}.eml`);
      // Owner-only: a spool holds someone's mail.
      this.file = { path: filePath, handle: await fs.promises.open(filePath, 'w+', 0o600) };
      for (const earlier of this.chunks.splice(0)) await this.file.handle.write(earlier);
    }
    await this.file.handle.write(chunk);
  }
}

/**
 * This process's spool directory under `spoolRoot`, one per process because nodes may share a data directory. The
 * directories of processes that are gone are removed: their transactions never got a 250.
 */
export async function prepareSpoolDir(spoolRoot: string): Promise<string> {
  await fs.promises.mkdir(spoolRoot, { recursive: true, mode: 0o700 });
  for (const entry of await fs.promises.readdir(spoolRoot)) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && pid > 0 && !processAlive(pid)) await fs.promises.rm(path.join(spoolRoot, entry), { recursive: true, force: true });
  }
  const own = path.join(spoolRoot, String(process.pid));
  await fs.promises.rm(own, { recursive: true, force: true });
  await fs.promises.mkdir(own, { mode: 0o700 });
  return own;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
