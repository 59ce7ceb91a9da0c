// Webhooks of a workspace: creation (with the target policy), deliveries for captured messages and tests, retries.
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import { newWebhookSecret } from '../../domain/secrets.js';
import type { Delivery, MessageRecord, Plan, Webhook, WebhookEvent } from '../../domain/types.js';
import type { WebhookStore } from '../../storage/ports.js';
import type { components } from '../../contract/api-types.js';
import type { InboxService } from '../mail/inboxes.js';
import { targetRefusal, type TargetPolicy } from '../../outbound/target-policy.js';

/** Each webhook keeps its newest this many deliveries (older ones only until they finish); GET /webhooks/{id}/deliveries lists as many. */
const KEPT_DELIVERIES = 50;

type Schemas = components['schemas'];
/** A delivery's body: the receiver sees exactly this, and every field of it is the contract's. */
type EventBody = Schemas['WebhookMessageReceivedEvent'] | Schemas['WebhookTestEvent'];

export interface WebhookInput {
  url: string;
  inbox_id?: string | null;
}

export class WebhookService {
  constructor(
    private readonly store: WebhookStore,
    private readonly inboxes: InboxService,
    private readonly policy: TargetPolicy,
    /** The message as message.received carries it in `data`: the spec's summary fields, nothing from the bodies. */
    private readonly messageJson: (record: MessageRecord) => Schemas['WebhookMessage'],
    /** Called after deliveries were queued, so a worker can start on them at once. */
    private readonly queued: () => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(workspaceId: string, plan: Plan, input: WebhookInput): Promise<Webhook> {
    const checked = await targetRefusal(input.url, this.policy, workspaceId);
    if ('refusal' in checked) throw new AppError('webhook_target_forbidden', `url: ${checked.refusal}`);
    const { url } = checked;
    const inboxId = input.inbox_id ?? null;
    if (inboxId !== null) await this.inboxes.require(workspaceId, inboxId);
    const webhook: Webhook = { id: newId('whk'), workspaceId, inboxId, url: url.href, secret: newWebhookSecret(), createdAt: this.now() };
    if ((await this.store.createWebhook(webhook, plan.webhookLimit)) === 'limit_reached') {
      throw new AppError('limit_reached', `the plan allows ${plan.webhookLimit} webhook(s); delete one or change plan`);
    }
    return webhook;
  }

  list(workspaceId: string): Promise<Webhook[]> {
    return this.store.listWebhooks(workspaceId);
  }

  async require(workspaceId: string, id: string): Promise<Webhook> {
    const webhook = await this.store.getWebhook(workspaceId, id);
    if (!webhook) throw new AppError('not_found', `no webhook with id '${id}'`);
    return webhook;
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.store.deleteWebhook(workspaceId, id))) throw new AppError('not_found', `no webhook with id '${id}'`);
  }

  async deliveries(workspaceId: string, id: string): Promise<Delivery[]> {
    await this.require(workspaceId, id);
    return this.store.listDeliveries(workspaceId, id, KEPT_DELIVERIES);
  }

  /** Queues a webhook.test delivery; resolves to its id. */
  async test(workspaceId: string, id: string): Promise<number> {
    const webhook = await this.require(workspaceId, id);
    const message = 'A test delivery from mail-sandbox: your endpoint is reachable and can check the signature.';
    const [deliveryId] = await this.enqueue(workspaceId, [webhook], '', (createdAt) => ({ event: 'webhook.test', created_at: createdAt, data: { webhook_id: webhook.id, message } }));
    // Deleted between the lookup and the enqueue.
    if (deliveryId === null || deliveryId === undefined) throw new AppError('not_found', `no webhook with id '${id}'`);
    return deliveryId;
  }

  async retry(workspaceId: string, deliveryId: number): Promise<number> {
    const outcome = await this.store.requeue(workspaceId, deliveryId, this.now());
    if (outcome === null) throw new AppError('not_found', `no webhook delivery with id ${deliveryId}`);
    if (outcome === 'not_finished') {
      const delivery = await this.store.getDelivery(workspaceId, deliveryId);
      const next = delivery?.nextAttemptAt ? `; its next attempt is due at ${delivery.nextAttemptAt.toISOString()}` : '';
      throw new AppError('delivery_pending', `delivery ${deliveryId} is still pending${next}; only delivered or failed deliveries can be retried`);
    }
    this.queued();
    return deliveryId;
  }

  /** One message.received delivery per webhook of the message's inbox or workspace; tag rules have already run. */
  async messageStored(record: MessageRecord): Promise<void> {
    const webhooks = await this.store.webhooksFor(record.workspaceId, record.inboxId);
    if (webhooks.length === 0) return;
    const data = this.messageJson(record);
    await this.enqueue(record.workspaceId, webhooks, record.id, (createdAt) => ({ event: 'message.received', created_at: createdAt, data }));
  }

  private async enqueue(workspaceId: string, webhooks: Webhook[], messageId: string, bodyAt: (createdAt: string) => EventBody): Promise<(number | null)[]> {
    const now = this.now();
    const content = bodyAt(now.toISOString());
    const event: WebhookEvent = content.event;
    // One body for every attempt and every webhook: a receiver dedupes on data.id and X-Sandbox-Delivery.
    const body = JSON.stringify(content);
    const ids = await this.store.enqueue(webhooks.map((webhook) => ({ workspaceId, webhookId: webhook.id, event, messageId, body })), now, KEPT_DELIVERIES);
    this.queued();
    return ids;
  }
}
