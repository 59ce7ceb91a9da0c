// Turns for the searches a tenant's queries drive (list pages, waits' lookups, batch selections), on either backend: a
// workspace runs at most a few at once on this node and waiting searches start in turns between workspaces, so one
// tenant's expensive queries queue behind each other, not in front of everyone else's.
import { AppError } from '../errors.js';
import { FairGate, GateRefusal } from '../domain/fair-gate.js';

export interface SearchTurnsLimits {
  /** Searches this node runs at once, over every workspace. */
  concurrency: number;
  /** Searches one workspace runs at once. */
  perWorkspace: number;
  /** Searches one workspace may have waiting (SANDBOX_QUERY_QUEUE_PER_WORKSPACE); past it, 429 too_many_queries. */
  queuePerWorkspace: number;
  /** Searches waiting over every workspace; past it, 503 server_busy. */
  queueLimit: number;
}

export class SearchTurns {
  private readonly gate: FairGate;

  constructor(private readonly limits: SearchTurnsLimits) {
    this.gate = new FairGate({
      concurrency: limits.concurrency,
      perKeyConcurrency: limits.perWorkspace,
      perKeyLimit: limits.perWorkspace + limits.queuePerWorkspace,
      queueLimit: limits.queueLimit,
    });
  }

  /** Runs the search once it is its workspace's turn; refuses at once when it may not wait. */
  async run<T>(workspaceId: string, search: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(workspaceId, search);
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      if (error.reason === 'key_full') {
        throw new AppError('too_many_queries', `this workspace has ${this.limits.queuePerWorkspace} searches waiting already (the limit); wait for their answers before sending more`);
      }
      throw new AppError('server_busy', 'the server has too many searches waiting; try again shortly');
    }
  }
}
