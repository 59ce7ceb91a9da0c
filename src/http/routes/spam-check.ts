// The spam check endpoint: spamd's verdict on a message, in the capitalised field names of the Checks operations.
import type { SpamCheckService } from '../../services/spam-check.js';
import { handlers } from '../handler.js';

export function spamCheckHandlers(spamCheck: SpamCheckService) {
  return handlers({
    spamCheck: async ({ principal, params, signal }) => {
      const verdict = await spamCheck.check(principal.workspace.id, params.id, signal);
      return {
        data: {
          IsSpam: verdict.isSpam,
          Score: verdict.score,
          RequiredScore: verdict.requiredScore,
          Rules: verdict.rules.map((rule) => ({ Name: rule.name, Score: rule.score, Description: rule.description })),
        },
      };
    },
  });
}
