// The dashboard's API key management: list, create (the key shown once), revoke.
import type { ApiKeyService } from '../../services/accounts/api-keys.js';
import { handlers } from '../handler.js';
import { apiKeyJson } from '../account-presenters.js';

export function apiKeyHandlers(keys: ApiKeyService) {
  return handlers({
    listApiKeys: async ({ principal }) => ({ data: (await keys.list(principal.workspace.id)).map(apiKeyJson) }),
    createApiKey: async ({ principal, body }) => {
      const { record, key } = await keys.create(principal, body.access, body.name ?? null);
      return { status: 201, data: { ...apiKeyJson(record), last_used_at: null, key } };
    },
    revokeApiKey: async ({ principal, params }) => {
      await keys.revoke(principal, params.id);
      return { data: { revoked: params.id } };
    },
  });
}
