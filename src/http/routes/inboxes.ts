// Inbox endpoints: create, list, get, delete, rotate credentials, clear.
import type { InboxService } from '../../services/mail/inboxes.js';
import type { WorkspaceService } from '../../services/accounts/workspaces.js';
import { handlers } from '../handler.js';
import { inboxJson, inboxWithCredentialsJson, type SmtpEndpoint } from '../presenters.js';

export function inboxHandlers(inboxes: InboxService, workspaces: WorkspaceService, smtpEndpoint: () => SmtpEndpoint) {
  return handlers({
    listInboxes: async ({ principal }) => ({ data: (await inboxes.list(principal.workspace.id)).map(inboxJson) }),
    createInbox: async ({ principal, body }) => {
      const { inbox, password } = await inboxes.create(principal.workspace, workspaces.planFor(principal.workspace), body.name);
      return { status: 201, data: inboxWithCredentialsJson(inbox, password, smtpEndpoint()) };
    },
    getInbox: async ({ principal, params }) => ({ data: inboxJson(await inboxes.get(principal.workspace.id, params.id)) }),
    deleteInbox: async ({ principal, params }) => ({ data: { deleted_messages: await inboxes.delete(principal.workspace.id, params.id) } }),
    rotateInboxCredentials: async ({ principal, params }) => {
      const { inbox, password } = await inboxes.rotatePassword(principal.workspace.id, params.id);
      return { data: inboxWithCredentialsJson(inbox, password, smtpEndpoint()) };
    },
    clearInbox: async ({ principal, params }) => ({ data: { deleted_messages: await inboxes.clear(principal.workspace.id, params.id) } }),
  });
}
