// Inboxes: creation with SMTP credentials, listing with message and unread counts, rotation, clearing and deletion.
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import { hashSecret, newSmtpPassword, newSmtpUsername, secretMatches } from '../../domain/secrets.js';
import type { Inbox, Plan, Workspace } from '../../domain/types.js';
import { defaultInboxSettings, type InboxSettings } from '../../domain/inbox-settings.js';
import { inboxNameKey } from '../../domain/inbox-names.js';
import type { Backend } from '../../storage/ports.js';
import { removeMessages } from './message-removal.js';

/** Another workspace's inbox is reported exactly like a missing one. */
const noSuchInbox = (id: string) => new AppError('not_found', `no inbox with id '${id}'`);

export interface InboxView extends Inbox {
  messageCount: number;
  unreadCount: number;
}

export class InboxService {
  private readonly now: () => Date;

  constructor(
    private readonly storage: Pick<Backend, 'metadata' | 'messages' | 'blobs' | 'webhooks'>,
    options: { now?: () => Date } = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /** Returns the inbox with its one-time plain password. */
  async create(workspace: Workspace, plan: Plan, name: string): Promise<{ inbox: InboxView; password: string }> {
    const password = newSmtpPassword();
    const inbox: Inbox = {
      id: newId('inb'),
      workspaceId: workspace.id,
      name,
      smtpUsername: newSmtpUsername(),
      smtpPasswordHash: hashSecret(password),
      createdAt: this.now(),
      settings: defaultInboxSettings(),
    };
    const outcome = await this.storage.metadata.createInbox(inbox, plan.inboxLimit);
    if (outcome === 'name_taken') throw new AppError('already_exists', `an inbox named '${name}' already exists in this workspace`);
    if (outcome === 'limit_reached') throw new AppError('limit_reached', `the plan allows ${plan.inboxLimit} inbox(es); delete one or change plan`);
    return { inbox: { ...inbox, messageCount: 0, unreadCount: 0 }, password };
  }

  find(workspaceId: string, id: string): Promise<Inbox | null> {
    return this.storage.metadata.getInbox(workspaceId, id);
  }

  /** The workspace's inbox with this id or, failing that, this name (names are unique per workspace, whatever their case). */
  async findByIdOrName(workspaceId: string, idOrName: string): Promise<Inbox | null> {
    const byId = await this.find(workspaceId, idOrName);
    if (byId) return byId;
    const key = inboxNameKey(idOrName);
    return (await this.storage.metadata.listInboxes(workspaceId)).find((inbox) => inboxNameKey(inbox.name) === key) ?? null;
  }

  async require(workspaceId: string, id: string): Promise<Inbox> {
    const inbox = await this.find(workspaceId, id);
    if (!inbox) throw noSuchInbox(id);
    return inbox;
  }

  private async withCounts(workspaceId: string, inboxes: Inbox[]): Promise<InboxView[]> {
    const counts = await this.storage.messages.countByInbox(workspaceId, inboxes.map((inbox) => inbox.id));
    return inboxes.map((inbox) => {
      const count = counts.get(inbox.id);
      return { ...inbox, messageCount: count?.messages ?? 0, unreadCount: count?.unread ?? 0 };
    });
  }

  async get(workspaceId: string, id: string): Promise<InboxView> {
    const [view] = await this.withCounts(workspaceId, [await this.require(workspaceId, id)]);
    return view!;
  }

  async list(workspaceId: string): Promise<InboxView[]> {
    return this.withCounts(workspaceId, await this.storage.metadata.listInboxes(workspaceId));
  }

  async rotatePassword(workspaceId: string, id: string): Promise<{ inbox: InboxView; password: string }> {
    const password = newSmtpPassword();
    const inbox = await this.storage.metadata.setInboxPassword(workspaceId, id, hashSecret(password));
    if (!inbox) throw noSuchInbox(id);
    const [view] = await this.withCounts(workspaceId, [inbox]);
    return { inbox: view!, password };
  }

  /** Replaces the given sections of the inbox's settings, each whole; resolves to the inbox as it now is. */
  async setSettings(workspaceId: string, id: string, sections: Partial<InboxSettings>): Promise<Inbox> {
    const inbox = await this.storage.metadata.setInboxSettings(workspaceId, id, sections);
    if (!inbox) throw noSuchInbox(id);
    return inbox;
  }

  /** Deletes every message of the inbox and keeps the inbox. */
  async clear(workspaceId: string, id: string): Promise<number> {
    await this.require(workspaceId, id);
    return (await removeMessages(this.storage, { workspaceId, inboxId: id })).length;
  }

  /**
   * Deletes the inbox and all that belongs to it; resolves to the number of messages deleted. What belongs to it
   * goes before the inbox, so a failure part-way leaves the inbox in place for a repeated delete to finish, and
   * again after it, for what was added meanwhile (see sweepDeleted).
   */
  async delete(workspaceId: string, id: string): Promise<number> {
    await this.require(workspaceId, id);
    const deleted = await this.removeBelongings(workspaceId, id);
    await this.storage.metadata.deleteInbox(workspaceId, id);
    return deleted + (await this.sweepDeleted(workspaceId, id));
  }

  /**
   * Removes what a deleted inbox still has: what was added while it was being deleted, such as a capture that
   * finished meanwhile (ingest looks for its inbox only once the message is stored). Resolves to the number of
   * messages removed.
   */
  async sweepDeleted(workspaceId: string, id: string): Promise<number> {
    const removed = await this.removeBelongings(workspaceId, id);
    // Only once the inbox is gone: clearing keeps the log, so the inbox's streams keep their positions.
    await this.storage.messages.dropArrivals(workspaceId, id);
    return removed;
  }

  /** Everything deleting an inbox cascades to, for both profiles: its messages with their blobs, its tag rules, its webhooks. */
  private async removeBelongings(workspaceId: string, id: string): Promise<number> {
    const removed = await removeMessages(this.storage, { workspaceId, inboxId: id });
    await this.storage.metadata.deleteTagRulesOfInbox(workspaceId, id);
    // An inbox's webhook has nothing left to hear once the inbox is gone, and would still count toward the plan.
    await this.storage.webhooks.deleteWebhooksOfInbox(workspaceId, id);
    return removed.length;
  }

  /** SMTP login: the inbox whose username and password match, or null. */
  async authenticateSmtp(username: string, password: string): Promise<Inbox | null> {
    const inbox = await this.storage.metadata.findInboxBySmtpUsername(username);
    return inbox && secretMatches(password, inbox.smtpPasswordHash) ? inbox : null;
  }
}
