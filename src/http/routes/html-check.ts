// The HTML check endpoint: how well email clients support the HTML and CSS a message uses.
import type { HtmlCheckService } from '../../services/html-check.js';
import { handlers } from '../handler.js';

export function htmlCheckHandlers(checks: HtmlCheckService) {
  return handlers({
    getMessageHtmlCheck: async ({ principal, params }) => ({ data: await checks.check(principal.workspace.id, params.id) }),
  });
}
