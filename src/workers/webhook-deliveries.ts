// Makes webhook delivery attempts: claims what is due from the shared schedule, POSTs it, records the outcome.
import type { Logger } from 'pino';
import type { Delivery } from '../domain/types.js';
import type { AttemptRecord, WebhookStore } from '../storage/ports.js';
import { ANSWER_TIMEOUT_MS, postWebhook } from '../outbound/post-webhook.js';
import { signatureHeader } from '../outbound/signature.js';
import type { TargetPolicy } from '../outbound/target-policy.js';

/** Gaps after the 1st, 2nd... 7th failed attempt (spec): eight attempts in all, about five hours. */
const RETRY_GAPS_MS = [10_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000];
const MAX_ATTEMPTS = RETRY_GAPS_MS.length + 1;

export interface DeliveryWorkerOptions {
  /** SANDBOX_WEBHOOK_TIME_SCALE: multiplies the retry gaps. */
  timeScale: number;
  /** How often the schedule is read when nothing woke the worker (another node may have queued). */
  pollMs?: number;
  /** Attempts in flight at once, so one slow receiver does not hold up the others. */
  concurrency?: number;
  /**
   * How long a claim lasts: past it, a delivery whose worker died (kill -9, lost node) is claimed again by any
   * node. Longer than an attempt can take (the receiver's 10 s plus name resolution and connect).
   */
  leaseMs?: number;
  /** Told the outcome of every attempt once it is recorded (the metrics, in the server). */
  attempted?: (outcome: AttemptRecord['outcome']) => void;
}

export class WebhookDeliveryWorker {
  private readonly pollMs: number;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private wakeUp: (() => void) | null = null;
  private wokenEarly = false;
  /** Aborts the attempts in flight when the node stops; their claims stay this node's, released at its next start. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: WebhookStore,
    private readonly policy: TargetPolicy,
    private readonly options: DeliveryWorkerOptions,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.pollMs = options.pollMs ?? 250;
    this.concurrency = options.concurrency ?? 16;
    this.leaseMs = options.leaseMs ?? ANSWER_TIMEOUT_MS + 20_000;
  }

  async start(): Promise<void> {
    // Whatever this node held when it last stopped (or died) is due again now rather than after its lease.
    const released = await this.store.releaseOwnClaims(this.now());
    if (released > 0) this.log.warn({ released }, 'webhook deliveries claimed by the previous run are due again');
    this.running = true;
    this.loop = this.run();
  }

  /** New deliveries were queued on this node: look at the schedule now rather than at the next poll. */
  wake(): void {
    this.wokenEarly = true;
    this.wakeUp?.();
  }

  /**
   * Stops claiming and abandons the attempts in flight rather than wait up to the receiver's answer time: each is
   * made again (at least once) after this node's next start, or by another node once its lease runs out.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    this.stopping.abort();
    await this.loop;
    await Promise.all([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed: Delivery[] = [];
      const free = this.concurrency - this.inFlight.size;
      this.wokenEarly = false;
      if (free > 0) {
        try {
          claimed = await this.store.claimDue(this.now(), this.leaseMs, free);
        } catch (error) {
          this.log.warn({ err: error }, 'reading the webhook schedule failed');
        }
      }
      for (const delivery of claimed) this.track(this.attempt(delivery));
      // A full claim may have left more due; otherwise rest until the next poll, a wake-up or a free slot.
      if (claimed.length === 0 || claimed.length < free) await this.pause();
    }
  }

  private pause(): Promise<void> {
    if (this.wokenEarly || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      const wakeUp = () => done();
      this.wakeUp = wakeUp;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  private track(attempt: Promise<void>): void {
    this.inFlight.add(attempt);
    void attempt.finally(() => {
      this.inFlight.delete(attempt);
      this.wakeUp?.();
    });
  }

  private async attempt(delivery: Delivery): Promise<void> {
    try {
      const webhook = await this.store.getWebhook(delivery.workspaceId, delivery.webhookId);
      // Deleted since: its deliveries went with it, and nothing is sent.
      if (!webhook) return;
      const body = Buffer.from(delivery.body);
      const sentAt = this.now();
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'mail-sandbox-webhooks/1',
        'X-Sandbox-Event': delivery.event,
        'X-Sandbox-Delivery': String(delivery.id),
        'X-Sandbox-Signature': signatureHeader(webhook.secret, body, sentAt),
      };
      const result = await postWebhook(webhook.url, body, headers, this.policy, { signal: this.stopping.signal, workspaceId: delivery.workspaceId });
      if (this.stopping.signal.aborted) return;
      const attempt = this.outcome(delivery, result);
      await this.store.recordAttempt(delivery.id, attempt);
      this.options.attempted?.(attempt.outcome);
    } catch (error) {
      // The claim's lease makes the delivery due again, so a failure to record costs a repeat, not a loss.
      this.log.warn({ err: error, delivery_id: delivery.id }, 'webhook delivery attempt could not be recorded');
    }
  }

  private outcome(delivery: Delivery, result: { delivered: boolean; status: number | null; error: string | null }): AttemptRecord {
    const at = this.now();
    const made = delivery.attempts + 1;
    if (result.delivered) return { status: result.status, error: null, outcome: 'delivered', nextAttemptAt: null, at };
    if (made >= MAX_ATTEMPTS) return { status: result.status, error: result.error, outcome: 'failed', nextAttemptAt: null, at };
    const gap = RETRY_GAPS_MS[made - 1]! * this.options.timeScale;
    return { status: result.status, error: result.error, outcome: 'retry', nextAttemptAt: new Date(at.getTime() + gap), at };
  }
}
