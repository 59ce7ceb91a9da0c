// Chaos endpoints: an inbox's chaos settings (get, replace whole) and the dry run, with their JSON.
import { CHAOS_SUCCESS_REPLIES, CHAOS_STAGES, type ChaosDecision, type ChaosSettings, type ChaosStage } from '../../domain/chaos.js';
import type { ChaosService } from '../../services/inbox-chaos.js';
import type { components } from '../../contract/api-types.js';
import { handlers } from '../handler.js';

type Schemas = components['schemas'];

/** The domain's field names are the API's; its codes are numbers, each one its stage's enum allows (PUT validated it). */
const chaosJson = (settings: ChaosSettings): Schemas['ChaosSettings'] => settings as Schemas['ChaosSettings'];

function outcomeJson(stage: ChaosStage, { delayMs, action }: ChaosDecision): Schemas['ChaosOutcome'] {
  const timing = { delay_ms: delayMs };
  if (action.kind === 'disconnect') return { result: 'disconnected', code: null, enhanced_code: null, message: null, closes_connection: true, ...timing };
  const refused = action.kind === 'reply';
  const reply = refused ? action.reply : CHAOS_SUCCESS_REPLIES[stage];
  return { result: refused ? 'refused' : 'accepted', code: reply.code, enhanced_code: reply.enhanced, message: reply.message, closes_connection: refused && action.closes, ...timing };
}

export function chaosHandlers(chaos: ChaosService) {
  return handlers({
    getInboxChaos: async ({ principal, params }) => ({ data: chaosJson(await chaos.get(principal.workspace.id, params.id)) }),
    replaceInboxChaos: async ({ principal, params, body }) => ({ data: chaosJson(await chaos.replace(principal.workspace.id, params.id, body)) }),
    testInboxChaos: async ({ principal, params }) => {
      const { enabled, stages } = await chaos.dryRun(principal.workspace.id, params.id);
      const outcomes = Object.fromEntries(CHAOS_STAGES.map((stage) => [stage, outcomeJson(stage, stages[stage])])) as Record<ChaosStage, Schemas['ChaosOutcome']>;
      return { data: { enabled, ...outcomes } };
    },
  });
}
