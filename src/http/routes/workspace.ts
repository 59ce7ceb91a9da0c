// Workspace and usage endpoints.
import type { WorkspaceService } from '../../services/accounts/workspaces.js';
import { handlers } from '../handler.js';
import { usageJson, workspaceJson } from '../presenters.js';

export function workspaceHandlers(workspaces: WorkspaceService) {
  return handlers({
    // The role is the person's, the access the key's (openapi.yaml: each only set for its kind of principal).
    getWorkspace: async ({ principal }) => ({
      data: principal.kind === 'session'
        ? { ...workspaceJson(principal.workspace), role: principal.role }
        : { ...workspaceJson(principal.workspace), access: principal.access },
    }),
    getUsage: async ({ principal }) => ({ data: usageJson(await workspaces.usage(principal.workspace)) }),
  });
}
