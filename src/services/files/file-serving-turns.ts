// Turns for serving what is read of a message (its detail and links; its files: raw source, HTML, attachments,
// thumbnails, by key or by signed link): each workspace has a few served at once and the rest wait their turn, so a
// burst of one tenant's reads is its own.
import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import { AppError } from '../../errors.js';
import { FairGate, GateRefusal } from '../../domain/fair-gate.js';

/** Reads one workspace may have waiting: as many as one address may hold connections (the HTTP per-address cap). */
const WAITING_PER_WORKSPACE = 256;
/** Reads waiting over every workspace: as many as the HTTP connection cap. */
const WAITING_IN_ALL = 2000;
/** Workspaces that may be served at their full share at once before a further one waits for a slot, by default. */
const WORKSPACES_AT_FULL_SHARE = 8;

export class FileServingTurns {
  private readonly gate: FairGate;

  constructor(private readonly perWorkspace: number, workspacesAtFullShare = WORKSPACES_AT_FULL_SHARE) {
    this.gate = new FairGate({
      concurrency: perWorkspace * workspacesAtFullShare,
      perKeyConcurrency: perWorkspace,
      perKeyLimit: perWorkspace + WAITING_PER_WORKSPACE,
      queueLimit: WAITING_IN_ALL,
    });
  }

  /**
   * Serves once it is the workspace's turn. Each read starts on a later turn of the event loop than the one that let
   * it in: the reads a finished one lets in would otherwise all run in one go, ahead of every other tenant's request
   * read meanwhile.
   */
  async serve<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await this.gate.run(workspaceId, async () => {
        await nextLoopTurn();
        return work();
      });
    } catch (error) {
      if (!(error instanceof GateRefusal)) throw error;
      const why = error.reason === 'key_full' ? `this workspace has ${WAITING_PER_WORKSPACE} message reads waiting already` : 'the server has too many message reads waiting';
      throw new AppError('rate_limited', `${why}; retry after 1s`, { headers: { 'Retry-After': '1' } });
    }
  }
}
