// The spam check (GET /v1/messages/{id}/spam-check): a captured message's raw source scored by SpamAssassin's spamd,
// asked afresh on every check.
import type { Config } from '../../config.js';
import type { components } from '../../contract/api-types.js';
import { AppError } from '../../errors.js';
import { askSpamd, describeSpamdAddress } from '../../spamd/spamd-client.js';
import type { SpamVerdict } from '../../spamd/spamd-reply.js';
import type { MessageCheck } from './message-check.js';

type SpamCheckJson = components['schemas']['SpamCheck'];

/** Without SANDBOX_SPAMD_URL the check is not configured, and every request of it says so. */
export function spamCheck(config: Pick<Config, 'spamd' | 'spamdTimeoutMs' | 'spamdMaxBytes'>): MessageCheck<unknown, SpamVerdict, SpamCheckJson, 'spamCheck'> {
  const address = config.spamd;
  return {
    name: 'spam-check',
    operationId: 'spamCheck',
    title: 'spam check',
    needs: { message: 'raw', outside: 'spamd' },
    // Larger messages are not sent: spamd's time grows with what it parses, past any useful time limit.
    budget: { requestTimeoutMs: config.spamdTimeoutMs, maxMessageBytes: { bytes: config.spamdMaxBytes, setting: 'SANDBOX_SPAMD_MAX_BYTES' } },
    notConfigured: address === null ? 'no spam-scoring engine is configured on this server (SANDBOX_SPAMD_URL names spamd)' : null,
    /** spamd's verdict on the raw bytes, exactly as stored. */
    async run(message, { signal, budget }) {
      if (address === null) throw new Error('the spam check ran without spamd, which notConfigured refuses first');
      const outcome = await askSpamd(address, await message.raw(), { timeoutMs: budget.requestTimeoutMs, signal });
      if ('failure' in outcome) {
        // Where spamd runs is for the server's log (the cause), not for API clients.
        throw new AppError('spam_engine_unavailable', `the spam-scoring engine (spamd) ${outcome.failure}`, {
          cause: new Error(`spamd at ${describeSpamdAddress(address)} ${outcome.failure}`),
        });
      }
      return outcome.verdict;
    },
    /** In the capitalised field names of the Checks operations. */
    present: (verdict) => ({
      IsSpam: verdict.isSpam,
      Score: verdict.score,
      RequiredScore: verdict.requiredScore,
      Rules: verdict.rules.map((rule) => ({ Name: rule.name, Score: rule.score, Description: rule.description })),
    }) satisfies SpamCheckJson,
  };
}
