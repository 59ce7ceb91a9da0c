// Entry of a content worker thread: runs one parsing or analysis task on a message's bytes (see content-pool.ts).
import { parseEmail } from '../mime/parse-email.js';
import { headerSummary } from '../mime/header-summary.js';
import { attachmentContent, checkableLinks, htmlBody, messageParts, messageView } from '../mime/message-view.js';
import { renderedHtml, renderedText } from '../mime/rendered-view.js';
import { searchFields } from '../domain/search-text.js';
import { matchRules } from '../query/match-rules.js';
import { imageThumbnail } from './thumbnail.js';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import type { ComposedBody } from '../mime/compose-message.js';
import type { ContentResults, ContentTask } from './content-tasks.js';

/** The composed message travels back moved, not copied: it may be tens of MB, and the event loop would pay the copy. */
function transferringMessage(body: ComposedBody): ComposedBody {
  if (!('raw' in body.composed)) return body;
  const { raw } = body.composed;
  const own = raw.byteOffset === 0 && raw.byteLength === raw.buffer.byteLength ? raw : new Uint8Array(raw);
  return move({
    get [transferableSymbol]() {
      return [own.buffer];
    },
    get [valueSymbol]() {
      return { outline: body.outline, composed: { raw: own } };
    },
  }) as unknown as ComposedBody;
}

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
    case 'parts':
      return messageParts(raw);
    case 'thumbnail':
      return imageThumbnail(raw, task);
    case 'composeMessage': {
      // Loaded on a worker's first send: the composer is not needed by a worker that only parses captures.
      const { composeFromJson } = await import('../mime/compose-message.js');
      return transferringMessage(await composeFromJson(raw));
    }
  }
}
