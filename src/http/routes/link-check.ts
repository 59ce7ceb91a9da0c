// The link check endpoint: each http(s) URL of a message requested and reported, in Mailpit's capitalised field names.
import type { LinkCheckService } from '../../services/link-check.js';
import type { LinkOutcome } from '../../outbound/check-links.js';
import { handlers } from '../handler.js';

const linkJson = (outcome: LinkOutcome) => ({
  URL: outcome.url,
  StatusCode: outcome.statusCode,
  Status: outcome.status,
  ...(outcome.finalUrl === undefined ? {} : { FinalURL: outcome.finalUrl, Redirects: outcome.redirects }),
});

export function linkCheckHandlers(linkCheck: LinkCheckService) {
  return handlers({
    checkMessageLinks: async ({ principal, params, query, signal }) => {
      const report = await linkCheck.check(principal.workspace.id, params.id, query.follow, signal);
      return { data: { Found: report.found, Capped: report.capped, Errors: report.errors, Links: report.links.map(linkJson) } };
    },
  });
}
