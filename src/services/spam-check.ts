// The spam check: a captured message's raw source scored by SpamAssassin's spamd, asked afresh on every check.
import type { SpamdAddress } from '../config.js';
import { AppError } from '../errors.js';
import { askSpamd, describeSpamdAddress } from '../spamd/spamd-client.js';
import type { SpamVerdict } from '../spamd/spamd-reply.js';
import type { MessageService } from './messages.js';

export interface SpamEngineSettings {
  address: SpamdAddress;
  timeoutMs: number;
  /** Larger messages are not sent: spamd's time grows with what it parses, past any useful time limit. */
  maxBytes: number;
}

export class SpamCheckService {
  /** `engine` null: no spamd is configured, and every check says so. */
  constructor(private readonly messages: MessageService, private readonly engine: SpamEngineSettings | null) {}

  /** Reads the message (never marking it read) and returns spamd's verdict on its raw bytes, exactly as stored. */
  async check(workspaceId: string, id: string, signal?: AbortSignal): Promise<SpamVerdict> {
    if (this.engine === null) {
      throw new AppError('not_configured', 'no spam-scoring engine is configured on this server (SANDBOX_SPAMD_URL names spamd)');
    }
    const { address, timeoutMs, maxBytes } = this.engine;
    const record = await this.messages.require(workspaceId, id);
    if (record.size > maxBytes) {
      throw new AppError('analysis_limit', `message ${id} is ${record.size} bytes; the spam check takes messages of at most ${maxBytes} bytes (SANDBOX_SPAMD_MAX_BYTES)`);
    }
    const outcome = await askSpamd(address, await this.messages.rawOf(record), { timeoutMs, ...(signal ? { signal } : {}) });
    if ('failure' in outcome) {
      // Where spamd runs is for the server's log (the cause), not for API clients.
      throw new AppError('spam_engine_unavailable', `the spam-scoring engine (spamd) ${outcome.failure}`, {
        cause: new Error(`spamd at ${describeSpamdAddress(address)} ${outcome.failure}`),
      });
    }
    return outcome.verdict;
  }
}
