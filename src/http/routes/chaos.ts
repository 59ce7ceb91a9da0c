// Chaos endpoints: an inbox's chaos settings (get, replace whole) and the dry run.
import type { InboxChaosService } from '../../services/mail/inbox-chaos.js';
import { handlers } from '../handler.js';
import { chaosJson, chaosTestJson } from '../presenters.js';

export function chaosHandlers(chaos: InboxChaosService) {
  return handlers({
    getInboxChaos: async ({ principal, params }) => ({ data: chaosJson(await chaos.get(principal.workspace.id, params.id)) }),
    replaceInboxChaos: async ({ principal, params, body }) => ({ data: chaosJson(await chaos.replace(principal.workspace.id, params.id, body)) }),
    testInboxChaos: async ({ principal, params }) => {
      const { enabled, stages } = await chaos.dryRun(principal.workspace.id, params.id);
      return { data: chaosTestJson(enabled, stages) };
    },
  });
}
