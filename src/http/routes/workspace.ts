// Workspace and usage endpoints.
import type { WorkspaceService } from '../../services/accounts/workspaces.js';
import { handlers } from '../handler.js';
import { usageJson, workspaceJson } from '../presenters.js';

export function workspaceHandlers(workspaces: WorkspaceService) {
  return handlers({
    // The role is the person's; a key has none (openapi.yaml: only set for dashboard sessions).
    getWorkspace: async ({ principal }) => ({
      data: principal.kind === 'session' ? { ...workspaceJson(principal.workspace), role: principal.role } : workspaceJson(principal.workspace),
    }),
    getUsage: async ({ principal }) => ({ data: usageJson(await workspaces.usage(principal.workspace)) }),
  });
}
