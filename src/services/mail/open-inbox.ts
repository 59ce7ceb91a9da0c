// The operator's open inbox (SANDBOX_OPEN_INBOX), looked up as the configuration names it: by id, or by workspace and
// name. It is looked up again on each use, so a deleted or renamed inbox stops being open at once.
import { AppError } from '../../errors.js';
import type { OpenInboxName } from '../../config.js';
import type { Inbox } from '../../domain/types.js';
import { inboxNameKey } from '../../domain/inbox-names.js';
import type { MetadataStore } from '../../storage/ports.js';
import type { InboxService } from './inboxes.js';

export class OpenInboxFinder {
  /** Where the inbox was found last: its own id only needs its workspace, which an id alone does not say. */
  private lastWorkspaceId: string | null = null;

  constructor(
    private readonly name: OpenInboxName,
    private readonly metadata: Pick<MetadataStore, 'listWorkspaces' | 'getWorkspace'>,
    private readonly inboxes: Pick<InboxService, 'find' | 'findByIdOrName'>,
  ) {}

  /** The open inbox as it is now, or null when nothing matches the configured name any more. */
  async find(): Promise<Inbox | null> {
    if (this.name.kind === 'id') return this.findById(this.name.inboxId);
    const workspaces = await this.workspacesNamed(this.name.workspace);
    if (workspaces.length > 1) {
      throw new AppError('not_configured', `SANDBOX_OPEN_INBOX names workspace '${this.name.workspace}', and ${workspaces.length} workspaces have that name; name it by its id`);
    }
    const [workspaceId] = workspaces;
    if (workspaceId === undefined) return null;
    const inbox = await this.inboxes.findByIdOrName(workspaceId, this.name.inboxName);
    // By name only: an inbox whose id happens to be the configured name is not the one named.
    return inbox && inboxNameKey(inbox.name) === inboxNameKey(this.name.inboxName) ? inbox : null;
  }

  private async findById(inboxId: string): Promise<Inbox | null> {
    if (this.lastWorkspaceId !== null) {
      const inbox = await this.inboxes.find(this.lastWorkspaceId, inboxId);
      if (inbox) return inbox;
    }
    for (const workspace of await this.metadata.listWorkspaces()) {
      const inbox = await this.inboxes.find(workspace.id, inboxId);
      if (inbox) {
        this.lastWorkspaceId = workspace.id;
        return inbox;
      }
    }
    return null;
  }

  /** The ids of the workspaces with this id, or else with this name. */
  private async workspacesNamed(reference: string): Promise<string[]> {
    const byId = await this.metadata.getWorkspace(reference);
    if (byId) return [byId.id];
    return (await this.metadata.listWorkspaces()).filter((workspace) => workspace.name === reference).map((workspace) => workspace.id);
  }
}
