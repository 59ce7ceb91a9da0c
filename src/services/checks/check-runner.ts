// Runs a message check on one message: what every check asks before it starts (configured, the message there, readable,
// within its size budget) is asked here once, and the check gets its message's bytes and the content pool as it needs them.
import { AppError } from '../../errors.js';
import type { ContentPool } from '../../content/content-pool.js';
import type { MessageService } from '../mail/messages.js';
import type { MessageCheck } from './message-check.js';

export class MessageCheckRunner {
  constructor(
    private readonly messages: Pick<MessageService, 'require' | 'rawOf'>,
    private readonly pool: Pick<ContentPool, 'checkStep'>,
  ) {}

  /** The check's finding on message `id`; reading it never marks it read. */
  async run<Query, Finding>(check: MessageCheck<Query, Finding, unknown>, workspaceId: string, id: string, query: Query, signal: AbortSignal): Promise<Finding> {
    if (check.notConfigured !== null) throw new AppError('not_configured', check.notConfigured);
    const record = await this.messages.require(workspaceId, id);
    if (check.needs.message === 'parsed' && record.analysisCutShort) {
      throw new AppError('analysis_limit', `the ${check.title} could not read message ${id}: ${record.parseError}`);
    }
    const limit = check.budget.maxMessageBytes;
    if (limit !== null && record.size > limit.bytes) {
      throw new AppError('analysis_limit', `message ${id} is ${record.size} bytes; the ${check.title} takes messages of at most ${limit.bytes} bytes (${limit.setting})`);
    }
    let raw: Promise<Buffer> | null = null;
    const rawOnce = () => (raw ??= this.messages.rawOf(record));
    return check.run({
      record,
      raw: rawOnce,
      inPool: async (step, ...args) => this.pool.checkStep(record.workspaceId, await rawOnce(), step, ...args),
    }, { query, signal, budget: check.budget });
  }
}
