// Chaos settings of an inbox (triggers per SMTP stage, disconnect, delay), the replies they may give, and the one roll
// that decides what a stage does: the SMTP server and the dry run both decide through decideChaos.

/** The stages a trigger can refuse at, in the order a session meets them. */
export const CHAOS_STAGES = ['connection', 'authentication', 'sender', 'recipient', 'data'] as const;
export type ChaosStage = (typeof CHAOS_STAGES)[number];

/**
 * The stages a disconnect or a delay can happen at. Not `connection`: that stage is decided when AUTH identifies the
 * inbox (the greeting goes out before any inbox is known), which is the `authentication` stage's moment already.
 */
export const CHAOS_BEHAVIOUR_STAGES = ['authentication', 'sender', 'recipient', 'data'] as const;
export type ChaosBehaviourStage = (typeof CHAOS_BEHAVIOUR_STAGES)[number];

export interface ChaosTrigger {
  /** Percent, 0 (never) to 100 (always); decimals allowed. */
  probability: number;
  /** A reply code valid for the stage (CHAOS_CODES). */
  code: number;
  /** The reply text. */
  message: string;
}

export interface ChaosDisconnect {
  stage: ChaosBehaviourStage;
  probability: number;
}

export interface ChaosDelay {
  stage: ChaosBehaviourStage;
  probability: number;
  /** How long the reply waits, 0 to MAX_CHAOS_DELAY_MS. */
  ms: number;
}

export interface ChaosSettings {
  enabled: boolean;
  connection: ChaosTrigger;
  authentication: ChaosTrigger;
  sender: ChaosTrigger;
  recipient: ChaosTrigger;
  data: ChaosTrigger;
  disconnect: ChaosDisconnect;
  delay: ChaosDelay;
}

/** Settings as a client gives them: `enabled`, and any of the rest; what is left out takes its default. */
export type ChaosInput = { enabled: boolean } & {
  [Stage in ChaosStage]?: Omit<ChaosTrigger, 'message'> & { message?: string };
} & {
  disconnect?: ChaosDisconnect;
  delay?: ChaosDelay;
};

/**
 * The reply codes a trigger may use at each stage: those RFC 5321 (4.2, 4.3.2) and RFC 4954 (AUTH) allow in answer
 * to that command, plus 421 (service closing, allowed for any command; the connection is then closed).
 */
export const CHAOS_CODES: Readonly<Record<ChaosStage, readonly number[]>> = {
  connection: [421, 554],
  authentication: [421, 454, 534, 535, 538],
  sender: [421, 450, 451, 452, 550, 552, 553, 554],
  recipient: [421, 450, 451, 452, 550, 551, 552, 553, 554],
  data: [421, 450, 451, 452, 550, 552, 554],
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

const DEFAULT_MESSAGES: Readonly<Record<ChaosStage, string>> = {
  connection: 'Chaos: connection refused by this inbox\'s chaos settings',
  authentication: 'Chaos: authentication refused by this inbox\'s chaos settings',
  sender: 'Chaos: sender refused by this inbox\'s chaos settings',
  recipient: 'Chaos: recipient refused by this inbox\'s chaos settings',
  data: 'Chaos: message refused by this inbox\'s chaos settings',
};

const DEFAULT_CODES: Readonly<Record<ChaosStage, number>> = {
  connection: 421,
  authentication: 454,
  sender: 451,
  recipient: 550,
  data: 451,
};

const defaultTrigger = (stage: ChaosStage): ChaosTrigger => ({ probability: 0, code: DEFAULT_CODES[stage], message: DEFAULT_MESSAGES[stage] });

/** The settings a client's input stands for: whole, each trigger with its text (a default one when not given). */
export function chaosSettingsFrom(input: ChaosInput): ChaosSettings {
  const trigger = (stage: ChaosStage): ChaosTrigger => {
    const given = input[stage];
    return given ? { probability: given.probability, code: given.code, message: given.message ?? DEFAULT_MESSAGES[stage] } : defaultTrigger(stage);
  };
  return {
    enabled: input.enabled,
    connection: trigger('connection'),
    authentication: trigger('authentication'),
    sender: trigger('sender'),
    recipient: trigger('recipient'),
    data: trigger('data'),
    disconnect: input.disconnect ? { stage: input.disconnect.stage, probability: input.disconnect.probability } : { stage: 'data', probability: 0 },
    delay: input.delay ? { stage: input.delay.stage, probability: input.delay.probability, ms: input.delay.ms } : { stage: 'data', probability: 0, ms: 0 },
  };
}

/** Disabled, and nothing would fire if it were enabled. */
export const defaultChaos = (): ChaosSettings => chaosSettingsFrom({ enabled: false });

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
export function decideChaos(settings: ChaosSettings, stage: ChaosStage, chance: Chance): ChaosDecision {
  if (!settings.enabled) return NOTHING;
  // Neither behaviour can be set for the connection stage (CHAOS_BEHAVIOUR_STAGES), so neither fires there.
  const delayMs = settings.delay.stage === stage && fires(settings.delay.probability, chance) ? settings.delay.ms : 0;
  if (settings.disconnect.stage === stage && fires(settings.disconnect.probability, chance)) return { delayMs, action: { kind: 'disconnect' } };
  const trigger = settings[stage];
  if (!fires(trigger.probability, chance)) return { delayMs, action: { kind: 'continue' } };
  const reply = { code: trigger.code, enhanced: CHAOS_ENHANCED_CODES[trigger.code] ?? `${String(trigger.code)[0]}.0.0`, message: trigger.message };
  return { delayMs, action: { kind: 'reply', reply, closes: stage === 'connection' || trigger.code === 421 } };
}
