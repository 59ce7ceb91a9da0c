// Retention: deletes each workspace's messages older than its plan's retention_days, now and then on a timer; a
// workspace whose plan is not configured keeps everything, and each pass says so.
import type { Logger } from 'pino';
import type { Backend } from '../storage/ports.js';
import type { WorkspaceService } from '../services/accounts/workspaces.js';
import { removeMessages } from '../services/mail/message-removal.js';

const DAY_MS = 24 * 3600 * 1000;

export class RetentionWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly backend: Pick<Backend, 'messages' | 'blobs'>,
    private readonly workspaces: WorkspaceService,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** One pass over every workspace; resolves to the number of messages deleted. Passes never overlap. */
  sweep(): Promise<number> {
    this.running ??= this.sweepAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sweepAll(): Promise<number> {
    let deleted = 0;
    for (const workspace of await this.workspaces.listWorkspaces()) {
      const { retentionDays } = this.workspaces.planFor(workspace);
      if (retentionDays === null) {
        this.log.warn({ workspace_id: workspace.id, plan: workspace.planName },
          `workspace ${workspace.id} is on plan '${workspace.planName}', which SANDBOX_PLANS does not define: none of its mail is deleted by retention and the strictest configured limits apply until the plan is defined or an operator moves it (admin plan set)`);
        continue;
      }
      const cutoff = new Date(this.now().getTime() - retentionDays * DAY_MS);
      deleted += (await removeMessages(this.backend, { workspaceId: workspace.id, filter: { kind: 'received', op: 'lt', at: cutoff } })).length;
    }
    return deleted;
  }

  /** Sweeps now and then every intervalMs; a failed pass is logged and the next one tries again. */
  start(intervalMs: number): void {
    const pass = () => {
      this.sweep().then(
        (deleted) => {
          if (deleted > 0) this.log.info({ deleted }, 'retention removed expired messages');
        },
        (error: unknown) => this.log.error({ err: error }, 'retention pass failed'),
      );
    };
    pass();
    this.timer = setInterval(pass, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a pass under way, so shutdown never closes storage beneath it. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
