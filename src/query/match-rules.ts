// Matches a workspace's tag rules against one arriving message, within a time budget: it runs in a content worker.
import type { QueryNode } from './ast.js';
import { matches, type MatchableMessage } from './match.js';

/** A tag rule as matching needs it: its query parsed once (services/mail/tag-rules.ts caches it) and the tags it gives. */
export interface ParsedTagRule {
  filter: QueryNode;
  tags: string[];
}

export interface RuleMatchOutcome {
  /** The tags of every rule that matched, in rule order, repeats included. */
  tags: string[];
  /** Rules left unmatched because the budget ran out before them. */
  skipped: number;
}

/**
 * Rules are matched one after another against the message as it arrived (the sender's tags, not other rules'
 * tags). The budget is checked between rules: one rule's work is bounded by the query limits (parse-query.ts).
 */
export function matchRules(rules: ParsedTagRule[], message: MatchableMessage, budgetMs: number, now: () => number = Date.now): RuleMatchOutcome {
  const deadline = now() + budgetMs;
  const tags: string[] = [];
  for (const [index, rule] of rules.entries()) {
    if (index > 0 && now() >= deadline) return { tags, skipped: rules.length - index };
    if (matches(rule.filter, message)) tags.push(...rule.tags);
  }
  return { tags, skipped: 0 };
}
