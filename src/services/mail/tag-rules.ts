// Tag rules: stored q expressions that tag a message as it arrives, before anyone can see it.
import type { components } from '../../contract/api-types.js';
import { AppError } from '../../errors.js';
import { newId } from '../../domain/ids.js';
import { normalizeTags } from '../../domain/tags.js';
import type { Plan, TagRule } from '../../domain/types.js';
import type { QueryNode } from '../../query/ast.js';
import { parseQuery } from '../../query/parse-query.js';
import type { ParsedTagRule } from '../../query/match-rules.js';
import type { MetadataStore } from '../../storage/ports.js';
import type { InboxService } from './inboxes.js';

/** Parsed rule queries kept; past it the least recently used is parsed again when next needed. */
const PARSED_RULES_KEPT = 10_000;

export type TagRuleInput = components['schemas']['TagRuleInput'];

export class TagRuleService {
  /** By rule id and query text: a rule replaced with another query is a new entry, its old one ages out. */
  private readonly parsed = new Map<string, QueryNode>();

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

  async create(workspaceId: string, plan: Plan, input: TagRuleInput): Promise<TagRule> {
    const rule = await this.validated(workspaceId, newId('rule'), input, this.now());
    if ((await this.metadata.createTagRule(rule, plan.tagRuleLimit)) === 'limit_reached') {
      throw new AppError('limit_reached', `the plan allows ${plan.tagRuleLimit} tag rule(s); delete one or change plan`);
    }
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

  /** The rules that apply to a message arriving in the inbox, their queries parsed (once per rule version). */
  async rulesFor(workspaceId: string, inboxId: string): Promise<ParsedTagRule[]> {
    const rules = await this.metadata.listTagRules(workspaceId);
    return rules.filter((rule) => rule.inboxId === null || rule.inboxId === inboxId).map((rule) => ({ filter: this.filterOf(rule), tags: rule.tags }));
  }

  private filterOf(rule: TagRule): QueryNode {
    const key = `${rule.id}\n${rule.query}`;
    let filter = this.parsed.get(key);
    if (filter) {
      this.parsed.delete(key);
    } else {
      filter = parseQuery(rule.query);
      if (this.parsed.size >= PARSED_RULES_KEPT) this.parsed.delete(this.parsed.keys().next().value!);
    }
    this.parsed.set(key, filter);
    return filter;
  }
}
