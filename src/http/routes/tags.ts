// Tag and tag-rule endpoints.
import type { TagService } from '../../services/tags.js';
import type { TagRuleInput, TagRuleService } from '../../services/tag-rules.js';
import type { HandlerTable } from '../handler.js';
import { tagJson, tagRuleJson } from '../presenters.js';

export function tagHandlers(tags: TagService, rules: TagRuleService): HandlerTable {
  return {
    listTags: async ({ principal }) => ({ data: (await tags.list(principal.workspace.id)).map(tagJson) }),
    updateTag: async ({ principal, params, body }) => {
      const result = await tags.update(principal.workspace.id, params.name!, body as { name?: string; color?: string });
      return { data: { old_name: result.oldName, name: result.name, color: result.color } };
    },
    deleteTag: async ({ principal, params }) => ({ data: { deleted: await tags.delete(principal.workspace.id, params.name!) } }),
    listTagRules: async ({ principal, query }) => ({
      data: (await rules.list(principal.workspace.id, query.inbox_id as string | undefined)).map(tagRuleJson),
    }),
    createTagRule: async ({ principal, body }) => ({ status: 201, data: tagRuleJson(await rules.create(principal.workspace.id, body as TagRuleInput)) }),
    replaceTagRule: async ({ principal, params, body }) => ({ data: tagRuleJson(await rules.replace(principal.workspace.id, params.id!, body as TagRuleInput)) }),
    deleteTagRule: async ({ principal, params }) => {
      await rules.delete(principal.workspace.id, params.id!);
      return { data: { deleted: params.id! } };
    },
  };
}
