// An inbox's chaos settings: read, replaced whole, and rolled once as a dry run with the SMTP server's own roll and
// random source, so the dry run reports what a session would have met.
import { chaosSettingsFrom, decideChaos, type Chance, type ChaosDecision, type ChaosSettingsInForce, type ChaosStage } from '../../domain/chaos.js';
import type { components } from '../../contract/api-types.js';
import type { InboxService } from './inboxes.js';

export interface ChaosDryRun {
  enabled: boolean;
  /** What each stage would do, rolled once and on its own, as if the session reached it. */
  stages: Record<ChaosStage, ChaosDecision>;
}

export class InboxChaosService {
  constructor(private readonly inboxes: InboxService, private readonly chance: Chance) {}

  async get(workspaceId: string, inboxId: string): Promise<ChaosSettingsInForce> {
    return (await this.inboxes.require(workspaceId, inboxId)).settings.chaos;
  }

  /** Replaces the settings whole in one write: what the input leaves out takes its default. */
  async replace(workspaceId: string, inboxId: string, input: components['schemas']['ChaosInput']): Promise<ChaosSettingsInForce> {
    return (await this.inboxes.setSettings(workspaceId, inboxId, { chaos: chaosSettingsFrom(input) })).settings.chaos;
  }

  /** Sends, stores and counts nothing. */
  async dryRun(workspaceId: string, inboxId: string): Promise<ChaosDryRun> {
    const settings = await this.get(workspaceId, inboxId);
    const decide = (stage: ChaosStage) => decideChaos(settings, stage, this.chance);
    // One roll per stage, in the order a session meets them (as CHAOS_STAGES lists them).
    const stages = { connection: decide('connection'), authentication: decide('authentication'), sender: decide('sender'), recipient: decide('recipient'), data: decide('data') };
    return { enabled: settings.enabled, stages };
  }
}
