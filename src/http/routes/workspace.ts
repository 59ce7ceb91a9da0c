// Workspace and usage endpoints.
import type { WorkspaceService } from '../../services/workspaces.js';
import { handlers } from '../handler.js';
import { usageJson, workspaceJson } from '../presenters.js';

export function workspaceHandlers(workspaces: WorkspaceService) {
  return handlers({
    getWorkspace: async ({ principal }) => ({ data: workspaceJson(principal.workspace) }),
    getUsage: async ({ principal }) => ({ data: usageJson(await workspaces.usage(principal.workspace)) }),
  });
}
