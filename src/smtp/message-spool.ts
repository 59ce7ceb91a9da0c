// Where a message's DATA goes while it arrives: memory up to a threshold, a spool file beyond it, each byte charged
// to the transaction's admission ticket first. A slow or chaos-delayed large transaction then holds disk, not memory.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { CaptureTicket } from '../services/capture-admission.js';

export class MessageSpool extends Writable {
  private chunks: Buffer[] = [];
  private size = 0;
  private file: { path: string; handle: fs.promises.FileHandle } | null = null;
  /** The ticket refused some bytes: the rest is drained unkept and the transaction is refused at its end. */
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
      // Refused at the end of DATA whatever follows: what arrived so far is let go now, not when the client is done.
      this.overCap = true;
      this.discard().then(() => callback(), callback);
      return;
    }
    this.size += chunk.length;
    if (this.file === null && this.size <= this.thresholdBytes) {
      this.chunks.push(chunk);
      return callback();
    }
    this.spool(chunk).then(() => callback(), callback);
  }

  /** The whole message. Its bytes are read back from the spool file, which is then removed. */
  async bytes(): Promise<Buffer> {
    if (this.file === null) return Buffer.concat(this.chunks, this.size);
    const whole = Buffer.allocUnsafe(this.size);
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
