// Tag and tag-rule endpoints.
import type { TagService } from '../../services/mail/tags.js';
import type { TagRuleService } from '../../services/mail/tag-rules.js';
import type { WorkspaceService } from '../../services/accounts/workspaces.js';
import { handlers } from '../handler.js';
import { tagJson, tagRuleJson, updatedTagJson } from '../presenters.js';

export function tagHandlers(tags: TagService, rules: TagRuleService, workspaces: WorkspaceService) {
  return handlers({
    listTags: async ({ principal }) => ({ data: (await tags.list(principal.workspace.id)).map(tagJson) }),
    updateTag: async ({ principal, params, body }) => ({ data: updatedTagJson(await tags.update(principal.workspace.id, params.name, body)) }),
    deleteTag: async ({ principal, params }) => ({ data: { deleted: await tags.delete(principal.workspace.id, params.name) } }),
    listTagRules: async ({ principal, query }) => ({ data: (await rules.list(principal.workspace.id, query.inbox_id)).map(tagRuleJson) }),
    createTagRule: async ({ principal, body }) => ({ status: 201, data: tagRuleJson(await rules.create(principal.workspace.id, workspaces.planFor(principal.workspace), body)) }),
    replaceTagRule: async ({ principal, params, body }) => ({ data: tagRuleJson(await rules.replace(principal.workspace.id, params.id, body)) }),
    deleteTagRule: async ({ principal, params }) => {
      await rules.delete(principal.workspace.id, params.id);
      return { data: { deleted: params.id } };
    },
  });
}
