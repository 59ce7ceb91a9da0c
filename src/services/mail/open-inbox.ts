// The open inbox (SANDBOX_OPEN_INBOX): the one inbox an operator named to take mail without credentials, found as
// storage holds it now, or the reason there is none, worded once for the SMTP port and the Mailpit API alike.
import { AppError } from '../../errors.js';
import type { OpenInboxConfig } from '../../config.js';
import type { Inbox } from '../../domain/types.js';
import { inboxNameKey } from '../../domain/inbox-names.js';
import type { MetadataStore } from '../../storage/ports.js';

/** A workspace id as newId('ws') makes it. */
const WORKSPACE_ID = /^ws_[0-9a-hjkmnp-tv-z]{26}$/;

/**
 * How long the answer "there is no such inbox" is reused: a client told so again and again (a refused MAIL FROM in a
 * loop) must not make each telling a scan of the workspaces. Creating the inbox takes effect within this long.
 */
const MISSING_MEMO_MS = 1000;

export type OpenInboxStore = Pick<MetadataStore, 'findInboxById' | 'getInbox' | 'getWorkspace' | 'listWorkspaces' | 'listInboxes'>;

export class OpenInbox {
  /** Where a name last led: read again by id first, since ids never move between workspaces. */
  private found: { workspaceId: string; inboxId: string } | null = null;
  private missing: { error: AppError; until: number } | null = null;

  constructor(
    private readonly config: OpenInboxConfig,
    private readonly metadata: OpenInboxStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** SANDBOX_OPEN_INBOX as the operator wrote it. */
  get label(): string {
    return this.config.label;
  }

  /**
   * The inbox as storage holds it now. Throws not_found naming why when there is none (never created, deleted, or its
   * workspace's name is not one workspace's); a storage failure throws as it is (storage_unavailable: retry).
   */
  async current(): Promise<Inbox> {
    if (this.missing && this.now() < this.missing.until) throw this.missing.error;
    this.missing = null;
    try {
      return await this.lookUp();
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') this.missing = { error, until: this.now() + MISSING_MEMO_MS };
      throw error;
    }
  }

  /**
   * The inbox, made first when it is named by workspace and name and that workspace has none of the name: a fresh
   * server or container given SANDBOX_OPEN_INBOX=default/mailpit takes mail with no step before it, as Mailpit does.
   * An inbox named by id is never made (ids are not chosen), nor one whose workspace is missing or ambiguous.
   * `create` answers already_exists when another node made it first, which is as good.
   */
  async ensure(create: (workspaceId: string, name: string) => Promise<unknown>): Promise<{ inbox: Inbox; created: boolean }> {
    try {
      return { inbox: await this.current(), created: false };
    } catch (error) {
      const named = this.config.inbox;
      if (!(error instanceof AppError && error.code === 'not_found') || named.kind === 'id') throw error;
      await create(await this.workspaceId(named.workspace), named.inboxName).catch((refusal: unknown) => {
        if (!(refusal instanceof AppError && refusal.code === 'already_exists')) throw refusal;
      });
      this.missing = null;
      return { inbox: await this.current(), created: true };
    }
  }

  private async lookUp(): Promise<Inbox> {
    const named = this.config.inbox;
    if (named.kind === 'id') {
      const inbox = await this.metadata.findInboxById(named.inboxId);
      if (!inbox) throw this.noInbox(`no inbox has the id ${named.inboxId} (never created, or deleted)`);
      return inbox;
    }
    if (this.found) {
      const inbox = await this.metadata.getInbox(this.found.workspaceId, this.found.inboxId);
      if (inbox && inboxNameKey(inbox.name) === inboxNameKey(named.inboxName)) return inbox;
      this.found = null;
    }
    const workspaceId = await this.workspaceId(named.workspace);
    const key = inboxNameKey(named.inboxName);
    const inbox = (await this.metadata.listInboxes(workspaceId)).find((candidate) => inboxNameKey(candidate.name) === key);
    if (!inbox) throw this.noInbox(`workspace '${named.workspace}' has no inbox named '${named.inboxName}' (never created, or deleted)`);
    this.found = { workspaceId, inboxId: inbox.id };
    return inbox;
  }

  /** The workspace named by its id or, failing that, by a name exactly one workspace has. */
  private async workspaceId(workspace: string): Promise<string> {
    if (WORKSPACE_ID.test(workspace) && (await this.metadata.getWorkspace(workspace))) return workspace;
    const named = (await this.metadata.listWorkspaces()).filter((candidate) => candidate.name === workspace);
    if (named.length === 0) throw this.noInbox(`no workspace has the id or name '${workspace}'`);
    if (named.length > 1) throw this.noInbox(`${named.length} workspaces are named '${workspace}'; name the workspace by its id`);
    return named[0]!.id;
  }

  private noInbox(why: string): AppError {
    return new AppError('not_found', `The open inbox SANDBOX_OPEN_INBOX=${this.config.label} does not exist: ${why}`);
  }
}
