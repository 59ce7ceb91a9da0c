// The workspace's plan and usage, and its audit log.
import type { AuditLog } from '../../services/accounts/audit-log.js';
import { HOW_TO_CHANGE_PLAN, type WorkspaceService } from '../../services/accounts/workspaces.js';
import { handlers } from '../handler.js';
import { auditEntryJson, planJson } from '../account-presenters.js';

export function planHandlers(workspaces: WorkspaceService, audit: AuditLog) {
  return handlers({
    getPlan: async ({ principal }) => ({
      data: planJson(workspaces.planFor(principal.workspace), await workspaces.usage(principal.workspace), HOW_TO_CHANGE_PLAN),
    }),
    listAuditLog: async ({ principal, query }) => {
      const { entries, nextCursor } = await audit.list(principal.workspace.id, query.limit, query.cursor);
      return { data: entries.map(auditEntryJson), nextCursor };
    },
  });
}
