// The spam check endpoint: spamd's verdict on a message.
import type { SpamCheckService } from '../../services/spam-check.js';
import { handlers } from '../handler.js';
import { spamCheckJson } from '../presenters.js';

export function spamCheckHandlers(spamCheck: SpamCheckService) {
  return handlers({
    spamCheck: async ({ principal, params, signal }) => ({ data: spamCheckJson(await spamCheck.check(principal.workspace.id, params.id, signal)) }),
  });
}
