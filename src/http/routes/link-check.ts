// The link check endpoint: each http(s) URL of a message requested and reported.
import type { LinkCheckService } from '../../services/link-check.js';
import { handlers } from '../handler.js';
import { linkCheckJson } from '../presenters.js';

export function linkCheckHandlers(linkCheck: LinkCheckService) {
  return handlers({
    checkMessageLinks: async ({ principal, params, query, signal }) => ({
      data: linkCheckJson(await linkCheck.check(principal.workspace.id, params.id, query.follow, signal)),
    }),
  });
}
