// Chaos settings of an inbox (triggers per SMTP stage, disconnect, delay), the replies they may give, and the one roll
// that decides what a stage does: the SMTP server and the dry run both decide through decideChaos.

import {
  chaosAuthenticationTriggerCodeValues, chaosBehaviourStageValues, chaosConnectionTriggerCodeValues, chaosDataTriggerCodeValues,
  chaosRecipientTriggerCodeValues, chaosSenderTriggerCodeValues, type components,
} from '../contract/api-types.js';

type Schemas = components['schemas'];

/** The stages a trigger can refuse at, in the order a session meets them. */
export const CHAOS_STAGES = ['connection', 'authentication', 'sender', 'recipient', 'data'] as const;
export type ChaosStage = (typeof CHAOS_STAGES)[number];

/**
 * The stages a disconnect or a delay can happen at. Not `connection`: that stage is decided when AUTH identifies the
 * inbox (the greeting goes out before any inbox is known), which is the `authentication` stage's moment already.
 */
export const CHAOS_BEHAVIOUR_STAGES = chaosBehaviourStageValues;

/** Each stage's trigger as the contract describes it, its reply code one of those the stage allows. */
interface TriggerOf {
  connection: Schemas['ChaosConnectionTrigger'];
  authentication: Schemas['ChaosAuthenticationTrigger'];
  sender: Schemas['ChaosSenderTrigger'];
  recipient: Schemas['ChaosRecipientTrigger'];
  data: Schemas['ChaosDataTrigger'];
}

/** A stage's trigger in force: the contract's, with its reply text always filled in. */
export type ChaosTrigger<Stage extends ChaosStage = ChaosStage> = Required<TriggerOf[Stage]>;

/** An inbox's chaos settings in force: the contract's ChaosSettings, every trigger with its text. */
export type ChaosSettingsInForce = Schemas['ChaosSettings'] & { [Stage in ChaosStage]: ChaosTrigger<Stage> };

/**
 * The reply codes a trigger may use at each stage: those RFC 5321 (4.2, 4.3.2) and RFC 4954 (AUTH) allow in answer
 * to that command, plus 421 (service closing, allowed for any command; the connection is then closed). The contract
 * lists them, so the API's validation, the SMTP server and the dashboard's choices are one list.
 */
export const CHAOS_CODES: Readonly<Record<ChaosStage, readonly number[]>> = {
  connection: chaosConnectionTriggerCodeValues,
  authentication: chaosAuthenticationTriggerCodeValues,
  sender: chaosSenderTriggerCodeValues,
  recipient: chaosRecipientTriggerCodeValues,
  data: chaosDataTriggerCodeValues,
};

/**
 * The enhanced status code (RFC 3463) each of those replies carries. smtp-server derives it from the basic code
 * (its ENHANCED_STATUS_CODES table) and a callback cannot choose another, so this is what clients receive; the
 * SMTP e2e tests check it. 534 has no entry in that table and gets the class default 5.0.0.
 */
export const CHAOS_ENHANCED_CODES: Readonly<Record<number, string>> = {
  421: '4.4.2',
  450: '4.2.1',
  451: '4.3.0',
  452: '4.2.2',
  454: '4.7.0',
  534: '5.0.0',
  535: '5.7.8',
  538: '5.7.0',
  550: '5.1.1',
  551: '5.1.6',
  552: '5.2.2',
  553: '5.1.3',
  554: '5.6.0',
};

export interface ChaosReply {
  code: number;
  enhanced: string;
  message: string;
}

/** What each stage answers when nothing fires: smtp-server's own replies, and ours to a stored message. */
export const CHAOS_SUCCESS_REPLIES: Readonly<Record<ChaosStage, ChaosReply>> = {
  // The connection stage is decided at AUTH, so carrying on there is the successful login.
  connection: { code: 235, enhanced: '2.7.0', message: 'Authentication successful' },
  authentication: { code: 235, enhanced: '2.7.0', message: 'Authentication successful' },
  sender: { code: 250, enhanced: '2.1.0', message: 'Accepted' },
  recipient: { code: 250, enhanced: '2.1.5', message: 'Accepted' },
  data: { code: 250, enhanced: '2.6.0', message: 'Message stored as <message id>' },
};

/** Longer than this and the server's own idle timeout (smtp-server's 60 s) or shutdown grace would cut in first. */
export const MAX_CHAOS_DELAY_MS = 30_000;

/** What each stage's trigger is when a client leaves it out, and the text it takes when given without one. */
const DEFAULT_TRIGGERS: { readonly [Stage in ChaosStage]: ChaosTrigger<Stage> } = {
  connection: { probability: 0, code: 421, message: 'Chaos: connection refused by this inbox\'s chaos settings' },
  authentication: { probability: 0, code: 454, message: 'Chaos: authentication refused by this inbox\'s chaos settings' },
  sender: { probability: 0, code: 451, message: 'Chaos: sender refused by this inbox\'s chaos settings' },
  recipient: { probability: 0, code: 550, message: 'Chaos: recipient refused by this inbox\'s chaos settings' },
  data: { probability: 0, code: 451, message: 'Chaos: message refused by this inbox\'s chaos settings' },
};

/** A trigger as given, with the stage's default text when it has none; the stage's default trigger when not given. */
function triggerFrom<Trigger extends { probability: number; code: number; message?: string }>(
  given: Trigger | undefined,
  fallback: { probability: number; code: Trigger['code']; message: string },
): { probability: number; code: Trigger['code']; message: string } {
  return given ? { probability: given.probability, code: given.code, message: given.message ?? fallback.message } : fallback;
}

/** The settings a client's input stands for: whole, each trigger with its text (a default one when not given). */
export function chaosSettingsFrom(input: Schemas['ChaosInput']): ChaosSettingsInForce {
  return {
    enabled: input.enabled,
    connection: triggerFrom(input.connection, DEFAULT_TRIGGERS.connection),
    authentication: triggerFrom(input.authentication, DEFAULT_TRIGGERS.authentication),
    sender: triggerFrom(input.sender, DEFAULT_TRIGGERS.sender),
    recipient: triggerFrom(input.recipient, DEFAULT_TRIGGERS.recipient),
    data: triggerFrom(input.data, DEFAULT_TRIGGERS.data),
    disconnect: input.disconnect ? { stage: input.disconnect.stage, probability: input.disconnect.probability } : { stage: 'data', probability: 0 },
    delay: input.delay ? { stage: input.delay.stage, probability: input.delay.probability, ms: input.delay.ms } : { stage: 'data', probability: 0, ms: 0 },
  };
}

/** Disabled, and nothing would fire if it were enabled. */
export const defaultChaos = (): ChaosSettingsInForce => chaosSettingsFrom({ enabled: false });

/** A uniform number in [0, 1): the random source of every roll. */
export type Chance = () => number;

export type ChaosAction =
  | { kind: 'continue' }
  /** Answer with the reply; `closes`: the connection is closed after it (the connection stage, and any 421). */
  | { kind: 'reply'; reply: ChaosReply; closes: boolean }
  /** Close the connection without a reply. */
  | { kind: 'disconnect' };

export interface ChaosDecision {
  /** Wait this long before acting (0: no delay). */
  delayMs: number;
  action: ChaosAction;
}

const NOTHING: ChaosDecision = { delayMs: 0, action: { kind: 'continue' } };

/** At 0 it never fires and draws nothing; at 100 it always fires (chance() < 1). */
const fires = (probability: number, chance: Chance): boolean => probability > 0 && chance() * 100 < probability;

/** Rolls what chaos does at one stage: the delay first, then a disconnect, then the stage's trigger. */
export function decideChaos(settings: ChaosSettingsInForce, stage: ChaosStage, chance: Chance): ChaosDecision {
  if (!settings.enabled) return NOTHING;
  // Neither behaviour can be set for the connection stage (CHAOS_BEHAVIOUR_STAGES), so neither fires there.
  const delayMs = settings.delay.stage === stage && fires(settings.delay.probability, chance) ? settings.delay.ms : 0;
  if (settings.disconnect.stage === stage && fires(settings.disconnect.probability, chance)) return { delayMs, action: { kind: 'disconnect' } };
  const trigger = settings[stage];
  if (!fires(trigger.probability, chance)) return { delayMs, action: { kind: 'continue' } };
  const reply = { code: trigger.code, enhanced: CHAOS_ENHANCED_CODES[trigger.code] ?? `${String(trigger.code)[0]}.0.0`, message: trigger.message };
  return { delayMs, action: { kind: 'reply', reply, closes: stage === 'connection' || trigger.code === 421 } };
}
