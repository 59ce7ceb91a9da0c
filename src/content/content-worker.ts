// Entry of a content worker thread: runs one parsing or analysis task on a message's bytes (see content-pool.ts).
import { parseEmail } from '../mime/parse-email.js';
import { headerSummary } from '../mime/header-summary.js';
import { attachmentContent, checkableLinks, htmlBody, messageView } from '../mime/message-view.js';
import { renderedHtml, renderedText } from '../mime/rendered-view.js';
import { searchFields } from '../domain/search-text.js';
import { matchRules } from '../query/match-rules.js';
import type { ContentResults, ContentTask } from './content-tasks.js';

export default async function runContentTask(task: ContentTask): Promise<ContentResults[ContentTask['kind']]> {
  Atomics.store(new BigInt64Array(task.started), 0, BigInt(Date.now()));
  // Structured cloning delivers a plain Uint8Array; the parsers want a Buffer over the same memory.
  const raw = Buffer.from(task.raw.buffer, task.raw.byteOffset, task.raw.byteLength);
  switch (task.kind) {
    case 'analyze': {
      const parsed = await parseEmail(raw);
      if (!task.tagRules) return parsed;
      const { rules, envelope, budgetMs } = task.tagRules;
      const message = {
        read: false, tags: envelope.tags, attachmentCount: parsed.attachmentCount, size: envelope.size, receivedAt: envelope.receivedAt,
        search: searchFields({ ...parsed, envelopeFrom: envelope.envelopeFrom, recipients: envelope.recipients }, parsed.textBody, parsed.htmlText),
      };
      return { ...parsed, ruleTags: matchRules(rules, message, budgetMs) };
    }
    case 'headers':
      return headerSummary(raw);
    case 'view':
      return messageView(raw);
    case 'html':
      return htmlBody(raw);
    case 'attachment':
      return attachmentContent(raw, task.index);
    case 'renderHtml':
      return renderedHtml(raw);
    case 'renderText':
      return renderedText(raw);
    case 'checkableLinks':
      return checkableLinks(raw, task.limit);
    case 'htmlCheck': {
      // Loaded on a worker's first check: the CSS parser and the caniemail data cost memory a worker that never checks need not hold.
      const { messageHtmlCheck } = await import('../mime/html-check.js');
      return messageHtmlCheck(raw, task.stylesheets, task.stylesheetLimit);
    }
  }
}
