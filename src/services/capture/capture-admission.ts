// Admission for captures in progress: the transactions open and the message bytes held for them, per workspace and
// overall, so one workspace's senders (slow, chaos-delayed or simply many) cannot take the memory, disk or capture
// capacity every other workspace needs. Past a cap: too_many_transactions (SMTP 451 4.3.2, HTTP 503).
import { AppError } from '../../errors.js';
import type { CaptureLimits } from '../../config.js';

/** One open transaction's claim: released exactly once, whatever became of it. */
export interface CaptureTicket {
  /**
   * Holds `bytes` more for this transaction; false when that would pass a cap. The transaction is then refused, so
   * what it held is given back at once, for the transactions under way beside it to finish (first come, first
   * served: otherwise many large transactions arriving together would each hold a share and all be refused).
   */
  hold(bytes: number): boolean;
  /**
   * How long to wait before reading on past these `bytes` (held already): a workspace's transactions share one rate
   * of DATA, so however many it streams at once, the event loop scans at most that much of its mail per second.
   */
  paceMs(bytes: number): number;
  /** The refusal for a transaction whose bytes did not fit. */
  overBuffered(): AppError;
  release(): void;
}

const busy = (message: string): AppError => new AppError('too_many_transactions', message, { headers: { 'Retry-After': '1' } });

export class CaptureAdmission {
  private transactions = 0;
  private bytes = 0;
  private readonly byWorkspace = new Map<string, { transactions: number; bytes: number; rate: ByteRate }>();

  constructor(private readonly limits: CaptureLimits, private readonly now: () => number = () => performance.now()) {}

  /** Opens a transaction for `workspaceId`, or throws too_many_transactions when either count is at its cap. */
  open(workspaceId: string): CaptureTicket {
    const { transactions, transactionsPerWorkspace } = this.limits;
    const own = this.byWorkspace.get(workspaceId) ?? { transactions: 0, bytes: 0, rate: new ByteRate(this.limits.dataBytesPerSecondPerWorkspace, this.now) };
    if (own.transactions >= transactionsPerWorkspace) {
      throw busy(`this workspace has ${transactionsPerWorkspace} messages in transfer already (the most at once); try again when some have finished`);
    }
    if (this.transactions >= transactions) throw busy(`the server has ${transactions} messages in transfer already; try again shortly`);
    own.transactions++;
    this.transactions++;
    this.byWorkspace.set(workspaceId, own);
    let held = 0;
    let released = false;
    let refused = false;
    const giveBack = () => {
      own.bytes -= held;
      this.bytes -= held;
      held = 0;
    };
    return {
      hold: (bytes) => {
        if (refused) return false;
        if (own.bytes + bytes > this.limits.bufferedBytesPerWorkspace || this.bytes + bytes > this.limits.bufferedBytes) {
          refused = true;
          giveBack();
          return false;
        }
        own.bytes += bytes;
        this.bytes += bytes;
        held += bytes;
        return true;
      },
      paceMs: (bytes) => own.rate.take(bytes),
      overBuffered: () => busy(`messages in transfer hold too many bytes already (at most ${size(this.limits.bufferedBytesPerWorkspace)} for a workspace, `
        + `${size(this.limits.bufferedBytes)} in all); nothing was stored, try again shortly`),
      release: () => {
        if (released) return;
        released = true;
        giveBack();
        own.transactions--;
        this.transactions--;
        if (own.transactions === 0) this.byWorkspace.delete(workspaceId);
      },
    };
  }
}

/** A byte count as people read it: whole MiB, or KiB below one MiB. */
const size = (bytes: number): string => (bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MiB` : `${Math.round(bytes / 1024)} KiB`);

/**
 * How much of a second's rate a workspace may take at once. A burst is scanned on the event loop in a few turns,
 * so it must stay short: with a whole second's worth (16 MiB), twenty large transactions starting together held
 * every other tenant's requests ~100–160 ms; an eighth of a second (2 MiB) is ~7 ms of scanning.
 */
const BURST_SECONDS = 0.125;

/**
 * Bytes per second with a short burst, as a bucket that may run into debt: each caller takes its bytes at once
 * and is told how long to wait until the debt is paid, so callers sharing the rate are served in the order they came.
 */
class ByteRate {
  private tokens: number;
  private updatedAt: number;
  private readonly burst: number;

  constructor(private readonly perSecond: number, private readonly now: () => number) {
    this.burst = perSecond * BURST_SECONDS;
    this.tokens = this.burst;
    this.updatedAt = now();
  }

  /** Milliseconds to wait before using `bytes`. */
  take(bytes: number): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond);
    this.updatedAt = now;
    this.tokens -= bytes;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.perSecond) * 1000);
  }
}
