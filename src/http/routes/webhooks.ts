// Webhook endpoints: create, list, delete, deliveries, test, and retrying a finished delivery.
import type { WebhookService } from '../../services/realtime/webhooks.js';
import type { WorkspaceService } from '../../services/accounts/workspaces.js';
import { handlers } from '../handler.js';
import { deliveryJson, webhookJson, webhookWithSecretJson } from '../presenters.js';

export function webhookHandlers(webhooks: WebhookService, workspaces: WorkspaceService) {
  return handlers({
    listWebhooks: async ({ principal }) => ({ data: (await webhooks.list(principal.workspace.id)).map(webhookJson) }),
    createWebhook: async ({ principal, body }) => ({
      status: 201,
      data: webhookWithSecretJson(await webhooks.create(principal.workspace.id, workspaces.planFor(principal.workspace), body)),
    }),
    deleteWebhook: async ({ principal, params }) => {
      await webhooks.delete(principal.workspace.id, params.id);
      return { data: { deleted: 1 } };
    },
    listWebhookDeliveries: async ({ principal, params }) => ({ data: (await webhooks.deliveries(principal.workspace.id, params.id)).map(deliveryJson) }),
    testWebhook: async ({ principal, params }) => ({ status: 202, data: { delivery_id: await webhooks.test(principal.workspace.id, params.id) } }),
    retryWebhookDelivery: async ({ principal, params }) => ({ data: { requeued: await webhooks.retry(principal.workspace.id, params.id) } }),
  });
}
