// Chaos as an SMTP policy: at each stage the inbox's chaos settings, as they are at that command, are rolled
// (decideChaos, the roll the dry run uses too) to delay the reply, drop the connection or refuse with the trigger's reply.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import { decideChaos, type Chance, type ChaosStage } from '../domain/chaos.js';
import type { ChaosEffect } from '../observability/metrics.js';
import { CONTINUE, refuse, type PolicyContext, type SmtpPolicy, type Verdict } from './smtp-policy.js';

export interface ChaosObserver {
  chaosFired(stage: ChaosStage, kind: ChaosEffect): void;
}

export function chaosPolicy(chance: Chance, observer: ChaosObserver, log: Logger): SmtpPolicy {
  async function atStage(context: PolicyContext, stage: ChaosStage): Promise<Verdict> {
    const inbox = await context.inbox();
    // No inbox: it was deleted since the login; the auth policy refuses at MAIL FROM, the capture at DATA.
    if (!inbox) return CONTINUE;
    const { delayMs, action } = decideChaos(inbox.settings.chaos, stage, chance);
    const fired = (kind: ChaosEffect, details: Record<string, unknown>) => {
      observer.chaosFired(stage, kind);
      log.info({ session_id: context.sessionId, workspace_id: inbox.workspaceId, inbox_id: inbox.id, stage, kind, ...details }, `chaos ${kind} at ${stage}`);
    };
    if (delayMs > 0) {
      fired('delay', { delay_ms: delayMs });
      await sleep(delayMs);
    }
    if (action.kind === 'disconnect') {
      fired('disconnect', {});
      return { kind: 'drop', code: 'chaos' };
    }
    if (action.kind === 'continue') return CONTINUE;
    const { code, enhanced, message } = action.reply;
    fired('reply', { code });
    return refuse(new AppError('chaos', message, { smtp: { code, enhanced } }), { close: action.closes });
  }

  return {
    // The greeting goes out before the client names an inbox, so the connection stage is decided at the login,
    // before the authentication stage: a refusal there closes the connection, as a refused greeting would.
    auth: async (context) => {
      const connection = await atStage(context, 'connection');
      return connection.kind === 'continue' ? atStage(context, 'authentication') : connection;
    },
    mail: (context) => atStage(context, 'sender'),
    rcpt: (context) => atStage(context, 'recipient'),
    data: (context) => atStage(context, 'data'),
  };
}
