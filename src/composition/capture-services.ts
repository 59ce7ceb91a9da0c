// The services a capture needs (workspaces, inboxes, tag rules, webhooks, the ingest pipeline), wired once for every entry point.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Backend } from '../storage/ports.js';
import { WorkspaceService } from '../services/accounts/workspaces.js';
import { InboxService } from '../services/mail/inboxes.js';
import { TagRuleService } from '../services/mail/tag-rules.js';
import { IngestPipeline, type CaptureObserver } from '../ingest/ingest-message.js';
import { WebhookService } from '../services/realtime/webhooks.js';
import { NameResolver, nameResolverSettings } from '../outbound/name-resolver.js';
import type { ContentPool } from '../content/content-pool.js';
import { webhookMessageJson } from '../http/presenters.js';

export interface CaptureServices {
  workspaces: WorkspaceService;
  inboxes: InboxService;
  tagRules: TagRuleService;
  webhooks: WebhookService;
  pipeline: IngestPipeline;
}

/**
 * `content` is the caller's pool, which it also uses for reads and closes itself. `deliveriesQueued` is told when webhook deliveries were queued; the server wakes its delivery worker, a process
 * without one (the admin CLI) leaves them to the servers' workers, which find them in the durable schedule.
 */
export function buildCaptureServices(
  backend: Backend,
  config: Config,
  content: Pick<ContentPool, 'analyze'>,
  log: Logger,
  deliveriesQueued: () => void,
  capture: { now?: () => Date; observer?: CaptureObserver } = {},
): CaptureServices {
  const workspaces = new WorkspaceService(backend.metadata, backend.captures, config.plans);
  const inboxes = new InboxService(backend);
  const tagRules = new TagRuleService(backend.metadata, inboxes);
  // Registering a webhook looks its name up once per request, under a gate of its own of the same sizes.
  const registrationNames = new NameResolver(nameResolverSettings(config));
  const webhooks = new WebhookService(backend.webhooks, inboxes, { allowPrivate: config.webhookAllowPrivate, names: registrationNames }, webhookMessageJson, deliveriesQueued);
  const pipeline = new IngestPipeline(backend, workspaces, inboxes, tagRules, content, log, { ...capture, afterStore: [webhooks], tagRuleBudgetMs: config.tagRuleBudgetMs });
  return { workspaces, inboxes, tagRules, webhooks, pipeline };
}
