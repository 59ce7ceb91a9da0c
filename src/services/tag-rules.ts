// Tag rules: stored q expressions that tag a message as it arrives, before anyone can see it.
import { AppError } from '../errors.js';
import { newId } from '../domain/ids.js';
import { normalizeTags } from '../domain/tags.js';
import type { MessageRecord, TagRule } from '../domain/types.js';
import { parseQuery } from '../query/parse-query.js';
import { matches } from '../query/match.js';
import type { MetadataStore } from '../storage/ports.js';
import type { InboxService } from './inboxes.js';

export interface TagRuleInput {
  inbox_id?: string | null;
  query: string;
  tags: string[];
}

export class TagRuleService {
  constructor(
    private readonly metadata: MetadataStore,
    private readonly inboxes: InboxService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(workspaceId: string, inboxId?: string): Promise<TagRule[]> {
    return this.metadata.listTagRules(workspaceId, inboxId);
  }

  private async validated(workspaceId: string, id: string, input: TagRuleInput, createdAt: Date): Promise<TagRule> {
    // Refusing a bad query now beats a rule that silently never matches.
    parseQuery(input.query);
    const inboxId = input.inbox_id ?? null;
    if (inboxId !== null) await this.inboxes.require(workspaceId, inboxId);
    const tags = normalizeTags(input.tags);
    return { id, workspaceId, inboxId, query: input.query, tags, createdAt };
  }

  async create(workspaceId: string, input: TagRuleInput): Promise<TagRule> {
    const rule = await this.validated(workspaceId, newId('rule'), input, this.now());
    await this.metadata.createTagRule(rule);
    return rule;
  }

  async replace(workspaceId: string, id: string, input: TagRuleInput): Promise<TagRule> {
    const existing = await this.metadata.getTagRule(workspaceId, id);
    if (!existing) throw new AppError('not_found', `no tag rule with id '${id}'`);
    const rule = await this.validated(workspaceId, id, input, existing.createdAt);
    if (!(await this.metadata.replaceTagRule(rule))) throw new AppError('not_found', `no tag rule with id '${id}'`);
    return rule;
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.metadata.deleteTagRule(workspaceId, id))) throw new AppError('not_found', `no tag rule with id '${id}'`);
  }

  /** Tags the workspace's rules give a just-parsed message. */
  async tagsFor(message: MessageRecord): Promise<string[]> {
    const rules = await this.metadata.listTagRules(message.workspaceId);
    const tags: string[] = [];
    for (const rule of rules) {
      if (rule.inboxId !== null && rule.inboxId !== message.inboxId) continue;
      if (matches(parseQuery(rule.query), message)) tags.push(...rule.tags);
    }
    return tags;
  }
}
